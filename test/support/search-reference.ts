import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { syntheticStatements } from "../../scripts/seed/synthetic.ts";
import { ftsQuery, synonymGroups } from "../../worker/backend/services/catalogue/analysis";
import type { ProductFacets, ProductSummary } from "../../contract/catalogue";
import { PRICE_BANDS } from "../../worker/backend/services/catalogue/search-ranking";
import { seedCatalogue } from "./catalogue";

/**
 * What a search should answer, stated the straightforward way (docs/PERFORMANCE.md
 * "Search at scale"): every match ranked, merged and sorted, filtered after, and its facets as a
 * count of its matches. The shop's statements (afresh, or from a kept copy) must agree with it.
 * An empty `q` is a list without a search: every shown product, and the list's own order.
 */

/** The demo seed, 1,500 synthetic products and some hidden: many matches per word, ties of stock and featuring. */
export async function seedSearchCatalogue(): Promise<void> {
  await seedCatalogue(env.DB);
  const statements = syntheticStatements(1_500);
  for (let i = 0; i < statements.length; i += 50)
    await env.DB.batch(statements.slice(i, i + 50).map((s) => env.DB.prepare(s)));
  // Hidden products are in no list: some of every kind, so a filter's absence would show.
  await env.DB.prepare("UPDATE products SET active = 0 WHERE id % 17 = 0").run();
}

const BM25_NAMES = "bm25(product_search, 10.0, 1.0)";
/** The order of each sort as the reference states it: `s` is the merged match, `p` the product. */
export const ORDER: Record<string, (lang: "en" | "ar") => string> = {
  relevance: () => "s.named DESC, (p.stock > 0) DESC, s.score ASC, p.is_featured DESC, p.id ASC",
  newest: () => "p.created_at DESC, p.id DESC",
  price_asc: () => "p.price ASC, p.id ASC",
  price_desc: () => "p.price DESC, p.id DESC",
  name: (lang) => `p.name_${lang} COLLATE NOCASE ASC, p.id ASC`,
};

export interface Filters {
  brand?: string;
  category?: string;
  in_stock?: boolean;
  min_price?: number;
  max_price?: number;
}

/** The two full-text queries a search makes: names, brands and categories with synonyms; descriptions. */
export async function queriesOf(q: string): Promise<{ names: string; details: string }> {
  const { results: rows } = await env.DB.prepare("SELECT group_name, term FROM search_synonyms").all<{
    group_name: string;
    term: string;
  }>();
  const names = ftsQuery(q, synonymGroups(rows));
  const details = ftsQuery(q);
  if (!names || !details) throw new Error(`nothing to search in ${q}`);
  return { names, details };
}

/** Words with many matches in both languages, and filters of every kind. */
export const WORDS: [string, "en" | "ar"][] = [
  ["phone", "en"],
  ["samsung", "en"],
  ["camera", "en"],
  ["سامسونج", "ar"],
  ["جراب", "ar"],
];
export const FILTERS: Filters[] = [
  {},
  { brand: "samsung" },
  { in_stock: true },
  { brand: "samsung", in_stock: true, min_price: 100_000 },
  { category: "phones" },
];

/**
 * A parameter the API ignores, new on every request: the edge cache keys on the whole URL, so each
 * answer comes from the statements under test, not from a copy of an earlier answer kept for 30 s
 * (the tests write to products directly, without the catalogue version a shop's writes move).
 */
let requests = 0;
const uncached = () => ({ request: String(++requests) });

/** A list's default order without a search: featured, then new, then by id. */
const LIST_RELEVANCE = "p.is_featured DESC, p.is_new DESC, p.id ASC";

/** Every matching product's slug, in order: the plain statement, whole, before the scale work. */
export async function reference(q: string, lang: "en" | "ar", sort: string, f: Filters): Promise<string[]> {
  const where = ["p.active = 1"];
  const binds: unknown[] = q ? Object.values(await queriesOf(q)) : [];
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
  if (f.max_price !== undefined) {
    where.push("p.price <= ?");
    binds.push(f.max_price);
  }
  const matches = q
    ? // Found by name: ranked by the name's score, whatever the description's.
      `JOIN (SELECT id, IFNULL(MIN(CASE WHEN named = 1 THEN score END), MIN(score)) AS score, MAX(named) AS named FROM (
         SELECT rowid AS id, ${BM25_NAMES} AS score, 1 AS named FROM product_search WHERE product_search MATCH ?
         UNION ALL
         SELECT rowid AS id, bm25(product_details_search) AS score, 0 AS named FROM product_details_search WHERE product_details_search MATCH ?
       ) GROUP BY id) s ON s.id = p.id`
    : "";
  const order = !q && sort === "relevance" ? LIST_RELEVANCE : ORDER[sort](lang);
  const { results } = await env.DB.prepare(
    `SELECT p.slug FROM products p ${matches} WHERE ${where.join(" AND ")} ORDER BY ${order}`,
  )
    .bind(...binds)
    .all<{ slug: string }>();
  return results.map((r) => r.slug);
}

export async function page(
  q: string,
  lang: "en" | "ar",
  sort: string,
  f: Filters,
  n: number,
  perPage: number,
): Promise<{ slugs: string[]; total: number }> {
  const params = new URLSearchParams({ sort, page: String(n), per_page: String(perPage), ...uncached() });
  if (q) params.set("q", q);
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

/**
 * A search's facets as a count of its matches gives them: each facet with every filter but its
 * own, a category with its subcategories' products, the open top band and products in stock.
 */
export async function referenceFacets(q: string, f: Filters): Promise<ProductFacets> {
  const matching = q
    ? `AND p.id IN (SELECT rowid FROM product_search WHERE product_search MATCH ?
         UNION SELECT rowid FROM product_details_search WHERE product_details_search MATCH ?)`
    : "";
  const [matches, categories] = await env.DB.batch([
    env.DB.prepare(
      `SELECT p.category_id, b.slug AS brand, p.price, p.stock FROM products p LEFT JOIN brands b ON b.id = p.brand_id
       WHERE p.active = 1 ${matching}`,
    ).bind(...(q ? Object.values(await queriesOf(q)) : [])),
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

export const bySlug = (a: { slug: string }, b: { slug: string }) => a.slug.localeCompare(b.slug);

/** A search's facets as the API answers them. */
export async function facetsOf(q: string, lang: "en" | "ar", f: Filters): Promise<ProductFacets> {
  const params = new URLSearchParams({ facets: "1", ...uncached() });
  if (q) params.set("q", q);
  for (const [key, value] of Object.entries(f)) params.set(key, value === true ? "1" : String(value));
  const res = await SELF.fetch(`https://shop.test/backend/products?${params}`, {
    headers: { "content-language": lang },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { meta: { facets: ProductFacets } }).meta.facets;
}

/** Facets compared as sets: the order of categories and brands is the API's own. */
export function expectSameFacets(got: ProductFacets, want: ProductFacets, label: string): void {
  expect(got.categories.toSorted(bySlug), label).toEqual(want.categories.toSorted(bySlug));
  expect(got.brands.toSorted(bySlug), label).toEqual(want.brands.toSorted(bySlug));
  expect(got.price_bands, label).toEqual(want.price_bands);
  expect(got.in_stock, label).toBe(want.in_stock);
}
