import type { Lang } from "../../env";
import { CATALOGUE_VERSION_SQL, catalogueVersion } from "../../cache";
import type { CategoryNode, Ref } from "../../../../contract/catalogue";
import { col } from "./summary";

/**
 * The catalogue's taxonomy: the category tree and the brands, as the shop's menus read them and as
 * the list's filters need them (slugs to ids, a category's subtree, a facet's slug).
 */

/** How long an isolate keeps the taxonomy at most, the catalogue version unmoved. */
const TAXONOMY_TTL_MS = 60_000;

/**
 * The category tree and the brands by slug, as the filters need them: small, kept per isolate for
 * a minute, and dropped as soon as the catalogue version moves (a console edit). The
 * version is the one the edge cache reads for every catalogue answer (`catalogueVersion`, at most
 * once a second per isolate, and by then read for this very request), so an edit reaches every
 * isolate's filters within a second, and checking costs no round trip of its own: with its own
 * read once a second, one or two of a cold row's forty pages waited for it (the bench's p95).
 */
export interface Taxonomy {
  parent: Map<number, number | null>;
  slug: Map<number, string>;
  categoryId: Map<string, number>;
  brandId: Map<string, number>;
  brandSlug: Map<number, string>;
  /** The filterable attributes (numbers, enumerations, yes/no) by code (migration 0037). */
  attributes: Map<string, AttributeDef>;
  /** Each category's own attributes' codes, in its table's order (a subcategory adds its parent's). */
  categoryAttributes: Map<number, string[]>;
}

/** An attribute a list can filter on, with its options in order (an enumeration's). */
export interface AttributeDef {
  id: number;
  code: string;
  type: "number" | "enum" | "bool";
  label: { en: string; ar: string };
  unit: { en: string; ar: string } | null;
  options: { id: number; code: string; label: { en: string; ar: string } }[];
}
let taxonomyCache: { at: number; version: number; value: Taxonomy } | undefined;

/** Forgets the kept taxonomy, so the next list reads the tables (after an edit; tests). */
export function forgetTaxonomy(): void {
  taxonomyCache = undefined;
}

export async function taxonomy(db: D1Database): Promise<Taxonomy> {
  const now = Date.now();
  if (
    taxonomyCache &&
    now - taxonomyCache.at < TAXONOMY_TTL_MS &&
    Number(await catalogueVersion(db)) === taxonomyCache.version
  )
    return taxonomyCache.value;
  const [versionRow, categories, brands, attributes, options, listed] = await db.batch([
    db.prepare(CATALOGUE_VERSION_SQL),
    db.prepare("SELECT id, parent_id, slug FROM categories"),
    db.prepare("SELECT id, slug FROM brands"),
    db.prepare(
      "SELECT id, code, type, label_en, label_ar, unit_en, unit_ar FROM attributes WHERE type <> 'text' ORDER BY position, id",
    ),
    db.prepare("SELECT id, attribute_id, code, label_en, label_ar FROM attribute_options ORDER BY position, id"),
    db.prepare(
      "SELECT ca.category_id, a.code FROM category_attributes ca JOIN attributes a ON a.id = ca.attribute_id ORDER BY ca.position, a.position",
    ),
  ]);
  const value: Taxonomy = {
    parent: new Map(),
    slug: new Map(),
    categoryId: new Map(),
    brandId: new Map(),
    brandSlug: new Map(),
    attributes: new Map(),
    categoryAttributes: new Map(),
  };
  for (const c of categories.results as { id: number; parent_id: number | null; slug: string }[]) {
    value.parent.set(c.id, c.parent_id);
    value.slug.set(c.id, c.slug);
    value.categoryId.set(c.slug, c.id);
  }
  for (const b of brands.results as { id: number; slug: string }[]) {
    value.brandId.set(b.slug, b.id);
    value.brandSlug.set(b.id, b.slug);
  }
  type AttributeRow = Pick<AttributeDef, "id" | "code" | "type"> &
    Record<`label_${Lang}`, string> &
    Record<`unit_${Lang}`, string | null>;
  const byId = new Map<number, AttributeDef>();
  for (const a of attributes.results as AttributeRow[]) {
    const def: AttributeDef = {
      id: a.id,
      code: a.code,
      type: a.type,
      label: { en: a.label_en, ar: a.label_ar },
      unit: a.unit_en === null ? null : { en: a.unit_en, ar: a.unit_ar ?? a.unit_en },
      options: [],
    };
    byId.set(a.id, def);
    value.attributes.set(a.code, def);
  }
  for (const o of options.results as {
    id: number;
    attribute_id: number;
    code: string;
    label_en: string;
    label_ar: string;
  }[])
    byId.get(o.attribute_id)?.options.push({ id: o.id, code: o.code, label: { en: o.label_en, ar: o.label_ar } });
  for (const { category_id, code } of listed.results as { category_id: number; code: string }[]) {
    if (!value.attributes.has(code)) continue;
    const codes = value.categoryAttributes.get(category_id) ?? [];
    value.categoryAttributes.set(category_id, [...codes, code]);
  }
  const version = (versionRow.results[0] as { value: number } | undefined)?.value ?? 0;
  taxonomyCache = { at: now, version, value };
  return value;
}

