import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { syntheticStatements } from "../../scripts/seed/synthetic.ts";
import { ftsQuery, synonymGroups } from "../../worker/backend/services/analysis";
import type { ProductFacets } from "../../contract/catalogue";
import { PRICE_BANDS, type ProductSummary } from "../../worker/backend/services/catalogue";
import { seedCatalogue } from "../support/catalogue";

/**
 * The search's page, total and order against the straightforward statement it replaced (issue
 * 23, docs/PERFORMANCE.md "Search at scale"): every match ranked, merged and sorted, filtered
 * after. The shop's statement filters before ranking and cuts the page from the gathered matches
 * instead; on a catalogue with many matches per word, ties of stock and featuring, hidden and
 * out-of-stock products, both must list the same products in the same order with the same total.
 */

const BM25_NAMES = "bm25(product_search, 10.0, 1.0)";
/** The order of each sort as the reference states it: `s` is the merged match, `p` the product. */
const ORDER: Record<string, (lang: "en" | "ar") => string> = {
  relevance: () => "s.named DESC, (p.stock > 0) DESC, s.score ASC, p.is_featured DESC, p.id ASC",
  newest: () => "p.created_at DESC, p.id DESC",
  price_asc: () => "p.price ASC, p.id ASC",
  price_desc: () => "p.price DESC, p.id DESC",
  name: (lang) => `p.name_${lang} COLLATE NOCASE ASC, p.id ASC`,
};

interface Filters {
  brand?: string;
  category?: string;
  in_stock?: boolean;
  min_price?: number;
  max_price?: number;
}

/** The two full-text queries a search makes: names, brands and categories with synonyms; descriptions. */
async function queriesOf(q: string): Promise<{ names: string; details: string }> {
  const { results: rows } = await env.DB.prepare("SELECT group_name, term FROM search_synonyms").all<{
    group_name: string;
    term: string;
  }>();
  const names = ftsQuery(q, synonymGroups(rows));
  const details = ftsQuery(q);
  if (!names || !details) throw new Error(`nothing to search in ${q}`);
  return { names, details };
}

/** Every matching product's slug, in order: the statement before issue 23's change, whole. */
async function reference(q: string, lang: "en" | "ar", sort: string, f: Filters): Promise<string[]> {
  const { names, details } = await queriesOf(q);
  const where = ["p.active = 1"];
  const binds: unknown[] = [names, details];
  if (f.brand) {
    where.push("p.brand_id = (SELECT id FROM brands WHERE slug = ?)");
    binds.push(f.brand);
  }
  if (f.category) {
    where.push(`p.category_id IN (WITH RECURSIVE t(id) AS (SELECT id FROM categories WHERE slug = ?
      UNION ALL SELECT c.id FROM categories c JOIN t ON c.parent_id = t.id) SELECT id FROM t)`);
    binds.push(f.category);
  }
  if (f.in_stock) where.push("p.stock > 0");
  if (f.min_price !== undefined) {
    where.push("p.price >= ?");
    binds.push(f.min_price);
  }
  const { results } = await env.DB.prepare(
    `SELECT p.slug FROM products p JOIN (SELECT id, MIN(score) AS score, MAX(named) AS named FROM (
       SELECT rowid AS id, ${BM25_NAMES} AS score, 1 AS named FROM product_search WHERE product_search MATCH ?
       UNION ALL
       SELECT rowid AS id, bm25(product_details_search) AS score, 0 AS named FROM product_details_search WHERE product_details_search MATCH ?
     ) GROUP BY id) s ON s.id = p.id
     WHERE ${where.join(" AND ")} ORDER BY ${ORDER[sort](lang)}`,
  )
    .bind(...binds)
    .all<{ slug: string }>();
  return results.map((r) => r.slug);
}

