import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProductSummary, Suggestion } from "../../contract/catalogue";
import { seedCatalogue } from "../support/catalogue";

type Lang = "en" | "ar";

async function search(q: string, lang: Lang = "ar", extra = ""): Promise<ProductSummary[]> {
  const res = await SELF.fetch(`https://shop.test/backend/products?per_page=48&q=${encodeURIComponent(q)}${extra}`, {
    headers: { "content-language": lang },
  });
  expect(res.status, q).toBe(200);
  return ((await res.json()) as { data: ProductSummary[] }).data;
}

async function suggest(q: string, lang: Lang = "en"): Promise<{ status: number; data: Suggestion[] }> {
  const res = await SELF.fetch(`https://shop.test/backend/search/suggest?q=${encodeURIComponent(q)}`, {
    headers: { "content-language": lang },
  });
  return { status: res.status, data: ((await res.json()) as { data: Suggestion[] }).data };
}

const slugs = (list: { slug: string }[]) => list.map((p) => p.slug).sort();

/**
 * Whether the products that pass `test` come first, before any that do not: a search lists what
 * it found by name, brand or category before what only mentions the words in its description.
 */
function comeFirst(list: ProductSummary[], test: (p: ProductSummary) => boolean): boolean {
  const count = list.filter(test).length;
  return count > 0 && list.slice(0, count).every(test);
}

beforeAll(async () => {
  await seedCatalogue(env.DB);
});

describe("Arabic-aware search", () => {
  it("ايفون, آيفون and أيفون find the same products, and they are iPhones", async () => {
    const bare = await search("ايفون");
    expect(bare.length).toBeGreaterThanOrEqual(5);
    expect(slugs(await search("آيفون"))).toEqual(slugs(bare));
    expect(slugs(await search("أيفون"))).toEqual(slugs(bare));
    expect(slugs(await search("إيفون"))).toEqual(slugs(bare));
    // Names are written both ways in the catalogue ("آيفون 15 برو", the case's "جراب سيليكون ايفون").
    expect(bare.map((p) => p.slug)).toEqual(
      expect.arrayContaining(["iphone-15-pro", "iphone-15-pro-max", "iphone-16-pro", "iphone-15-pro-silicone-case"]),
    );
  });

  it("a query with tashkeel or tatweel matches its plain form", async () => {
    expect(slugs(await search("آيْفُون"))).toEqual(slugs(await search("ايفون")));
    expect(slugs(await search("جـالاكسي"))).toEqual(slugs(await search("جالاكسي")));
  });

  it("Arabic-Indic digits match Latin digits", async () => {
    const plain = await search("آيفون 15");
    expect(plain.length).toBeGreaterThan(0);
    expect(slugs(await search("آيفون ١٥"))).toEqual(slugs(plain));
    expect(slugs(await search("آيفون ۱۵"))).toEqual(slugs(plain));
    expect(plain.every((p) => p.slug.includes("15"))).toBe(true);
  });

  it("taa marbuta is folded in the query as in the text (ساعة, typed ساعه)", async () => {
    const typed = await search("ساعه");
    expect(typed.length).toBeGreaterThan(0);
    // The watches by name first; after them, products whose description or battery life counts
    // hours (ساعة), a band among them.
    expect(comeFirst(typed, (p) => /ساعة/.test(p.name))).toBe(true);
    expect(typed.filter((p) => /ساعة/.test(p.name)).every((p) => p.category.slug === "wearables")).toBe(true);
    expect(slugs(typed)).toEqual(slugs(await search("ساعة")));
  });

  it("English prefixes find products as the shopper types", async () => {
    const iph = await search("iph", "en");
    expect(iph.filter((p) => /iphone/i.test(p.name)).length).toBeGreaterThanOrEqual(5);
    // Named iPhones first; then what mentions one ("works with your iPhone").
    expect(comeFirst(iph, (p) => /iphone/i.test(p.name))).toBe(true);
    const gal = await search("gal", "en");
    expect(gal.some((p) => p.slug === "galaxy-s24-ultra")).toBe(true);
    expect(comeFirst(gal, (p) => p.brand?.slug === "samsung")).toBe(true);
  });

  it("finds words that only a description holds, after every product found by name", async () => {
    // «التيتانيوم» / titanium is in the iPhone 15 Pro's and the Galaxy S24 Ultra's descriptions, no name.
    for (const [q, lang] of [
      ["titanium", "en"],
      ["تيتانيوم", "ar"],
    ] as const) {
      const found = await search(q, lang);
      expect(
        found.map((p) => p.slug),
        q,
      ).toEqual(expect.arrayContaining(["iphone-15-pro", "galaxy-s24-ultra"]));
    }
    // "camera" names the cameras, and every phone's description mentions its camera: cameras first.
    const cameras = await search("camera", "en");
    expect(cameras.some((p) => p.category.slug === "android-phones")).toBe(true);
    expect(comeFirst(cameras, (p) => p.category.slug === "cameras" || /camera/i.test(p.name))).toBe(true);
  });

  it("finds by model number, brand name in either language and category", async () => {
    expect((await search("SM-S928B", "en")).map((p) => p.slug)).toContain("galaxy-s24-ultra");
    const sony = await search("سوني");
    expect(sony.length).toBeGreaterThan(3);
    expect(sony.every((p) => p.brand?.slug === "sony")).toBe(true);
    expect((await search("fenix", "en")).map((p) => p.slug)).toEqual(["garmin-fenix-7-pro-solar"]);
  });

  it("ranks name matches first and combines with filters and other sorts", async () => {
    const ranked = await search("iphone 15 pro", "en");
    expect(ranked[0].slug).toMatch(/^iphone-15-pro/);
    const cheapFirst = await search("iphone", "en", "&sort=price_asc&in_stock=1");
    expect(cheapFirst.every((p) => p.in_stock)).toBe(true);
    expect(cheapFirst.map((p) => p.price)).toEqual([...cheapFirst.map((p) => p.price)].sort((a, b) => a - b));
  });

  it("ranks a product found by name by its name's score, not by a better one of its description", async () => {
    // Both found by a word of their body (as a brand or category is): A's short body holds it
    // more strongly than B's long one, but B's description repeats it.
    const add = (id: number, body: string, details: string) =>
      env.DB.batch([
        env.DB.prepare(
          "INSERT INTO products (id, slug, sku, category_id, name_en, name_ar, price, stock) VALUES (?, ?, ?, 1, ?, ?, 1000, 3)",
        ).bind(id, `rank-${id}`, `RANK-${id}`, `Rank ${id}`, `Rank ${id}`),
        env.DB.prepare("INSERT INTO product_search (rowid, name, body) VALUES (?, ?, ?)").bind(id, `Rank ${id}`, body),
        env.DB.prepare("INSERT INTO product_details_search (rowid, details) VALUES (?, ?)").bind(id, details),
      ]);
    await add(970101, "qelvor", "");
    await add(970102, `qelvor ${"filler ".repeat(30)}`, "qelvor qelvor qelvor");
    // Each index's scores of the word, by product.
    const scores = async (table: string, bm25: string) => {
      const { results } = await env.DB.prepare(
        `SELECT rowid AS id, ${bm25} AS s FROM ${table} WHERE ${table} MATCH 'qelvor'`,
      ).all<{ id: number; s: number }>();
      return new Map(results.map((r) => [r.id, r.s]));
    };
    const names = await scores("product_search", "bm25(product_search, 10.0, 1.0)");
    const details = await scores("product_details_search", "bm25(product_details_search)");
    const [nameA, nameB, detailsB] = [names.get(970101), names.get(970102), details.get(970102)];
    // What the test stands on: A's name beats B's, and B's description beats A's name.
    expect(nameA!).toBeLessThan(nameB!);
    expect(detailsB!).toBeLessThan(nameA!);
    expect((await search("qelvor", "en")).map((p) => p.slug)).toEqual(["rank-970101", "rank-970102"]);
    // A filter ranks in the index's arms, before merging them: the same order.
    expect((await search("qelvor", "en", "&in_stock=1")).map((p) => p.slug)).toEqual(["rank-970101", "rank-970102"]);
  });

  it("a query with nothing searchable in it lists the catalogue instead of failing", async () => {
    const res = await SELF.fetch(`https://shop.test/backend/products?q=${encodeURIComponent('"*')}&per_page=1`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { meta: { total: number } }).meta.total).toBeGreaterThanOrEqual(64);
  });
});

