import { describe, expect, it } from "vitest";
import { builtWorker } from "../support/http.ts";

const base = builtWorker().url;

const ROUTES = [
  "",
  "/auth/login",
  "/auth/register",
  "/auth/otp",
  "/auth/forget-password",
  "/auth/confirm-password",
  "/contact-us",
  "/about-us",
  "/privacy-policy",
  "/page",
  "/page/{slug}",
  "/orders",
  "/profile",
  "/profile/{slug}",
  "/products",
  "/product-details",
  "/product-details/{slug}",
  "/services",
  "/track-order",
  "/payment-status",
  "/checkout",
  "/order/checkout/status",
  "/proceed-payement",
  "/shopping-cart",
];

/** A real slug for the routes that take one, read from the seeded backend. */
async function slugs(): Promise<Record<string, string>> {
  const get = async (path: string) =>
    (await (await fetch(`${base}/backend${path}`)).json()) as { data: { slug: string }[] };
  const [products, pages] = await Promise.all([get("/products?per_page=1"), get("/pages")]);
  return {
    "/page/{slug}": `/page/${pages.data[0].slug}`,
    "/product-details/{slug}": `/product-details/${products.data[0].slug}`,
    "/profile/{slug}": "/profile/orders",
  };
}

const htmlAttrs = (html: string) => html.match(/<html lang="([^"]+)" dir="([^"]+)"/)?.slice(1);

describe("every route of the specification", () => {
  for (const locale of ["en", "ar"] as const) {
    it(`answers under /${locale} with the right <html lang dir>`, async () => {
      const real = await slugs();
      const expected = locale === "en" ? ["en-US", "ltr"] : ["ar-SA", "rtl"];
      for (const route of ROUTES) {
        const path = `/${locale}${real[route] ?? route}`;
        const res = await fetch(`${base}${path}`, { redirect: "manual" });
        if (route === "/orders" || route === "/profile/{slug}") {
          // The auth guard sends an anonymous visitor to login and back.
          expect(res.status, path).toBe(302);
          expect(res.headers.get("location"), path).toBe(`/${locale}/auth/login?redirect=${encodeURIComponent(path)}`);
          continue;
        }
        expect(res.status, path).toBe(200);
        expect(htmlAttrs(await res.text()), path).toEqual(expected);
      }
    });
  }

  it("serves the home page at / in the locale of the i18n_redirected cookie, else Accept-Language", async () => {
    const plain = await fetch(`${base}/`);
    expect(plain.status).toBe(200);
    expect(htmlAttrs(await plain.text())).toEqual(["en-US", "ltr"]);
    const byHeader = await fetch(`${base}/`, { headers: { "accept-language": "ar-SA,ar;q=0.9" } });
    expect(htmlAttrs(await byHeader.text())).toEqual(["ar-SA", "rtl"]);
    const byCookie = await fetch(`${base}/`, { headers: { cookie: "i18n_redirected=ar", "accept-language": "en" } });
    expect(htmlAttrs(await byCookie.text())).toEqual(["ar-SA", "rtl"]);
  });

  it("the redirect middleware remembers the locale in the i18n_redirected cookie", async () => {
    const res = await fetch(`${base}/ar/products`);
    expect(res.headers.get("set-cookie")).toMatch(/i18n_redirected=ar; Max-Age=\d+; Path=\/; SameSite=Lax/);
    const again = await fetch(`${base}/ar/products`, { headers: { cookie: "i18n_redirected=ar" } });
    expect(again.headers.get("set-cookie") ?? "").not.toContain("i18n_redirected");
  });

  it("an unknown locale fails page validation: 404 'Page Not Found: {full path}'", async () => {
    const res = await fetch(`${base}/fr/products?x=1`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Page Not Found: /fr/products?x=1");
    expect(html).toMatch(/error-screen__status[^>]*><bdi>404<\/bdi>/);
  });

  it("an unknown path is a 404 'Page not found: {path}' with a button home", async () => {
    const res = await fetch(`${base}/ar/no/such/page`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Page not found: /ar/no/such/page");
    expect(html).toContain('href="/ar"');
    expect(htmlAttrs(html)).toEqual(["ar-SA", "rtl"]);
  });

  it("/error shows the error screen; other statuses get the generic message and no button", async () => {
    const notFound = await fetch(`${base}/error`);
    expect(notFound.status).toBe(404);
    expect(await notFound.text()).toContain("find the page");
    const server = await (await fetch(`${base}/error?status=500`)).text();
    expect(server).toContain("something went wrong on our side");
    const other = await fetch(`${base}/error?status=403`);
    expect(other.status).toBe(403);
    const html = await other.text();
    expect(html).toContain("Something went wrong.");
    expect(html).not.toContain("Back to the home page");
  });

  // Spec §7 asks for a per-page _payload.json for prerendered pages; DESIGN §3 sends every request
  // that is not a static asset to the streaming SSR handler, so no page is prerendered (docs/SPEC.md
  // row 95). The build meta says so, and a page's data on a client navigation is the Worker's own.
  it("§7 row 95: no page is prerendered, so none has a _payload.json; its data comes from the Worker", async () => {
    const latest = (await (await fetch(`${base}/builds/latest.json?t=${Date.now()}`)).json()) as { id: string };
    const meta = (await (await fetch(`${base}/builds/meta/${latest.id}.json`)).json()) as { prerendered: string[] };
    expect(meta.prerendered).toEqual([]);
    for (const path of ["/en/about-us", "/ar/privacy-policy", "/en/products"]) {
      expect((await fetch(`${base}${path}/_payload.json`)).status).toBe(404);
      const data = await fetch(`${base}${path}.data`);
      expect(data.status).toBe(200);
      // Rendered by the Worker for this request (its request id), not a file from the asset layer.
      expect(data.headers.get("x-request-id")).toBeTruthy();
      expect(await data.text()).toContain("routes/");
    }
  });
});

// The parts of spec §2 rows that only "the route answers" proved before (docs/SPEC.md rows 16, 21,
// 24 and 26).
describe("what the server sends for the routes of §2", () => {
  const escaped = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");

  it("§2 row 16: /product-details without a slug is the bare product form, a search that leads to the list", async () => {
    const categories = (await (
      await fetch(`${base}/backend/categories`, { headers: { "content-language": "ar" } })
    ).json()) as {
      data: { slug: string; name: string }[];
    };
    const html = await (await fetch(`${base}/ar/product-details`)).text();
    const form = html.match(/<form[^>]*class="finder__form[^>]*>[\s\S]*?<\/form>/)?.[0] ?? "";
    expect(form).toMatch(/action="\/ar\/products"/);
    const query = form.match(/<input[^>]*\bname="q"[^>]*>/)?.[0] ?? "";
    expect(query).toMatch(/\brequired=""/);
    expect(query).toMatch(/\btype="search"/);
    for (const category of categories.data) expect(form).toContain(`value="${category.slug}"`);
  });

  it("§2 rows 21 and 24: checkout and the shopping cart are rendered on the client only; the server sends the fallback", async () => {
    for (const path of ["/en/checkout", "/ar/checkout", "/en/shopping-cart", "/ar/shopping-cart"]) {
      const html = await (await fetch(`${base}${path}`)).text();
      const main = html.match(/<main[\s\S]*<\/main>/)?.[0] ?? "";
      expect(main, path).toContain('aria-busy="true"');
      // No form of the page itself: not the checkout's fields, not the cart's lines or promo code.
      expect(main, path).not.toMatch(/name="(address_choice|shipping_method|payment_method|code)"/);
      expect(main, path).not.toContain("<form");
    }
  });

  it("the cart's server page is the cart's frame: its title, and a loading line as tall as the empty cart, so nothing moves when the cart arrives", async () => {
    for (const [path, title] of [
      ["/en/shopping-cart", "Shopping cart"],
      ["/ar/shopping-cart", "سلة التسوق"],
    ] as const) {
      const html = await (await fetch(`${base}${path}`)).text();
      const main = html.match(/<main[\s\S]*<\/main>/)?.[0] ?? "";
      expect(main, path).toContain(`<h1>${title}</h1>`);
      expect(main, path).toMatch(/<p class="cart-loading" aria-busy="true">/);
    }
  });

  it("§2 row 26: the catalog middleware puts the backend's category tree in the header, in the page's language", async () => {
    for (const locale of ["en", "ar"] as const) {
      const tree = (await (
        await fetch(`${base}/backend/categories`, { headers: { "content-language": locale } })
      ).json()) as {
        data: { slug: string; name: string }[];
      };
      expect(tree.data.length).toBeGreaterThan(0);
      const html = await (await fetch(`${base}/${locale}/about-us`)).text();
      const header = html.match(/<header[\s\S]*?<\/header>/)?.[0] ?? "";
      for (const category of tree.data.slice(0, 6)) {
        const link = header.match(
          new RegExp(`<a [^>]*href="/${locale}/products\\?category=${category.slug}"[^>]*>([^<]*)</a>`),
        );
        expect(link?.[1], category.slug).toBe(escaped(category.name));
      }
    }
  });
});

describe("headers", () => {
  it("HTML carries the security headers and a nonce CSP without unsafe-inline scripts", async () => {
    const res = await fetch(`${base}/en`);
    const csp = res.headers.get("content-security-policy") ?? "";
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    // Turnstile's widget, and nothing else from outside: its script and its challenge frame.
    expect(
      scriptSrc
        .trim()
        .split(/\s+/)
        .slice(1)
        .filter((s) => !s.startsWith("'nonce-")),
    ).toEqual(["'strict-dynamic'", "https://challenges.cloudflare.com"]);
    expect(csp).toContain("frame-src 'self' https://challenges.cloudflare.com");
    expect(res.headers.get("strict-transport-security")).toContain("max-age=");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const html = await res.text();
    const nonce = scriptSrc.match(/'nonce-([^']+)'/)?.[1];
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("each response gets a fresh nonce", async () => {
    const a = (await fetch(`${base}/en`)).headers.get("content-security-policy");
    const b = (await fetch(`${base}/en`)).headers.get("content-security-policy");
    expect(a).not.toBe(b);
  });

  it("hashed assets are immutable for a year", async () => {
    const html = await (await fetch(`${base}/en`)).text();
    const asset = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const res = await fetch(`${base}${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });
});
