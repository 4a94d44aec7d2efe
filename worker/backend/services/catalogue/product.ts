import type { Lang } from "../../env";
import { CATALOGUE_VERSION_SQL } from "../../cache";
import type { ProductDetails, ProductSummary } from "../../../../contract/catalogue";
import { attributesStatement, toAttribute, type AttributeRow } from "./attributes";
import { categoryStatement, type CategoryRow } from "./taxonomy";
import { col, parseJson, summaryColumns, summaryFrom, toSummary, type SummaryRow } from "./summary";
import { toVariants, variantStatements } from "./variants";

/**
 * Products one at a time or by id: a product's page (details, related products, breadcrumbs), the
 * summaries carts, orders and the home page show, the facts its generated art is drawn from, the
 * slugs the sitemap lists and the live stock the page cache checks.
 */

export const MAX_RELATED = 8;
/** How many of a category's products, in index order, the related products are chosen from. */
const RELATED_WINDOW = 40;

/** Product summaries by id, in the order given (for carts, orders and the home page). */
export async function productSummariesByIds(db: D1Database, lang: Lang, ids: number[]): Promise<ProductSummary[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)].slice(0, 100);
  const { results } = await db
    .prepare(`SELECT ${summaryColumns(lang)} FROM ${summaryFrom} WHERE p.id IN (${unique.map(() => "?").join(", ")})`)
    .bind(...unique)
    .all<SummaryRow>();
  const byId = new Map(results.map((r) => [r.id, toSummary(r)]));
  return ids.map((id) => byId.get(id)).filter((p): p is ProductSummary => p !== undefined);
}

/** A few products chosen by a flag, for the home page. */
export async function productsWhere(
  db: D1Database,
  lang: Lang,
  flag: "featured" | "new",
  limit: number,
): Promise<ProductSummary[]> {
  const where = flag === "featured" ? "p.is_featured = 1 AND p.active = 1" : "p.is_new = 1 AND p.active = 1";
  const order = flag === "featured" ? "p.stock > 0 DESC, p.id ASC" : "p.created_at DESC, p.id DESC";
  const { results } = await db
    .prepare(`SELECT ${summaryColumns(lang)} FROM ${summaryFrom} WHERE ${where} ORDER BY ${order} LIMIT ?`)
    .bind(limit)
    .all<SummaryRow>();
  return results.map(toSummary);
}

interface DetailRow extends SummaryRow {
  description: string;
  specs: string;
  seo_title: string | null;
  seo_description: string | null;
  weight_grams: number | null;
  parent_id: number | null;
}

/** One product with its description, specifications, related products and category path; null when unknown. */
export async function productDetails(db: D1Database, lang: Lang, slug: string): Promise<ProductDetails | null> {
  // Same category first, then the rest of its top-level category: each read in its index order
  // (featured, new, id) and cut at a few dozen, then the ones in stock first among those, so a
  // product of a category of thousands reads a few dozen rows, not the category.
  // `except`: the product itself, as SQL.
  const related = (categories: string, except: string, limit: number) =>
    `SELECT ${summaryColumns(lang)} FROM (
       SELECT id FROM products WHERE category_id ${categories} AND id != ${except} AND active = 1
       ORDER BY is_featured DESC, is_new DESC, id ASC LIMIT ${RELATED_WINDOW}
     ) w JOIN products p ON p.id = w.id JOIN categories c ON c.id = p.category_id LEFT JOIN brands b ON b.id = p.brand_id
     ORDER BY p.is_featured DESC, p.stock > 0 DESC, p.id ASC LIMIT ${limit}`;
  // One round trip: the product, the category tree (its breadcrumbs) and its category's related
  // products, found by the product's slug. Only a category of fewer than MAX_RELATED others
  // needs a second, for the rest of its family.
  const [found, tree, same, typed, optionRows, variantRows, valueRows] = await db.batch([
    db
      .prepare(
        `SELECT ${summaryColumns(lang)}, p.${col("description", lang)} AS description, p.${col("specs", lang)} AS specs, c.parent_id,
         p.${col("seo_title", lang)} AS seo_title, p.${col("seo_description", lang)} AS seo_description, p.weight_grams
         FROM ${summaryFrom} WHERE p.slug = ? AND p.active = 1`,
      )
      .bind(slug),
    categoryStatement(db, lang),
    db
      .prepare(
        related(
          "= (SELECT category_id FROM products WHERE slug = ?1 AND active = 1)",
          "(SELECT id FROM products WHERE slug = ?1)",
          MAX_RELATED,
        ),
      )
      .bind(slug),
    attributesStatement(db, lang, slug),
    ...variantStatements(db, lang, slug),
  ]);
  const row = found.results[0] as DetailRow | undefined;
  if (!row) return null;
  const categories = tree.results as CategoryRow[];
  const byId = new Map(categories.map((c) => [c.id, c]));
  const breadcrumbs: { slug: string; name: string }[] = [];
  for (
    let c = byId.get(row.category_id);
    c && breadcrumbs.length < 10;
    c = c.parent_id !== null ? byId.get(c.parent_id) : undefined
  ) {
    breadcrumbs.unshift({ slug: c.slug, name: c.name });
  }
  const top = breadcrumbs.length ? categories.find((c) => c.slug === breadcrumbs[0].slug) : undefined;
  const results = same.results as SummaryRow[];
  if (results.length < MAX_RELATED && top) {
    const family = categories
      .filter((c) => c.id !== row.category_id && (c.id === top.id || c.parent_id === top.id))
      .map((c) => c.id);
    if (family.length) {
      const rest = await db
        .prepare(related(`IN (${family.join(", ")})`, "?1", MAX_RELATED - results.length))
        .bind(row.id)
        .all<SummaryRow>();
      results.push(...rest.results);
    }
  }
  const specifications = parseJson<{ label: string; value: string }[]>(row.specs, []).filter(
    (s) => s && typeof s.label === "string" && typeof s.value === "string",
  );
  const { options, variants } = toVariants(
    optionRows.results as Parameters<typeof toVariants>[0],
    variantRows.results as Parameters<typeof toVariants>[1],
    valueRows.results as Parameters<typeof toVariants>[2],
  );
  return {
    ...toSummary(row),
    description: row.description,
    options,
    variants,
    specifications,
    seo_title: row.seo_title,
    seo_description: row.seo_description,
    weight_grams: row.weight_grams,
    attributes: (typed.results as AttributeRow[]).map(toAttribute),
    related: results.map(toSummary),
    breadcrumbs,
  };
}

