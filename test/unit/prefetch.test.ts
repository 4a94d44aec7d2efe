import type { DataRouteObject } from "react-router";
import { matchRoutes } from "react-router";
import { describe, expect, it } from "vitest";
import shopRoutes from "../../app/routes";
import { candidateRoutes, prefetchTargets, type RouterView } from "../../app/lib/prefetch-engine";

// A route table shaped like the shop's: root > :locale layout (with a clientLoader) > pages.
const routes: DataRouteObject[] = [
  {
    id: "root",
    path: "",
    children: [
      {
        id: "shop",
        path: ":locale",
        children: [
          { id: "home", index: true },
          { id: "products", path: "products" },
          { id: "product", path: "product-details/:slug" },
          { id: "about", path: "about-us" },
        ],
      },
    ],
  },
];

const route = (id: string, extra: Partial<RouterView["manifest"]["routes"][string]> = {}) => ({
  id,
  module: `/assets/${id}.js`,
  imports: ["/assets/framework.js", `/assets/${id}-part.js`],
  hasAction: false,
  hasLoader: true,
  hasClientAction: false,
  hasClientLoader: false,
  hasClientMiddleware: false,
  hasErrorBoundary: false,
  ...extra,
});

const manifest = {
  entry: { module: "/assets/entry.js", imports: [] },
  url: "/assets/manifest.js",
  version: "1",
  routes: {
    root: route("root"),
    shop: route("shop", { parentId: "root", hasClientLoader: true }),
    home: route("home", { parentId: "shop" }),
    products: route("products", { parentId: "shop", css: ["/assets/products.css"] }),
    product: route("product", { parentId: "shop" }),
    about: route("about", { parentId: "shop", hasLoader: false }),
  },
} as unknown as RouterView["manifest"];

function viewAt(path: string, search = ""): RouterView {
  const matches = matchRoutes(routes, path) ?? [];
  return {
    routes,
    basename: "/",
    state: {
      matches,
      loaderData: Object.fromEntries(matches.map((m) => [m.route.id, {}])),
      location: { pathname: path, search, hash: "", state: null, key: "k" },
    },
    manifest,
    routeModules: {},
    trailingSlashAware: false,
  };
}

const origin = "https://shop.example";

describe("prefetchTargets (what following a link would load)", () => {
  it("asks for the page's .data with the routes whose loaders run, leaving the clientLoader's layout to its own request", () => {
    const t = prefetchTargets("/en/product-details/phone-1", viewAt("/en/products"), origin);
    expect(t.data).toEqual(["/en/product-details/phone-1.data?_routes=root%2Cproduct"]);
  });

  it("keeps the query of the target in the data URL", () => {
    const t = prefetchTargets("/en/products?category=tvs&page=2", viewAt("/en"), origin);
    expect(t.data).toEqual(["/en/products.data?category=tvs&page=2&_routes=root%2Cproducts"]);
  });

  it("lists only the modules and stylesheets of routes the current page does not have", () => {
    const t = prefetchTargets("/en/products", viewAt("/en/about-us"), origin);
    expect(t.modules).toEqual(["/assets/products.js", "/assets/framework.js", "/assets/products-part.js"]);
    expect(t.styles).toEqual(["/assets/products.css"]);
  });

  it("loads the layout again when the locale (its parameter) changes", () => {
    const t = prefetchTargets("/ar/products", viewAt("/en/products"), origin);
    expect(t.modules).toContain("/assets/shop.js");
  });

  it("asks for nothing for the page already shown, and no data for a page without loaders", () => {
    expect(prefetchTargets("/en/products", viewAt("/en/products"), origin).data).toEqual([]);
    // about-us has no loader; root's runs again on every navigation, so it is still asked for.
    expect(prefetchTargets("/en/about-us", viewAt("/en"), origin).data).toEqual(["/en/about-us.data?_routes=root"]);
    expect(prefetchTargets("https://elsewhere.example/x/y/z/w", viewAt("/en"), origin).data).toEqual([]);
  });

  it("names the root's data /_root.data", () => {
    const rootOnly: DataRouteObject[] = [{ id: "root", path: "/" }];
    const view: RouterView = {
      ...viewAt("/en"),
      routes: rootOnly,
      state: {
        matches: [],
        loaderData: {},
        location: { pathname: "/en", search: "", hash: "", state: null, key: "k" },
      },
    };
    expect(prefetchTargets("/", view, origin).data).toEqual(["/_root.data"]);
  });
});

describe("candidateRoutes (the branches worth matching a page against)", () => {
  // The shop's own route table (app/routes.ts), shaped as the router holds it.
  type Entry = { id?: string; path?: string; index?: boolean; file: string; children?: Entry[] };
  const toData = (entries: Entry[]): DataRouteObject[] =>
    entries.map((e) => {
      const id = e.id ?? e.file.replace(/\.tsx?$/, "");
      return e.index
        ? { id, index: true, path: e.path }
        : { id, path: e.path, children: e.children ? toData(e.children) : undefined };
    });
  const shop: DataRouteObject[] = [{ id: "root", path: "", children: toData(shopRoutes as Entry[]) }];
  const ids = (table: DataRouteObject[], page: string) => matchRoutes(table, page)?.map((m) => m.route.id) ?? null;
  const segments = (page: string) => new URL(page, origin).pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const count = (table: DataRouteObject[]): number => table.reduce((n, r) => n + 1 + count(r.children ?? []), 0);

  it.each([
    "/",
    "/en",
    "/ar/",
    "/error",
    "/sitemap.xml",
    "/robots.txt",
    "/en/products",
    "/EN/Products",
    "/ar/product-details/iphone-16-pro",
    "/en/product-details",
    "/en/auth/login",
    "/ar/auth/forget-password",
    "/en/profile",
    "/en/profile/orders",
    "/en/page/terms",
    "/en/services/",
    "/en/order/checkout/status",
    "/en/order/checkout",
    "/en/nope/deeper/still",
    "/en/%D8%B3%D9%84%D8%A9",
    "/fr/products",
    "/en/products/extra",
  ])("matches %s exactly as the whole table does", (page) => {
    const full = ids(shop, page);
    expect(full).not.toBeNull();
    expect(ids(candidateRoutes(shop, segments(page)), page)).toEqual(full);
  });

  it("leaves out the branches that cannot match", () => {
    const kept = candidateRoutes(shop, segments("/en/product-details/iphone-16-pro"));
    // root, the two layouts, their index routes, the splat page, product-details and the product page.
    expect(count(shop)).toBeGreaterThan(30);
    expect(count(kept)).toBeLessThanOrEqual(8);
  });
});