/** A category and everything under it, as ids (none for an unknown slug). */
export function subtree(tax: Taxonomy, slug: string): number[] {
  const root = tax.categoryId.get(slug);
  if (root === undefined) return [];
  const ids = [root];
  for (let k = 0; k < ids.length; k++) for (const [id, parent] of tax.parent) if (parent === ids[k]) ids.push(id);
  return ids;
}

export interface CategoryRow {
  id: number;
  parent_id: number | null;
  slug: string;
  name: string;
  direct: number;
}

/**
 * The categories in menu order; with `counted`, each with its own active products (not its
 * subcategories'), read from the kept counts (migration 0018) rather than counted.
 */
async function categoryRows(db: D1Database, lang: Lang, counted = false): Promise<CategoryRow[]> {
  const { results } = await categoryStatement(db, lang, counted).all<CategoryRow>();
  return results;
}

export function categoryStatement(db: D1Database, lang: Lang, counted = false): D1PreparedStatement {
  return db.prepare(
    counted
      ? `SELECT c.id, c.parent_id, c.slug, c.${col("name", lang)} AS name, IFNULL(f.n, 0) AS direct
           FROM categories c LEFT JOIN (SELECT category_id, SUM(n) AS n FROM product_facet_counts GROUP BY category_id) f
             ON f.category_id = c.id
           ORDER BY c.sort_order, c.id`
      : `SELECT c.id, c.parent_id, c.slug, c.${col("name", lang)} AS name, 0 AS direct FROM categories c ORDER BY c.sort_order, c.id`,
  );
}

/** The category tree; each node's product_count includes its subcategories' products. */
export async function categoryTree(db: D1Database, lang: Lang): Promise<CategoryNode[]> {
  const rows = await categoryRows(db, lang, true);
  const nodes = new Map<number, CategoryNode>(
    rows.map((r) => [
      r.id,
      { id: r.id, slug: r.slug, name: r.name, parent_id: r.parent_id, product_count: r.direct, children: [] },
    ]),
  );
  const roots: CategoryNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.id)!;
    const parent = r.parent_id !== null ? nodes.get(r.parent_id) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const total = (n: CategoryNode): number =>
    (n.product_count += n.children.reduce((sum, child) => sum + total(child), 0));
  roots.forEach(total);
  return roots;
}

export async function listBrands(db: D1Database, lang: Lang): Promise<Ref[]> {
  const { results } = await db
    .prepare(`SELECT id, slug, ${col("name", lang)} AS name FROM brands ORDER BY name_en COLLATE NOCASE`)
    .all<Ref>();
  return results;
}