export interface ProductArtFacts {
  slug: string;
  name: string;
  brand: string;
  category: string;
  colour: string;
}

/** What the generated product art is drawn from: top-level category, brand and colour. */
export async function productArtFacts(db: D1Database, slug: string): Promise<ProductArtFacts | null> {
  return db
    .prepare(
      `SELECT p.slug, p.name_en AS name, COALESCE(b.name_en, '') AS brand, COALESCE(top.slug, c.slug) AS category, p.colour
       FROM products p JOIN categories c ON c.id = p.category_id
       LEFT JOIN categories top ON top.id = c.parent_id
       LEFT JOIN brands b ON b.id = p.brand_id WHERE p.slug = ?`,
    )
    .bind(slug)
    .first<ProductArtFacts>();
}

/**
 * One page of the slugs of every product shoppers can see, oldest first, and how many there are:
 * one round trip (contract/catalogue.ts CATALOGUE_SLUGS_PATH), with the catalogue version it read.
 */
export async function activeSlugs(
  db: D1Database,
  page: number,
  perPage: number,
): Promise<{ slugs: string[]; total: number; version: string }> {
  const [count, rows, version] = await db.batch([
    db.prepare("SELECT COUNT(*) AS n FROM products WHERE active = 1"),
    db
      .prepare("SELECT slug FROM products WHERE active = 1 ORDER BY id LIMIT ?1 OFFSET ?2")
      .bind(perPage, (page - 1) * perPage),
    db.prepare(CATALOGUE_VERSION_SQL),
  ]);
  return {
    slugs: (rows.results as { slug: string }[]).map((r) => r.slug),
    total: (count.results[0] as { n: number } | undefined)?.n ?? 0,
    version: String((version.results[0] as { value: number } | undefined)?.value ?? 0),
  };
}

/**
 * The stock of these products ("12") and variants ("v80") now, by key. One that is gone or hidden
 * is left out: a hidden product does not exist to the public (its page is a 404), so its stock is
 * not told either, and the page cache reads a missing one as a changed count and renders again.
 */
export async function stockOf(db: D1Database, keys: string[]): Promise<Map<string, number>> {
  const products = keys.filter((k) => !k.startsWith("v")).map(Number);
  const variants = keys.filter((k) => k.startsWith("v")).map((k) => Number(k.slice(1)));
  const { results } = await db
    .prepare(
      `SELECT CAST(id AS TEXT) AS key, stock FROM products WHERE id IN (SELECT value FROM json_each(?1)) AND active = 1
       UNION ALL
       SELECT 'v' || v.id, v.stock FROM product_variants v JOIN products p ON p.id = v.product_id
       WHERE v.id IN (SELECT value FROM json_each(?2)) AND v.active = 1 AND p.active = 1`,
    )
    .bind(JSON.stringify(products), JSON.stringify(variants))
    .all<{ key: string; stock: number }>();
  return new Map(results.map((r) => [r.key, r.stock]));
}
