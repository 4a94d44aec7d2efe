import { describe, expect, it } from "vitest";
import { builtWorker } from "../support/http.ts";

// Spec §2 and §8 routes of the built worker: the locale forms of /error, the
// route-rule redirect beside the page-validation 404, and a backend 404 reaching /error.

const base = builtWorker().url;
const LOCALES = [
  { locale: "en", lang: "en-US", dir: "ltr" },
  { locale: "ar", lang: "ar-SA", dir: "rtl" },
] as const;

const htmlAttrs = (html: string) => {
  const tag = /<html[^>]*>/.exec(html)?.[0] ?? "";
  return [/lang="([^"]+)"/.exec(tag)?.[1], /dir="([^"]+)"/.exec(tag)?.[1]];
};

describe("client navigations' data requests", () => {
  // react-router.config.ts passes requests through as they came (v8_passThroughRequests): loaders
  // and middleware read the page's URL from their `url` argument, without `.data` and `_routes`.
  it("the loaders and middleware see the page's URL, not React Router's `.data` and `_routes`", async () => {
    const list = await fetch(`${base}/en/products.data?category=phones&_routes=routes%2Fproducts`);
    expect(list.status).toBe(200);
    const payload = await list.text();
    expect(payload).toContain("phones");
    expect(payload).toContain('"ignored",[]');

    const guarded = await fetch(`${base}/en/profile/orders.data`, { redirect: "manual" });
    const redirect = await guarded.text();
    expect(redirect).toContain(`/en/auth/login?redirect=${encodeURIComponent("/en/profile/orders")}`);
    expect(redirect).not.toContain("orders.data");
  });
});

describe("spec §2 and §8 routes", () => {
  it("§2: /en/error and /ar/error exist: the error screen in that locale, 404 with a button home", async () => {
    for (const { locale, lang, dir } of LOCALES) {
      const res = await fetch(`${base}/${locale}/error`);
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toMatch(/error-screen__status[^>]*><bdi>404<\/bdi>/);
      expect(html).not.toContain(`Page not found: /${locale}/error`);
      expect(html).toContain(`href="/${locale}"`);
      expect(htmlAttrs(html)).toEqual([lang, dir]);
      const other = await fetch(`${base}/${locale}/error?status=500`);
      expect(other.status).toBe(500);
    }
  });

  it("§2: a route rule redirects the old product path /{locale}/product/{slug} to product-details, 301, keeping the query", async () => {
    const products = (await (await fetch(`${base}/backend/products?per_page=1`)).json()) as {
      data: { slug: string }[];
    };
    const slug = products.data[0].slug;
    for (const { locale } of LOCALES) {
      const res = await fetch(`${base}/${locale}/product/${slug}?ref=mail`, { redirect: "manual" });
      expect(res.status).toBe(301);
      expect(res.headers.get("location")).toBe(`/${locale}/product-details/${slug}?ref=mail`);
      const followed = await fetch(`${base}/${locale}/product/${slug}`);
      expect(followed.status).toBe(200);
      expect(new URL(followed.url).pathname).toBe(`/${locale}/product-details/${slug}`);
    }
  });

  it("§2: beside the route rules, page validation still answers a fatal 404 for an unknown locale", async () => {
    const res = await fetch(`${base}/fr/product/anything`, { redirect: "manual" });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Page Not Found: /fr/product/anything");
  });

  it("§8: a backend 404 redirects to /error, in both locales", async () => {
    for (const { locale } of LOCALES) {
      const res = await fetch(`${base}/${locale}/product-details/no-such-product-at-all`, { redirect: "manual" });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/error");
      const data = await fetch(`${base}/${locale}/services/no-such-service.data`, { redirect: "manual" });
      // A client navigation's data request gets the same redirect, as React Router encodes it.
      expect(await data.text()).toContain("/error");
    }
  });
});
