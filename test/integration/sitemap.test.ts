import { env } from "cloudflare:workers";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/sitemap[.]xml";
import { shopContext } from "../../contract/edge";
import { backendApp } from "../../worker/backend";
import { forgetCatalogueVersion } from "../../worker/backend/cache";
import type { Env } from "../../worker/env";
import { createProduct } from "../support/commerce";
import { counted } from "../support/counted-db";

/**
 * /sitemap.xml is anonymous and uncached by Cloudflare (a Worker's answer): it must cost the
 * backend the same few reads at any catalogue size, and none while the catalogue stands.
 */

/** The storefront's context for one sitemap request, its backend calls and D1 round trips counted. */
function sitemapRequest(origin: string, path = "/sitemap.xml") {
  const db = counted(env.DB);
  let calls = 0;
  const pending: Promise<unknown>[] = [];
  const context = new RouterContextProvider();
  context.set(shopContext, {
    requestId: "sitemap-test",
    nonce: "",
    origin,
    preferredLocale: "en",
    environment: "test",
    rumSampleRate: 0,
    backend: async (p, init) => {
      calls++;
      return backendApp.request(p, init, { ...env, DB: db.db } as Env);
    },
    publicBackendBase: "/backend",
    publicLookupBase: "/backend",
    // The page cache's question, asked once a second per isolate for every page: not this route's cost.
    catalogueVersion: async () =>
      (await env.DB.prepare("SELECT value FROM versions WHERE name = 'catalogue'").first<number>("value")) ?? 0,
    getSession: async () => null,
    waitUntil: (p) => void pending.push(p),
  });
  return {
    run: async () => {
      const res = (await loader({
        request: new Request(`${origin}${path}`),
        context,
        params: {},
      } as unknown as Parameters<typeof loader>[0])) as Response;
      const xml = await res.text();
      await Promise.all(pending);
      return { status: res.status, xml, calls, trips: db.trips() };
    },
  };
}

/** Adds `n` products in one statement (active unless told), as a large catalogue would have them. */
async function addProducts(n: number, prefix: string, active = 1): Promise<void> {
  const { id: categoryId } = (await env.DB.prepare("SELECT id FROM categories LIMIT 1").first<{ id: number }>()) ?? {
    id: 0,
  };
  await env.DB.prepare(
    `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?1)
     INSERT INTO products (slug, sku, model, category_id, name_en, name_ar, price, stock, max_per_order, active)
     SELECT ?2 || '-' || i, upper(?2) || '-' || i, 'M', ?3, 'Bulk ' || i, 'منتج ' || i, 1000 + i, 5, 5, ?4 FROM k`,
  )
    .bind(n, prefix, categoryId, active)
    .run();
  // As the console's writes and the seed do: what was read before is not served for the new catalogue.
  await env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'catalogue'").run();
  forgetCatalogueVersion();
}

const activeSlugs = async () =>
  (await env.DB.prepare("SELECT slug FROM products WHERE active = 1").all<{ slug: string }>()).results.map(
    (r) => r.slug,
  );
const inactiveSlugs = async () =>
  (await env.DB.prepare("SELECT slug FROM products WHERE active = 0").all<{ slug: string }>()).results.map(
    (r) => r.slug,
  );

const listedProducts = (xml: string, origin: string) =>
  [...xml.matchAll(new RegExp(`<loc>${origin}/en/product-details/([^<]+)</loc>`, "g"))].map((m) =>
    decodeURIComponent(m[1]),
  );

describe("sitemap.xml", () => {
  it("sitemap read storm: an anonymous hit costs a constant number of backend and D1 reads, whatever the catalogue's size", async () => {
    await createProduct();
    await addProducts(30, "small");
    await addProducts(3, "hidden", 0);
    // Warm what every page shares (services, pages), then a first hit on a small catalogue.
    await sitemapRequest("https://warm.example").run();
    const small = await sitemapRequest("https://small.example").run();
    expect(small.status).toBe(200);
    // Ten times the products: the same reads.
    await addProducts(330, "large");
    const large = await sitemapRequest("https://large.example").run();
    expect(large.status).toBe(200);
    expect(large.calls).toBe(small.calls);
    expect(large.trips).toBe(small.trips);
    expect(large.calls).toBeLessThanOrEqual(3);
    // Every shown product, in both locales, and no hidden one.
    const listed = listedProducts(large.xml, "https://large.example");
    expect(listed.sort()).toEqual((await activeSlugs()).sort());
    for (const slug of await inactiveSlugs()) expect(large.xml).not.toContain(`/product-details/${slug}<`);
    expect(large.xml).toContain("<loc>https://large.example/ar/product-details/large-1</loc>");
    // While the catalogue stands, the next hit is the kept copy: no backend read at all.
    const again = await sitemapRequest("https://large.example").run();
    expect(again.xml).toBe(large.xml);
    expect(again.calls).toBe(0);
    expect(again.trips).toBe(0);
    // A change to the catalogue moves its version: the sitemap is built again, hidden product left out.
    await env.DB.prepare("UPDATE products SET active = 0 WHERE slug = 'large-1'").run();
    await env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'catalogue'").run();
    forgetCatalogueVersion();
    const changed = await sitemapRequest("https://large.example").run();
    expect(changed.calls).toBeGreaterThan(0);
    expect(changed.xml).not.toContain("/product-details/large-1<");
  });

  it("a catalogue over one file's 50,000 URLs is an index of files that each hold at most 50,000 and together every shown product", async () => {
    const origin = "https://big.example";
    await addProducts(26_000, "bulk");
    const index = await sitemapRequest(origin).run();
    expect(index.status).toBe(200);
    expect(index.xml).toContain("<sitemapindex");
    const parts = [...index.xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1].replace(/&amp;/g, "&")));
    expect(parts.length).toBeGreaterThanOrEqual(3);
    const listed: string[] = [];
    for (const url of parts) {
      const part = await sitemapRequest(origin, `${url.pathname}${url.search}`).run();
      expect(part.status).toBe(200);
      expect(part.calls).toBeLessThanOrEqual(2);
      expect(part.xml.match(/<url>/g)?.length ?? 0).toBeLessThanOrEqual(50_000);
      listed.push(...listedProducts(part.xml, origin));
    }
    expect(listed.length).toBe(new Set(listed).size);
    expect(listed.sort()).toEqual((await activeSlugs()).sort());
    expect((await sitemapRequest(origin, "/sitemap.xml?part=99").run()).status).toBe(404);
  }, 120_000);
});
