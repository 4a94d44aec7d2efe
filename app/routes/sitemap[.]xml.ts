import type { Route } from "./+types/sitemap[.]xml";
import { CATALOGUE_SLUGS_PATH, MAX_SLUGS_PER_PAGE } from "../../contract/catalogue";
import { ApiError } from "../lib/api/errors";
import { listPages, listServices } from "../lib/api/content";
import type { Api } from "../lib/api/client";
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
/** Pages with routes of their own are listed at those, not under page/{slug}. */
const OWN_ROUTES = new Set(["about-us", "privacy-policy"]);
/** The most URLs one sitemap file may hold (sitemaps.org); each path is two, one per locale. */
const PATHS_PER_FILE = 50_000 / 2;
/** How long a kept sitemap lives when the backend names no catalogue version. */
const UNVERSIONED_TTL_S = 300;
/** How long a kept sitemap of a version lives: an older version's is never asked for again. */
const VERSIONED_TTL_S = 86_400;

const HEADERS = { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=600" };

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

function urlset(origin: string, paths: string[]): string {
  const body = [...new Set(paths)].map((p) => entries(origin, p)).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${body}\n</urlset>\n`;
}

function sitemapIndex(origin: string, parts: number): string {
  const files = Array.from(
    { length: parts + 1 },
    (_, part) => `<sitemap><loc>${xmlEscape(`${origin}/sitemap.xml?part=${part}`)}</loc></sitemap>`,
  ).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${files}\n</sitemapindex>\n`;
}

/** Home, lists, the services and the content pages. */
async function contentPaths(api: Api): Promise<string[]> {
  const [services, pages] = await Promise.all([
    listServices(api).then((r) => r.data ?? []),
    listPages(api).then((r) => r.data ?? []),
  ]);
  return [
    ...STATIC_PATHS,
    ...services.map((s) => `/services/${encodeURIComponent(s.slug)}`),
    ...pages.filter((p) => !OWN_ROUTES.has(p.slug)).map((p) => `/page/${encodeURIComponent(p.slug)}`),
  ];
}

/**
 * One page of the shown products' slugs: one backend read (contract/catalogue.ts), whatever the
 * catalogue's size. A backend without the endpoint (404) lists no products rather than being read
 * a product page at a time.
 */
async function productSlugs(api: Api, page: number): Promise<{ slugs: string[]; lastPage: number }> {
  try {
    const answer = await api.get<string[]>(CATALOGUE_SLUGS_PATH, { query: { page, per_page: MAX_SLUGS_PER_PAGE } });
    const lastPage = Number((answer.meta as { last_page?: number } | undefined)?.last_page ?? 1);
    return { slugs: answer.data ?? [], lastPage: Math.max(1, lastPage) };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { slugs: [], lastPage: 1 };
    throw error;
  }
}

const productPath = (slug: string) => `/product-details/${encodeURIComponent(slug)}`;

/**
 * The sitemap file asked for: `/sitemap.xml` is the whole shop in one file while it fits in
 * PATHS_PER_FILE, else an index of `?part=0` (home, lists, services, pages) and `?part=1…` (the
 * products, MAX_SLUGS_PER_PAGE each). Null: no such part.
 */
async function build(api: Api, origin: string, part: number | null): Promise<string | null> {
  if (part === 0) return urlset(origin, await contentPaths(api));
  if (part !== null) {
    const { slugs, lastPage } = await productSlugs(api, part);
    return part > lastPage ? null : urlset(origin, slugs.map(productPath));
  }
  const [content, first] = await Promise.all([contentPaths(api), productSlugs(api, 1)]);
  if (first.lastPage === 1 && content.length + first.slugs.length <= PATHS_PER_FILE)
    return urlset(origin, [...content, ...first.slugs.map(productPath)]);
  return sitemapIndex(origin, first.lastPage);
}

function sharedCache(): Cache | undefined {
  // The DOM lib's CacheStorage type hides the Workers-only `default` cache; it exists at run time.
  return typeof caches !== "undefined" ? (caches as unknown as { default?: Cache }).default : undefined;
}

/**
 * sitemap.xml: every public page in both locales. Built from a constant number of backend reads,
 * and kept in the data centre's cache under the catalogue version (contract/freshness.ts), which
 * moves with every change to what the shop shows: an anonymous hit costs no backend read at all
 * while the catalogue stands.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopContext);
  const partParam = new URL(request.url).searchParams.get("part");
  if (partParam !== null && !/^\d{1,6}$/.test(partParam)) return new Response("Not found", { status: 404 });
  const part = partParam === null ? null : Number(partParam);
  const version = await shop.catalogueVersion();
  const key = new Request(
    `https://sitemap.invalid/${encodeURIComponent(shop.origin)}/${version ?? "none"}/${part ?? "index"}`,
  );
  const cache = sharedCache();
  const kept = await cache?.match(key);
  if (kept) return new Response(kept.body, { headers: HEADERS });
  const xml = await build(await serverApi(context, request, "en"), shop.origin, part);
  if (xml === null) return new Response("Not found", { status: 404 });
  if (cache) {
    const ttl = version === null ? UNVERSIONED_TTL_S : VERSIONED_TTL_S;
    const copy = new Response(xml, { headers: { ...HEADERS, "cache-control": `public, max-age=${ttl}` } });
    shop.waitUntil(cache.put(key, copy).catch(() => undefined));
  }
  return new Response(xml, { headers: HEADERS });
}