async function page(
  q: string,
  lang: "en" | "ar",
  sort: string,
  f: Filters,
  n: number,
  perPage: number,
): Promise<{ slugs: string[]; total: number }> {
  const params = new URLSearchParams({ q, sort, page: String(n), per_page: String(perPage) });
  if (f.brand) params.set("brand", f.brand);
  if (f.category) params.set("category", f.category);
  if (f.in_stock) params.set("in_stock", "1");
  if (f.min_price !== undefined) params.set("min_price", String(f.min_price));
  if (f.max_price !== undefined) params.set("max_price", String(f.max_price));
  const res = await SELF.fetch(`https://shop.test/backend/products?${params}`, {
    headers: { "content-language": lang },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: ProductSummary[]; meta: { total: number } };
  return { slugs: body.data.map((p) => p.slug), total: body.meta.total };
}

beforeAll(async () => {
  await seedCatalogue(env.DB);
  const statements = syntheticStatements(1_500);
  for (let i = 0; i < statements.length; i += 50)
    await env.DB.batch(statements.slice(i, i + 50).map((s) => env.DB.prepare(s)));
  // Hidden products are in no list: some of every kind, so a filter's absence would show.
  await env.DB.prepare("UPDATE products SET active = 0 WHERE id % 17 = 0").run();
});

const WORDS: [string, "en" | "ar"][] = [
  ["phone", "en"],
  ["samsung", "en"],
  ["camera", "en"],
  ["سامسونج", "ar"],
  ["جراب", "ar"],
];
const FILTERS: Filters[] = [
  {},
  { brand: "samsung" },
  { in_stock: true },
  { brand: "samsung", in_stock: true, min_price: 100_000 },
  { category: "phones" },
];

describe("search order at scale", () => {
  it("every sort, filter and page lists what the straightforward statement lists, in its order, with its total", async () => {
    let compared = 0;
    for (const [q, lang] of WORDS)
      for (const f of FILTERS)
        for (const sort of Object.keys(ORDER)) {
          const all = await reference(q, lang, sort, f);
          for (const [n, perPage] of [
            [1, 12],
            [3, 12],
            [2, 48],
          ]) {
            const got = await page(q, lang, sort, f, n, perPage);
            const label = `${q} ${sort} ${JSON.stringify(f)} page ${n}/${perPage}`;
            expect(got.total, label).toBe(all.length);
            expect(got.slugs, label).toEqual(all.slice((n - 1) * perPage, n * perPage));
            compared++;
          }
        }
    // The catalogue has to make the comparison worth something: many matches, several pages.
    expect(compared).toBe(WORDS.length * FILTERS.length * Object.keys(ORDER).length * 3);
    expect((await reference("samsung", "en", "relevance", {})).length).toBeGreaterThan(150);
  }, 120_000);

  it("a page past the last is empty and still carries the total", async () => {
    const all = await reference("camera", "en", "relevance", { in_stock: true });
    const past = await page("camera", "en", "relevance", { in_stock: true }, Math.ceil(all.length / 12) + 1, 12);
    expect(past).toEqual({ slugs: [], total: all.length });
  });
});

/**
 * A search's facets as a count of its matches gives them: each facet with every filter but its
 * own, a category with its subcategories' products, the open top band and products in stock.
 */
async function referenceFacets(q: string, f: Filters): Promise<ProductFacets> {
  const { names, details } = await queriesOf(q);
  const [matches, categories] = await env.DB.batch([
    env.DB.prepare(
      `SELECT p.category_id, b.slug AS brand, p.price, p.stock FROM products p LEFT JOIN brands b ON b.id = p.brand_id
       WHERE p.active = 1 AND p.id IN (SELECT rowid FROM product_search WHERE product_search MATCH ?
         UNION SELECT rowid FROM product_details_search WHERE product_details_search MATCH ?)`,
    ).bind(names, details),
    env.DB.prepare("SELECT id, parent_id, slug FROM categories"),
  ]);
  const tree = categories.results as { id: number; parent_id: number | null; slug: string }[];
  const byId = new Map(tree.map((c) => [c.id, c]));
  const lineage = (id: number | null): string[] => {
    const c = id === null ? undefined : byId.get(id);
    return c ? [c.slug, ...lineage(c.parent_id)] : [];
  };
  const products = matches.results as { category_id: number; brand: string | null; price: number; stock: number }[];
  const keeps = (p: (typeof products)[number], without: string) =>
    (without === "category" || !f.category || lineage(p.category_id).includes(f.category)) &&
    (without === "brand" || !f.brand || p.brand === f.brand) &&
    (without === "stock" || !f.in_stock || p.stock > 0) &&
    (without === "price" ||
      ((f.min_price === undefined || p.price >= f.min_price) && (f.max_price === undefined || p.price <= f.max_price)));
  const tally = (keys: string[]) => {
    const counts = new Map<string, number>();
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
    return [...counts].map(([slug, count]) => ({ slug, count }));
  };
  return {
    categories: tally(products.filter((p) => keeps(p, "category")).flatMap((p) => lineage(p.category_id))),
    brands: tally(products.filter((p) => keeps(p, "brand") && p.brand !== null).map((p) => p.brand!)),
    price_bands: PRICE_BANDS.map((band) => ({
      ...band,
      count: products.filter(
        (p) => keeps(p, "price") && p.price >= band.min && (band.max === null || p.price < band.max),
      ).length,
    })),
    in_stock: products.filter((p) => keeps(p, "stock") && p.stock > 0).length,
  };
}

const bySlug = (a: { slug: string }, b: { slug: string }) => a.slug.localeCompare(b.slug);

describe("search facets at scale", () => {
  it("count what a count of the matches counts, each facet leaving its own filter out", async () => {
    // A band's own bounds (the cells' path), bounds that are no band's (a count of the products), none.
    const filters: Filters[] = [
      ...FILTERS,
      { min_price: PRICE_BANDS[1].min, max_price: PRICE_BANDS[1].max! - 1 },
      { brand: "samsung", in_stock: true, min_price: PRICE_BANDS[2].min },
      { category: "phones", min_price: 120_000, max_price: 450_000 },
    ];
    let nonEmpty = 0;
    for (const [q, lang] of WORDS)
      for (const f of filters) {
        const params = new URLSearchParams({ q, facets: "1" });
        for (const [key, value] of Object.entries(f)) params.set(key, value === true ? "1" : String(value));
        const res = await SELF.fetch(`https://shop.test/backend/products?${params}`, {
          headers: { "content-language": lang },
        });
        expect(res.status).toBe(200);
        const got = ((await res.json()) as { meta: { facets: ProductFacets } }).meta.facets;
        const want = await referenceFacets(q, f);
        const label = `${q} ${JSON.stringify(f)}`;
        expect(got.categories.toSorted(bySlug), label).toEqual(want.categories.toSorted(bySlug));
        expect(got.brands.toSorted(bySlug), label).toEqual(want.brands.toSorted(bySlug));
        expect(got.price_bands, label).toEqual(want.price_bands);
        expect(got.in_stock, label).toBe(want.in_stock);
        if (want.price_bands.reduce((sum, band) => sum + band.count, 0) >= 10) nonEmpty++;
      }
    // Most combinations must count some products, or the comparison proves little.
    expect(nonEmpty).toBeGreaterThan((WORDS.length * filters.length) / 2);
  }, 120_000);
});

describe("the narrow copy search reads (product_ranks, migration 0019)", () => {
  const columns = "id, active, category_id, brand_id, price, stock, is_featured";
  const same = async (what: string) => {
    const [ranks, products] = await env.DB.batch([
      env.DB.prepare(`SELECT ${columns} FROM product_ranks ORDER BY id`),
      env.DB.prepare(`SELECT ${columns} FROM products ORDER BY id`),
    ]);
    expect(ranks.results, what).toEqual(products.results);
  };

  it("follows every kind of write to products, including replace, a new id and delete", async () => {
    await same("after the seeds");
    const insert = (id: number, verb = "INSERT") =>
      env.DB.prepare(
        `${verb} INTO products (id, slug, sku, category_id, brand_id, name_en, name_ar, price, stock, is_featured, active)
         VALUES (?, ?, ?, 4, 2, 'Ranked', 'مرتب', 12300, 4, 1, 1)`,
      )
        .bind(id, `ranked-${id}`, `RANKED-${id}`)
        .run();
    await insert(900_001);
    await same("after an insert");
    await insert(900_001, "INSERT OR REPLACE");
    await same("after an insert or replace");
    for (const set of [
      "price = 99900",
      "stock = 0",
      "is_featured = 0",
      "brand_id = NULL",
      "category_id = 12",
      "active = 0",
      "active = 1",
      "description_en = 'only words'",
      "id = 900002",
    ]) {
      await env.DB.prepare(`UPDATE products SET ${set} WHERE id IN (900001, 900002)`).run();
      await same(`after ${set}`);
    }
    await env.DB.prepare("DELETE FROM products WHERE id = 900002").run();
    await same("after a delete");
  });
});