describe("typo tolerance", () => {
  it("a misspelt word equally near two indexed terms becomes the one more products hold", async () => {
    const add = async (id: number, name: string) => {
      await env.DB.batch([
        env.DB.prepare(
          "INSERT INTO products (id, slug, sku, category_id, name_en, name_ar, price, stock) VALUES (?, ?, ?, 1, ?, ?, 1000, 3)",
        ).bind(id, `typo-${id}`, `TYPO-${id}`, name, name),
        env.DB.prepare("INSERT INTO product_search (rowid, name, body) VALUES (?, ?, '')").bind(id, name),
        env.DB.prepare("INSERT INTO product_details_search (rowid, details) VALUES (?, '')").bind(id),
      ]);
    };
    const searchedFor = async (q: string, run: number) => {
      const res = await SELF.fetch(`https://shop.test/backend/products?q=${q}&run=${run}`);
      return ((await res.json()) as { meta: { searched_for?: string } }).meta.searched_for;
    };
    // "zorbox" is one letter from both "zorbax" and "zorbix", and starts no indexed term.
    for (const id of [970001, 970002, 970003]) await add(id, "zorbax");
    await add(970004, "zorbix");
    expect(await searchedFor("zorbox", 1)).toBe("zorbax");
    for (const id of [970005, 970006, 970007]) await add(id, "zorbix");
    expect(await searchedFor("zorbox", 2)).toBe("zorbix");
    // Nearer wins over more products: one edit from "zorbix" only.
    expect(await searchedFor("zorbiz", 3)).toBe("zorbix");
    expect(await searchedFor("zorbaz", 4)).toBe("zorbax");
  });
});

describe("search suggestions", () => {
  it("suggest answers at most 8 {slug, name, model, image, price, currency} in the caller's language", async () => {
    const en = await suggest("gal");
    expect(en.status).toBe(200);
    expect(en.data.length).toBeGreaterThan(0);
    expect(en.data.length).toBeLessThanOrEqual(8);
    expect(Object.keys(en.data[0]).sort()).toEqual(["currency", "image", "model", "name", "price", "slug"]);
    expect(en.data[0].name).toMatch(/galaxy/i);
    const ar = await suggest("ايف", "ar");
    expect(ar.data.length).toBeGreaterThan(0);
    expect(ar.data[0].name).toMatch(/آيفون/);
    expect((await suggest("a")).data.length).toBeLessThanOrEqual(8);
  });

  it("empty or unsearchable input suggests nothing, and injection strings never fail", async () => {
    expect(await suggest("")).toEqual({ status: 200, data: [] });
    for (const q of [`"`, `*`, `NEAR(`, `OR`, `' OR 1=1 --`, `"foo`, `)(`]) {
      const res = await suggest(q);
      expect(res.status, q).toBe(200);
      expect(Array.isArray(res.data), q).toBe(true);
    }
    const long = await SELF.fetch(`https://shop.test/backend/search/suggest?q=${"x".repeat(101)}`);
    expect(long.status).toBe(422);
  });
});
