import type { Route } from "./+types/sitemap[.]xml";
import { shopContext } from "../lib/context";

const STATIC_PATHS = ["", "/products", "/services", "/page", "/about-us", "/privacy-policy", "/contact-us", "/product-details"];

function entry(origin: string, path: string): string {
  const alt = (l: string) => `<xhtml:link rel="alternate" hreflang="${l}" href="${origin}/${l}${path}"/>`;
  const xdefault = `<xhtml:link rel="alternate" hreflang="x-default" href="${origin}${path === "" ? "/" : `/en${path}`}"/>`;
  return ["en", "ar"]
    .map((l) => `<url><loc>${origin}/${l}${path}</loc>${alt("en")}${alt("ar")}${xdefault}</url>`)
    .join("");
}

/** sitemap.xml with reciprocal en/ar alternates for every public page. */
export async function loader({ context }: Route.LoaderArgs) {
  const { origin } = context.get(shopContext);
  const body = STATIC_PATHS.map((p) => entry(origin, p)).join("");
  const xml = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${body}</urlset>`;
  return new Response(xml, { headers: { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=600" } });
}
