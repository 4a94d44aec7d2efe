import type { Route } from "./+types/sitemap[.]xml";
import { listProducts } from "../lib/api/catalogue";
import { listPages, listServices } from "../lib/api/content";
import { serverApi } from "../lib/api/server";
import { shopContext } from "../lib/context";

const STATIC_PATHS = [
  "",
  "/products",
  "/product-details",
  "/services",
  "/page",
  "/about-us",
  "/privacy-policy",
  "/contact-us",
];
/** The largest page the backend serves. */
const PER_PAGE = 48;
/** Pages with routes of their own are listed at those, not under page/{slug}. */
const OWN_ROUTES = new Set(["about-us", "privacy-policy"]);

function xmlEscape(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** One `<url>` per locale, each naming both languages and x-default as alternates. */
function entries(origin: string, path: string): string {
  const href = (l: string) => xmlEscape(`${origin}/${l}${path}`);
  const alternates =
    `<xhtml:link rel="alternate" hreflang="en" href="${href("en")}"/>` +
    `<xhtml:link rel="alternate" hreflang="ar" href="${href("ar")}"/>` +
    `<xhtml:link rel="alternate" hreflang="x-default" href="${path === "" ? xmlEscape(`${origin}/`) : href("en")}"/>`;
  return ["en", "ar"].map((l) => `<url><loc>${href(l)}</loc>${alternates}</url>`).join("\n");
}

/** sitemap.xml: home, lists, every product, every service and content page, in both locales. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { origin } = context.get(shopContext);
  const api = await serverApi(context, request, "en");
  const first = await listProducts(api, { per_page: PER_PAGE, page: 1, sort: "name" });
  const last = Math.max(1, Number((first.meta as { last_page?: number } | undefined)?.last_page ?? 1));
  const [rest, services, pages] = await Promise.all([
    Promise.all(
      Array.from({ length: last - 1 }, (_, i) =>
        listProducts(api, { per_page: PER_PAGE, page: i + 2, sort: "name" }).then((r) => r.data ?? []),
      ),
    ),
    listServices(api).then((r) => r.data ?? []),
    listPages(api).then((r) => r.data ?? []),
  ]);
  const products = [...(first.data ?? []), ...rest.flat()];
  const paths = [
    ...STATIC_PATHS,
    ...products.map((p) => `/product-details/${encodeURIComponent(p.slug)}`),
    ...services.map((s) => `/services/${encodeURIComponent(s.slug)}`),
    ...pages.filter((p) => !OWN_ROUTES.has(p.slug)).map((p) => `/page/${encodeURIComponent(p.slug)}`),
  ];
  const body = [...new Set(paths)].map((p) => entries(origin, p)).join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${body}\n</urlset>\n`;
  return new Response(xml, {
    headers: { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=600" },
  });
}
