import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { cacheKey, forgetRemembered, liveSnapshotOf } from "../../worker/backend/cache";
import type { ProductDetails, ProductSummary } from "../../contract/catalogue";
import { seedCatalogue } from "../support/catalogue";

// Stock a shopper acts on is never served stale by the catalogue caches
// (worker/backend/cache.ts, "Freshness"). A change shows in the next read, whichever tier held
// the answer; answers whose products did not change stay cached.

interface Answer<T> {
  status: number;
  cache: string | null;
  body: { data: T; meta?: { total: number } };
}

async function get<T>(path: string): Promise<Answer<T>> {
  const res = await SELF.fetch(`https://shop.test/backend${path}`, { headers: { "content-language": "en" } });
  return { status: res.status, cache: res.headers.get("x-cache"), body: (await res.json()) as Answer<T>["body"] };
}

/** Reads until the answer comes from a cache (the first write may finish after the answer, in waitUntil). */
async function cached<T>(path: string): Promise<Answer<T>> {
  let answer = await get<T>(path);
  for (let i = 0; i < 20 && answer.cache !== "HIT"; i++) {
    await new Promise((r) => setTimeout(r, 25));
    answer = await get<T>(path);
  }
  expect(answer.cache, path).toBe("HIT");
  return answer;
}

/** What a checkout's reservation does to a product row (services/orders/checkout.ts), or a release. */
async function setStock(slug: string, stock: number): Promise<void> {
  await env.DB.prepare(
    "UPDATE products SET stock = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE slug = ?",
  )
    .bind(stock, slug)
    .run();
}

const probe = () => `cache_probe=${crypto.randomUUID()}`;

beforeAll(async () => {
  await seedCatalogue(env.DB);
});

