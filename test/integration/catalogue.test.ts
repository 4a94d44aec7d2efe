import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { cacheKey, forgetRemembered, MEMORY_TTL_MS } from "../../worker/backend/cache";
import type { CategoryNode, ProductDetails, ProductSummary } from "../../contract/catalogue";
import { seedCatalogue } from "../support/catalogue";

type Lang = "en" | "ar";
interface Answer<T> {
  status: number;
  headers: Headers;
  body: {
    data: T;
    message?: string;
    meta?: { page: number; per_page: number; total: number; last_page: number };
    errors?: Record<string, string[]>;
  };
}

async function get<T>(path: string, lang: Lang = "en", headers: Record<string, string> = {}): Promise<Answer<T>> {
  const res = await SELF.fetch(`https://shop.test/backend${path}`, {
    headers: { "content-language": lang, ...headers },
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer<T>["body"] };
}

const products = (path: string, lang: Lang = "en") => get<ProductSummary[]>(`/products${path}`, lang);
const ARABIC = /[\u0600-\u06FF]/;

beforeAll(async () => {
  await seedCatalogue(env.DB);
});

describe("categories and brands", () => {
  it("the category tree has at least 8 top categories with subcategories, names in the caller's language and counts that include subcategories", async () => {
    const en = await get<CategoryNode[]>("/categories");
    expect(en.status).toBe(200);
    expect(en.body.data.length).toBeGreaterThanOrEqual(8);
    const phones = en.body.data.find((c) => c.slug === "phones")!;
    expect(phones.name).toBe("Phones");
    expect(phones.parent_id).toBeNull();
    expect(phones.children.map((c) => c.slug)).toEqual(expect.arrayContaining(["iphone", "android-phones"]));
    expect(phones.children.every((c) => c.parent_id === phones.id)).toBe(true);
    expect(phones.product_count).toBe(phones.children.reduce((n, c) => n + c.product_count, 0));
    const total = en.body.data.reduce((n, c) => n + c.product_count, 0);
    expect(total).toBe((await products("?per_page=1")).body.meta?.total);
    const ar = await get<CategoryNode[]>("/categories", "ar");
    expect(ar.body.data.find((c) => c.slug === "phones")?.name).toBe("الهواتف");
  });

  it("lists at least 12 brands as {id, slug, name}, localized", async () => {
    const en = await get<{ id: number; slug: string; name: string }[]>("/brands");
    expect(en.body.data.length).toBeGreaterThanOrEqual(12);
    expect(Object.keys(en.body.data[0]).sort()).toEqual(["id", "name", "slug"]);
    expect(en.body.data.find((b) => b.slug === "samsung")?.name).toBe("Samsung");
    const ar = await get<{ slug: string; name: string }[]>("/brands", "ar");
    expect(ar.body.data.find((b) => b.slug === "samsung")?.name).toBe("سامسونج");
  });
});

describe("the product list", () => {
  it("answers the ProductSummary contract with pagination meta, 12 per page by default", async () => {
    const res = await products("");
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(12);
    expect(res.body.meta).toMatchObject({ page: 1, per_page: 12 });
    expect(res.body.meta!.total).toBeGreaterThanOrEqual(64);
    expect(res.body.meta!.last_page).toBe(Math.ceil(res.body.meta!.total / 12));
    const p = res.body.data[0];
    expect(Object.keys(p).sort()).toEqual(
      [
        "brand",
        "category",
        "compare_at_price",
        "currency",
        "id",
        "image",
        "images",
        "in_stock",
        "is_featured",
        "is_new",
        "max_per_order",
        "model",
        "name",
        "price",
        "rating",
        "sku",
        "slug",
        "stock",
        "variant_count",
      ].sort(),
    );
    // No reviews yet: no stars on the card (contract/reviews.ts RatingSummary).
    expect(p.rating).toBeNull();
    expect(p.currency).toBe("SAR");
    expect(Number.isInteger(p.price)).toBe(true);
    expect(p.image).toMatch(/^\/backend\/media\/products\/[a-z0-9-]+\.svg/);
    expect(p.images).toHaveLength(2);
    expect(p.in_stock).toBe(p.stock > 0);
  });

  it("returns names in the caller's language", async () => {
    const en = await products("?category=iphone&sort=price_desc");
    const ar = await products("?category=iphone&sort=price_desc", "ar");
    expect(en.body.data.map((p) => p.slug)).toEqual(ar.body.data.map((p) => p.slug));
    expect(en.body.data.every((p) => !ARABIC.test(p.name))).toBe(true);
    expect(ar.body.data.every((p) => ARABIC.test(p.name))).toBe(true);
    expect(ar.body.data[0].category.name).toBe("آيفون");
  });

  it("filters by category including its subcategories, and by brand", async () => {
    const phones = await products("?category=phones&per_page=48");
    expect(phones.body.data.length).toBeGreaterThan(5);
    expect(new Set(phones.body.data.map((p) => p.category.slug))).toEqual(new Set(["iphone", "android-phones"]));
    const apple = await products("?brand=apple&per_page=48");
    expect(apple.body.data.length).toBeGreaterThan(5);
    expect(apple.body.data.every((p) => p.brand?.slug === "apple")).toBe(true);
    const both = await products("?category=android-phones&brand=samsung&per_page=48");
    expect(both.body.data.every((p) => p.brand?.slug === "samsung" && p.category.slug === "android-phones")).toBe(true);
    const unknown = await products("?category=no-such-category");
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toEqual([]);
    expect(unknown.body.meta).toEqual({ page: 1, per_page: 12, total: 0, last_page: 1 });
  });

  it("filters by price range in halalas and by stock", async () => {
    const range = await products("?min_price=100000&max_price=300000&per_page=48");
    expect(range.body.data.length).toBeGreaterThan(0);
    expect(range.body.data.every((p) => p.price >= 100000 && p.price <= 300000)).toBe(true);
    const all = await products("?per_page=48&page=1");
    const inStock = await products("?in_stock=1&per_page=48");
    expect(inStock.body.data.every((p) => p.in_stock)).toBe(true);
    expect(inStock.body.meta!.total).toBeLessThan(all.body.meta!.total);
    expect((await products("?in_stock=true&per_page=1")).body.meta!.total).toBe(inStock.body.meta!.total);
    expect((await products("?in_stock=0&per_page=1")).body.meta!.total).toBe(all.body.meta!.total);
  });

  it("sorts by every named order", async () => {
    const list = async (sort: string, lang: Lang = "en") =>
      (await products(`?sort=${sort}&per_page=48`, lang)).body.data;
    const asc = await list("price_asc");
    expect(asc.map((p) => p.price)).toEqual([...asc.map((p) => p.price)].sort((a, b) => a - b));
    const desc = await list("price_desc");
    expect(desc.map((p) => p.price)).toEqual([...desc.map((p) => p.price)].sort((a, b) => b - a));
    const byName = await list("name");
    expect(byName.map((p) => p.name.toLowerCase())).toEqual([...byName.map((p) => p.name.toLowerCase())].sort());
    const newest = await list("newest");
    expect(newest.slice(0, 3).every((p) => p.is_new)).toBe(true);
    const relevance = await list("relevance");
    const firstPlain = relevance.findIndex((p) => !p.is_featured);
    expect(firstPlain).toBeGreaterThan(0);
    expect(relevance.slice(firstPlain).every((p) => !p.is_featured)).toBe(true);
  });

  it("pages through the whole catalogue without repeats, and a page past the last is empty with the right meta", async () => {
    const first = await products("?per_page=48&page=1&sort=price_asc");
    const second = await products("?per_page=48&page=2&sort=price_asc");
    const slugs = [...first.body.data, ...second.body.data].map((p) => p.slug);
    expect(new Set(slugs).size).toBe(first.body.meta!.total);
    expect(first.body.meta!.last_page).toBe(2);
    const beyond = await products("?per_page=48&page=9");
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta).toEqual({ page: 9, per_page: 48, total: first.body.meta!.total, last_page: 2 });
  });

  it.each([
    ["per_page=0", "per_page"],
    ["per_page=49", "per_page"],
    ["per_page=1e20", "per_page"],
    ["per_page=99999999999999999999", "per_page"],
    ["page=-1", "page"],
    ["page=0", "page"],
    ["page=abc", "page"],
    ["page=1.5", "page"],
    ["page=10001", "page"],
    ["sort=cheapest", "sort"],
    ["sort=price_asc;DROP TABLE products", "sort"],
    ["min_price=-5", "min_price"],
    ["max_price=1e9", "max_price"],
    ["min_price=500&max_price=100", "max_price"],
    ["in_stock=yes", "in_stock"],
    ["category=' OR 1=1 --", "category"],
    ["brand=%22%3B%20DROP%20TABLE%20brands", "brand"],
    [`q=${"x".repeat(101)}`, "q"],
    ["sort=name&sort=price_asc", "sort"],
  ])("rejects %s with 422 and a field error for %s", async (query, field) => {
    const res = await products(`?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBeTruthy();
    expect(res.body.errors?.[field]?.length).toBeGreaterThan(0);
  });

  it("never answers 5xx to SQL or FTS injection in the search text", async () => {
    for (const q of [
      `"`,
      `*`,
      `OR`,
      `NEAR(`,
      `a OR b`,
      `"iphone`,
      `iphone*`,
      `-galaxy`,
      `name:apple`,
      `' OR 1=1 --`,
      `); DROP TABLE products; --`,
      `^`,
      `NOT`,
      `AND AND`,
      `{}`,
      `\\`,
      `%00`,
    ]) {
      const res = await products(`?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(Array.isArray(res.body.data), q).toBe(true);
    }
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM products").first<{ n: number }>())!.n,
    ).toBeGreaterThanOrEqual(64);
  });
});

describe("the product detail", () => {
  it("answers the summary plus description, specifications, related products of the same category and breadcrumbs", async () => {
    const res = await get<ProductDetails>("/products/galaxy-s24-ultra");
    expect(res.status).toBe(200);
    const p = res.body.data;
    expect(p).toMatchObject({
      slug: "galaxy-s24-ultra",
      model: "SM-S928B",
      name: "Galaxy S24 Ultra",
      brand: { slug: "samsung", name: "Samsung" },
    });
    expect(p.description.length).toBeGreaterThan(40);
    expect(p.specifications.length).toBeGreaterThanOrEqual(3);
    expect(p.specifications[0]).toEqual({ label: expect.any(String), value: expect.any(String) });
    expect(p.breadcrumbs).toEqual([
      { slug: "phones", name: "Phones" },
      { slug: "android-phones", name: "Android Phones" },
    ]);
    expect(p.related.length).toBeGreaterThan(0);
    expect(p.related.length).toBeLessThanOrEqual(8);
    expect(p.related.some((r) => r.slug === p.slug)).toBe(false);
    expect(p.related[0].category.slug).toBe("android-phones");
  });

  it("relates, for every product, its category's first products, then its family's when the category has too few", async () => {
    const { results: all } = await env.DB.prepare(
      "SELECT id, slug, category_id, is_featured, is_new, stock, active FROM products",
    ).all<{
      id: number;
      slug: string;
      category_id: number;
      is_featured: number;
      is_new: number;
      stock: number;
      active: number;
    }>();
    const { results: tree } = await env.DB.prepare("SELECT id, parent_id FROM categories").all<{
      id: number;
      parent_id: number | null;
    }>();
    const parent = new Map(tree.map((c) => [c.id, c.parent_id]));
    const topOf = (id: number): number => (parent.get(id) == null ? id : topOf(parent.get(id)!));
    type Row = (typeof all)[number];
    // Each category's few dozen first in the list's order, then those shown first: featured, in stock.
    const pick = (rows: Row[], limit: number) =>
      rows
        .toSorted((a, b) => b.is_featured - a.is_featured || b.is_new - a.is_new || a.id - b.id)
        .slice(0, 40)
        .toSorted((a, b) => b.is_featured - a.is_featured || +(b.stock > 0) - +(a.stock > 0) || a.id - b.id)
        .slice(0, limit);
    let filled = 0;
    for (const p of all.filter((row) => row.active === 1)) {
      const others = all.filter((row) => row.active === 1 && row.id !== p.id);
      const same = pick(
        others.filter((row) => row.category_id === p.category_id),
        8,
      );
      const top = topOf(p.category_id);
      const family = others.filter(
        (row) => row.category_id !== p.category_id && (row.category_id === top || parent.get(row.category_id) === top),
      );
      const want = [...same, ...(same.length < 8 ? pick(family, 8 - same.length) : [])].map((row) => row.slug);
      if (same.length < 8 && want.length > same.length) filled++;
      const got = (await get<ProductDetails>(`/products/${p.slug}`)).body.data.related.map((r) => r.slug);
      expect(got, p.slug).toEqual(want);
    }
    // Some categories are small enough for the family to fill in.
    expect(filled).toBeGreaterThan(0);
  });

  it("is localized in Arabic, specification labels included", async () => {
    const p = (await get<ProductDetails>("/products/iphone-15-pro", "ar")).body.data;
    expect(p.name).toBe("آيفون 15 برو 128 جيجابايت");
    expect(p.description).toMatch(ARABIC);
    expect(p.specifications.every((s) => ARABIC.test(s.label))).toBe(true);
    expect(p.breadcrumbs.map((b) => b.name)).toEqual(["الهواتف", "آيفون"]);
  });

  it("answers 404 JSON for an unknown or malformed slug", async () => {
    for (const slug of ["no-such-product", "DROP%20TABLE", "%27%20OR%201%3D1", "a".repeat(200)]) {
      const res = await get<unknown>(`/products/${slug}`, "ar");
      expect(res.status, slug).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.body.message).toBe("المنتج غير موجود.");
    }
  });
});

describe("generated product art", () => {
  it("serves a deterministic, script-free SVG per product and view, cached for a year", async () => {
    const list = (await products("?per_page=1")).body.data[0];
    const a = await SELF.fetch(`https://shop.test${list.image}`);
    expect(a.status).toBe(200);
    expect(a.headers.get("content-type")).toContain("image/svg+xml");
    expect(a.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const svg = await a.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).not.toMatch(/<script|on\w+=|javascript:/i);
    // Named for assistive technology; no text to lay out when the page paints it.
    expect(svg).toContain(`aria-label="${list.brand!.name} ${list.name}"`);
    expect(svg).not.toContain("<text");
    expect(await (await SELF.fetch(`https://shop.test${list.image}`)).text()).toBe(svg);
    const back = await (await SELF.fetch(`https://shop.test${list.images[1]}`)).text();
    expect(back).not.toBe(svg);
  });

  it("answers 404 for an unknown product and 422 for a bad view", async () => {
    expect((await SELF.fetch("https://shop.test/backend/media/products/nope.svg")).status).toBe(404);
    expect((await SELF.fetch("https://shop.test/backend/media/products/iphone-15.svg?view=7")).status).toBe(422);
    expect((await SELF.fetch("https://shop.test/backend/media/products/..%2Fsecret.svg")).status).toBeLessThan(500);
  });

  it("draws banners too", async () => {
    const res = await SELF.fetch("https://shop.test/backend/media/banners/1.svg");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("image/svg+xml");
    expect(await res.text()).not.toMatch(/<script/i);
    expect((await SELF.fetch("https://shop.test/backend/media/banners/999.svg")).status).toBe(404);
  });
});

describe("edge caching of catalogue reads", () => {
  it("serves a second identical GET from the cache with the short policy, separately per language", async () => {
    const path = `/products?per_page=3&cache_probe=${crypto.randomUUID()}`;
    const first = await get<ProductSummary[]>(path);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(first.headers.get("cache-control")).toBe("public, max-age=30, stale-while-revalidate=300");
    expect(first.headers.get("vary")).toContain("content-language");
    let second = await get<ProductSummary[]>(path);
    // The cache write may finish just after the first answer (waitUntil); give it a moment.
    for (let i = 0; i < 20 && second.headers.get("x-cache") !== "HIT"; i++) {
      await new Promise((r) => setTimeout(r, 25));
      second = await get<ProductSummary[]>(path);
    }
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(second.body).toEqual(first.body);
    const arabic = await get<ProductSummary[]>(path, "ar");
    expect(arabic.headers.get("x-cache")).toBe("MISS");
    expect(arabic.body.data[0].name).toMatch(ARABIC);
  });

  it("shares the cached answer whatever Authorization or guest-id a caller sends", async () => {
    const path = `/categories?cache_probe=${crypto.randomUUID()}`;
    const first = await get<CategoryNode[]>(path);
    expect(first.headers.get("cache-control")).toBe("public, max-age=3600, stale-while-revalidate=86400");
    let signedIn = await get<CategoryNode[]>(path, "en", {
      authorization: "Bearer abcdefghijklmnopqrstuvwxyz",
      "guest-id": crypto.randomUUID(),
    });
    for (let i = 0; i < 20 && signedIn.headers.get("x-cache") !== "HIT"; i++) {
      await new Promise((r) => setTimeout(r, 25));
      signedIn = await get<CategoryNode[]>(path, "en", { authorization: "Bearer abcdefghijklmnopqrstuvwxyz" });
    }
    expect(signedIn.headers.get("x-cache")).toBe("HIT");
  });

  it("answers a repeated read from the isolate's memory first, for at most MEMORY_TTL_MS, then from the Cache API again", async () => {
    const path = `/products?per_page=2&cache_probe=${crypto.randomUUID()}`;
    const first = await get<ProductSummary[]>(path);
    expect(first.headers.get("x-cache")).toBe("MISS");
    // The Cache API's copy is dropped: only memory can answer now.
    await new Promise((r) => setTimeout(r, 50));
    const edge = (caches as unknown as { default: Cache }).default;
    await edge.delete(cacheKey(`https://shop.test/backend${path}`, "en"));
    const fromMemory = await get<ProductSummary[]>(path);
    expect(fromMemory.headers.get("x-cache")).toBe("HIT");
    expect(fromMemory.body).toEqual(first.body);
    expect(fromMemory.headers.get("cache-control")).toBe("public, max-age=30, stale-while-revalidate=300");
    // Past the memory's time to live the read goes back to the Cache API (now empty): a miss.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + MEMORY_TTL_MS + 1);
      expect((await get<ProductSummary[]>(path)).headers.get("x-cache")).toBe("MISS");
    } finally {
      vi.useRealTimers();
    }
    // And forgetting memory (as a catalogue change would need) sends the next read to the Cache API.
    await edge.delete(cacheKey(`https://shop.test/backend${path}`, "en"));
    forgetRemembered();
    expect((await get<ProductSummary[]>(path)).headers.get("x-cache")).toBe("MISS");
  });

  it("keeps a search's answer in the isolate's memory only: the data centre's Cache API never gets a copy", async () => {
    const path = `/products?q=samsung&per_page=2&cache_probe=${crypto.randomUUID()}`;
    const key = cacheKey(`https://shop.test/backend${path}`, "en");
    const edge = (caches as unknown as { default: Cache }).default;
    const first = await get<ProductSummary[]>(path);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(first.body.data.length).toBeGreaterThan(0);
    const again = await get<ProductSummary[]>(path);
    expect(again.headers.get("x-cache"), "memory answers the next seconds").toBe("HIT");
    expect(again.body).toEqual(first.body);
    // Given time for a write after the answer (waitUntil), the Cache API still holds nothing…
    await new Promise((r) => setTimeout(r, 100));
    expect(await edge.match(key)).toBeUndefined();
    // …while the same list without words is shared as before.
    const list = path.replace("q=samsung&", "");
    await get<ProductSummary[]>(list);
    await expect
      .poll(async () => (await edge.match(cacheKey(`https://shop.test/backend${list}`, "en"))) !== undefined)
      .toBe(true);
    // Memory gone (another isolate of the data centre): the search is answered afresh, not from the Cache API.
    forgetRemembered();
    expect((await get<ProductSummary[]>(path)).headers.get("x-cache")).toBe("MISS");
  });

  it("never caches errors", async () => {
    const path = `/products?sort=nope&cache_probe=${crypto.randomUUID()}`;
    const first = await products(path.replace("/products", ""));
    expect(first.status).toBe(422);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const again = await products(path.replace("/products", ""));
    expect(again.headers.get("x-cache")).toBeNull();
    const missing = await get<unknown>(`/products/missing-${crypto.randomUUID().slice(0, 8)}`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control")).toBe("no-store");
  });
});
