import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { seedCatalogue } from "../support/catalogue";

describe("the demo seed", () => {
  it("loads a catalogue of at least 64 products over at least 8 top categories, and running it twice is safe", async () => {
    await seedCatalogue(env.DB);
    await seedCatalogue(env.DB);
    const products = await env.DB.prepare("SELECT COUNT(*) AS n FROM products").first<{ n: number }>();
    const tops = await env.DB.prepare("SELECT COUNT(*) AS n FROM categories WHERE parent_id IS NULL").first<{
      n: number;
    }>();
    const brands = await env.DB.prepare("SELECT COUNT(*) AS n FROM brands").first<{ n: number }>();
    const indexed = await env.DB.prepare("SELECT COUNT(*) AS n FROM product_search").first<{ n: number }>();
    expect(products?.n).toBeGreaterThanOrEqual(64);
    expect(tops?.n).toBeGreaterThanOrEqual(8);
    expect(brands?.n).toBeGreaterThanOrEqual(12);
    expect(indexed?.n).toBe(products?.n);
  });
});