describe("stock freshness of cached catalogue reads", () => {
  it("a product page's answer shows a sale at the next read, from memory and from the Cache API alike", async () => {
    const path = `/products/pixel-9-pro?${probe()}`;
    const before = await cached<ProductDetails>(path);
    const stock = before.body.data.stock;
    expect(stock).toBeGreaterThan(1);

    // Memory holds the answer: the next read after the sale is rebuilt, not served.
    await setStock("pixel-9-pro", 1);
    const afterSale = await get<ProductDetails>(path);
    expect(afterSale.cache).toBe("MISS");
    expect(afterSale.body.data).toMatchObject({ stock: 1, in_stock: true });
    // The rebuilt answer is cached again, and served while nothing changes.
    expect((await cached<ProductDetails>(path)).body.data.stock).toBe(1);

    // Only the Cache API holds it (another isolate's memory, or this one's after 5 s): the same.
    forgetRemembered();
    await setStock("pixel-9-pro", 0);
    const soldOut = await get<ProductDetails>(path);
    expect(soldOut.cache).toBe("MISS");
    expect(soldOut.body.data).toMatchObject({ stock: 0, in_stock: false });
    forgetRemembered();
    expect((await cached<ProductDetails>(path)).body.data.stock).toBe(0);

    await setStock("pixel-9-pro", stock);
    expect((await get<ProductDetails>(path)).body.data).toMatchObject({ stock, in_stock: true });
  });

  it("a change to a related product rebuilds the product page that lists it", async () => {
    const path = `/products/galaxy-s24?${probe()}`;
    const before = await cached<ProductDetails>(path);
    const related = before.body.data.related.find((p) => p.stock > 0)!;
    expect(related).toBeDefined();
    await setStock(related.slug, 0);
    try {
      const after = await get<ProductDetails>(path);
      expect(after.cache).toBe("MISS");
      expect(after.body.data.related.find((p) => p.id === related.id)).toMatchObject({ stock: 0, in_stock: false });
    } finally {
      await setStock(related.slug, related.stock);
    }
  });

  it("keeps serving the cached answers whose products did not change", async () => {
    const tvs = `/products?category=tvs&${probe()}`;
    const tablets = `/products?category=tablets&${probe()}`;
    await cached<ProductSummary[]>(tvs);
    const tabletList = await cached<ProductSummary[]>(tablets);
    const tablet = tabletList.body.data.find((p) => p.stock > 1)!;
    await setStock(tablet.slug, tablet.stock - 1);
    try {
      expect((await get<ProductSummary[]>(tvs)).cache).toBe("HIT");
      const after = await get<ProductSummary[]>(tablets);
      expect(after.cache).toBe("MISS");
      expect(after.body.data.find((p) => p.id === tablet.id)?.stock).toBe(tablet.stock - 1);
    } finally {
      await setStock(tablet.slug, tablet.stock);
    }
  });

  it("an in-stock list drops a product that sold out at once, and the home page's products are as fresh", async () => {
    const inStock = `/products?in_stock=1&category=macbooks&${probe()}`;
    const before = await cached<ProductSummary[]>(inStock);
    const homePath = `/home?${probe()}`;
    const home = await cached<{ featured: ProductSummary[] }>(homePath);
    const featured = home.body.data.featured.find((p) => p.category.slug === "macbooks" && p.stock > 0)!;
    expect(before.body.data.map((p) => p.id)).toContain(featured.id);
    await setStock(featured.slug, 0);
    try {
      const after = await get<ProductSummary[]>(inStock);
      expect(after.body.data.map((p) => p.id)).not.toContain(featured.id);
      expect(after.body.meta?.total).toBe(before.body.meta!.total - 1);
      const homeAfter = await get<{ featured: ProductSummary[] }>(homePath);
      expect(homeAfter.cache).toBe("MISS");
      // Rebuilt: featured products in stock come first, so it is shown sold out or no longer shown.
      expect(homeAfter.body.data.featured.find((p) => p.id === featured.id)?.in_stock ?? false).toBe(false);
    } finally {
      await setStock(featured.slug, featured.stock);
    }
  });

  it("the home answer kept in cache is checked too", async () => {
    const path = `/home?${probe()}`;
    const home = await cached<{ featured: ProductSummary[] }>(path);
    const product = home.body.data.featured.find((p) => p.stock > 1)!;
    await setStock(product.slug, product.stock - 1);
    try {
      const after = await get<{ featured: ProductSummary[] }>(path);
      expect(after.cache).toBe("MISS");
      expect(after.body.data.featured.find((p) => p.id === product.id)?.stock).toBe(product.stock - 1);
    } finally {
      await setStock(product.slug, product.stock);
    }
  });

  it("a price change is fresh at once too; answers with no products (categories) are served without a check", async () => {
    const path = `/products/dell-xps-13?${probe()}`;
    const before = await cached<ProductDetails>(path);
    await env.DB.prepare("UPDATE products SET price = price + 100 WHERE slug = 'dell-xps-13'").run();
    try {
      expect((await get<ProductDetails>(path)).body.data.price).toBe(before.body.data.price + 100);
    } finally {
      await env.DB.prepare("UPDATE products SET price = price - 100 WHERE slug = 'dell-xps-13'").run();
    }
    const categories = `/categories?${probe()}`;
    await cached<unknown>(categories);
    const edge = (caches as unknown as { default: Cache }).default;
    const copy = await edge.match(cacheKey(`https://shop.test/backend${categories}`, "en"));
    expect(liveSnapshotOf(await copy!.json())).toBeNull();
  });
});

describe("liveSnapshotOf", () => {
  it("finds every product at any depth, once each, sorted by id", () => {
    const p = (id: number, stock: number) => ({
      id,
      slug: `p${id}`,
      stock,
      in_stock: stock > 0,
      max_per_order: 5,
      price: 100 * id,
      compare_at_price: null,
    });
    const answer = {
      data: { ...p(7, 2), related: [p(3, 0), p(9, 4)], breadcrumbs: [{ slug: "x", name: "X" }] },
      home: { featured: [p(3, 0)] },
    };
    expect(liveSnapshotOf(answer)).toEqual({
      ids: [3, 7, 9],
      variantIds: [],
      fingerprint: "3:0:5:300:,7:2:5:700:,9:4:5:900:",
      // 2 and 4 left show as "only N left" (LOW_STOCK): the page cache checks those counts.
      lowStock: "7:2,9:4",
    });
    // A product page's variants are their own ids (not products'), checked and counted as variants.
    const page = { data: { ...p(7, 12), variants: [p(3, 2), p(80, 9)] } };
    expect(liveSnapshotOf(page)).toEqual({
      ids: [7],
      variantIds: [3, 80],
      fingerprint: "7:12:5:700:,v3:2:5:300:,v80:9:5:8000:",
      lowStock: "v3:2",
    });
    expect(liveSnapshotOf({ data: [p(1, 0), p(2, 6)] })?.lowStock, "sold out or plenty: no count shown").toBe("");
    expect(liveSnapshotOf({ data: [{ id: 1, slug: "phones", name: "Phones", children: [] }] })).toBeNull();
  });
});
