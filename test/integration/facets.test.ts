import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ListMeta, ProductFacets } from "../../contract/catalogue";
import { seedCatalogue } from "../support/catalogue";

// Facets with counts: each facet counts with every other filter applied and its own
// left out, so a count is exactly what choosing that value shows.

async function list(query: string): Promise<{ total: number; facets: ProductFacets }> {
  const res = await SELF.fetch(`https://shop.test/backend/products?per_page=1&facets=1&${query}`, {
    headers: { "content-language": "en" },
  });
  expect(res.status, query).toBe(200);
  const meta = ((await res.json()) as { meta: ListMeta }).meta;
  return { total: meta.total, facets: meta.facets! };
}

const countOf = (entries: { slug: string; count: number }[], slug: string) =>
  entries.find((e) => e.slug === slug)?.count ?? 0;

beforeAll(async () => {
  await seedCatalogue(env.DB);
});

describe("facets of the product list", () => {
  it("count categories with their subcategories, brands, price bands and stock", async () => {
    const { total, facets } = await list("");
    expect(countOf(facets.categories, "phones")).toBe(
      countOf(facets.categories, "iphone") + countOf(facets.categories, "android-phones"),
    );
    expect(countOf(facets.brands, "samsung")).toBe(12);
    expect(facets.price_bands.reduce((n, b) => n + b.count, 0)).toBe(total);
    expect(facets.in_stock).toBeGreaterThan(0);
    expect(facets.in_stock).toBeLessThan(total);
  });

  it("leave a facet's own filter out, and apply the others", async () => {
    const { facets } = await list("brand=samsung");
    // Another brand can still be chosen: the brand facet ignores the brand filter.
    expect(countOf(facets.brands, "apple")).toBeGreaterThan(0);
    // The categories count only Samsung's products.
    expect(countOf(facets.categories, "tvs")).toBe(2);
    expect(countOf(facets.categories, "iphone")).toBe(0);
  });

  it("show what choosing a value would show, for a search and its filters", async () => {
    const base = `q=${encodeURIComponent("سامسونج")}&in_stock=1`;
    const { facets } = await list(base);
    expect(facets.brands.length).toBeGreaterThan(0);
    for (const { slug, count } of facets.categories) {
      expect((await list(`${base}&category=${slug}`)).total, slug).toBe(count);
    }
    for (const band of facets.price_bands) {
      const max = band.max === null ? "" : `&max_price=${band.max - 1}`;
      expect((await list(`${base}&min_price=${band.min}${max}`)).total, `${band.min}`).toBe(band.count);
    }
    expect((await list(`q=${encodeURIComponent("سامسونج")}`)).facets.in_stock).toBe((await list(base)).total);
  });

  it("are counted only when asked for", async () => {
    const res = await SELF.fetch("https://shop.test/backend/products?per_page=1");
    expect(((await res.json()) as { meta: ListMeta }).meta.facets).toBeUndefined();
  });
});
