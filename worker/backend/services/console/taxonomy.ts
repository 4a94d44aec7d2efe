import type { BrandInput, CategoryInput, ConsoleBrand, ConsoleCategory } from "../../../../contract/console-content";
import type { Lang } from "../../env";
import { bumpCatalogueVersion } from "../../cache";
import { detailsText, indexNames, searchBody } from "./products";
import { notFound } from "../../http";
import { type Bilingual } from "../../../../contract/server/i18n";
import { bumpSearchVersion } from "../catalogue/search-kept";
import { contains, pageOf, type ListQuery } from "./list";
import { auditStatement } from "./audit-log";
import { auditTakesId, changed, refuse, writing, type Staff } from "./writes";
import { msg } from "../../messages";

/**
 * Categories and brands as the console runs them: every write is one batch with its audit line and
 * the catalogue version bump, and a rename rewrites the search index of the products it touches.
 */

// ---------------------------------------------------------------------------------------------
// Search index: product_search's body holds the SKU, brand names and the category path in both
// languages (scripts/seed/catalogue.ts, productSearchText). A rename rewrites it for the products
// it touches.

/** At most this many products are re-indexed in the rename's own batch; the rest follow right after. */
const REINDEX_CHUNK = 200;

/** The body statements of the given products, with the taxonomy as it will be after the change. */
async function reindexStatements(
  db: D1Database,
  where: { sql: string; binds: unknown[] },
  override: {
    category?: { id: number; name_en: string; name_ar: string; parent_id: number | null };
    brand?: BrandInput & { id: number };
  },
): Promise<D1PreparedStatement[]> {
  const products = await db
    .prepare(
      `SELECT p.id, p.sku, p.category_id, p.brand_id, p.description_en, p.description_ar FROM products p WHERE ${where.sql}`,
    )
    .bind(...where.binds)
    .all<{
      id: number;
      sku: string;
      category_id: number;
      brand_id: number | null;
      description_en: string;
      description_ar: string;
    }>();
  // The details row holds the category path's names too, beside the typed values' words.
  const names = await indexNames(
    db,
    products.results.map((p) => p.id),
  );
  if (override.category) {
    const c = names.categories.get(override.category.id);
    if (c) names.categories.set(override.category.id, { ...c, ...override.category });
  }
  if (override.brand) names.brands.set(override.brand.id, override.brand);
  return products.results.flatMap((p) => [
    db
      .prepare("UPDATE product_search SET body = ? WHERE rowid = ?")
      .bind(searchBody(p, names, names.options.get(p.id) ?? ""), p.id),
    db
      .prepare("UPDATE product_details_search SET details = ? WHERE rowid = ?")
      .bind(detailsText(p, names, names.words.get(p.id) ?? ""), p.id),
  ]);
}

/**
 * Runs the change's batch with the first re-index chunk in it, then the rest in batches of their
 * own; each chunk moves the search version, so no search keeps a half re-indexed catalogue.
 */
async function withReindex(db: D1Database, change: D1PreparedStatement[], reindex: D1PreparedStatement[]) {
  const bump = reindex.length ? [bumpSearchVersion(db)] : [];
  const first = await db.batch([...change, ...reindex.slice(0, REINDEX_CHUNK), ...bump]);
  for (let i = REINDEX_CHUNK; i < reindex.length; i += REINDEX_CHUNK)
    await db.batch([...reindex.slice(i, i + REINDEX_CHUNK), ...bump]);
  return first;
}

// ---------------------------------------------------------------------------------------------
// Categories

const CATEGORY_SELECT = `c.id, c.parent_id, c.slug, c.name_en, c.name_ar, c.icon, c.sort_order,
  (SELECT COUNT(*) FROM products p WHERE p.category_id = c.id) AS products,
  (SELECT COUNT(*) FROM categories k WHERE k.parent_id = c.id) AS children`;

const CATEGORY_SORTS = {
  sort_order: "c.sort_order",
  name_en: "c.name_en COLLATE NOCASE",
  name_ar: "c.name_ar",
  slug: "c.slug",
  products: "products",
};

export async function listCategories(db: D1Database, query: ListQuery & { search?: string }) {
  const where = query.search
    ? `WHERE (${contains("c.name_en")} OR ${contains("c.name_ar")} OR ${contains("c.slug")})`
    : "";
  return pageOf<ConsoleCategory>(
    db,
    CATEGORY_SELECT,
    `FROM categories c ${where}`,
    query.search ? [query.search, query.search, query.search] : [],
    query,
    CATEGORY_SORTS,
  );
}

export async function findCategory(db: D1Database, id: number): Promise<ConsoleCategory> {
  const row = await db
    .prepare(`SELECT ${CATEGORY_SELECT} FROM categories c WHERE c.id = ?`)
    .bind(id)
    .first<ConsoleCategory>();
  if (!row) throw notFound();
  return row;
}

const CATEGORY_MESSAGES = {
  noParent: msg("console.taxonomy.noParent"),
  cycle: msg("console.taxonomy.cycle"),
  hasProducts: msg("console.taxonomy.hasProducts"),
  inUse: msg("console.taxonomy.inUse"),
  hasChildren: msg("console.taxonomy.hasChildren"),
};

/** Refuses a parent that does not exist, or that is the category itself or under it. */
async function checkParent(db: D1Database, lang: Lang, id: number | null, parentId: number | null) {
  if (parentId === null) return;
  const { results } = await db
    .prepare("SELECT id, parent_id FROM categories")
    .all<{ id: number; parent_id: number | null }>();
  const parent = new Map(results.map((r) => [r.id, r.parent_id]));
  if (!parent.has(parentId)) refuse(lang, 422, CATEGORY_MESSAGES.noParent, "parent_id");
  // Walk up from the new parent: meeting the category itself would close a loop.
  for (let at: number | null = parentId, depth = 0; at !== null && depth <= parent.size; depth++) {
    if (at === id) refuse(lang, 422, CATEGORY_MESSAGES.cycle, "parent_id");
    at = parent.get(at) ?? null;
  }
}

const categoryView = (c: CategoryInput | ConsoleCategory) => ({
  slug: c.slug,
  name_en: c.name_en,
  name_ar: c.name_ar,
  parent_id: c.parent_id,
  icon: c.icon,
  sort_order: c.sort_order,
});

export async function createCategory(db: D1Database, staff: Staff, lang: Lang, input: CategoryInput) {
  await checkParent(db, lang, null, input.parent_id);
  const [inserted] = await writing(lang, () =>
    db.batch([
      db
        .prepare(
          "INSERT INTO categories (parent_id, slug, name_en, name_ar, icon, sort_order) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(input.parent_id, input.slug, input.name_en, input.name_ar, input.icon, input.sort_order),
      auditStatement(db, staff, "category.create", "category", null, null, categoryView(input)),
      auditTakesId(db, "categories", input.slug),
      bumpCatalogueVersion(db),
    ]),
  );
  const id = (inserted!.results[0] as { id: number }).id;
  changed();
  return findCategory(db, id);
}

export async function updateCategory(db: D1Database, staff: Staff, lang: Lang, id: number, input: CategoryInput) {
  const before = await findCategory(db, id);
  await checkParent(db, lang, id, input.parent_id);
  // The products under this category (at any depth) carry its name and its parents' in their
  // index body: a rename or a move rewrites theirs, with the tree as it will be after the update.
  const moved =
    before.name_en !== input.name_en || before.name_ar !== input.name_ar || before.parent_id !== input.parent_id;
  const reindex = moved
    ? await reindexStatements(
        db,
        {
          sql: `p.category_id IN (WITH RECURSIVE sub(id) AS (SELECT ? UNION SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id) SELECT id FROM sub)`,
          binds: [id],
        },
        { category: { id, name_en: input.name_en, name_ar: input.name_ar, parent_id: input.parent_id } },
      )
    : [];
  await writing(lang, () =>
    withReindex(
      db,
      [
        db
          .prepare(
            "UPDATE categories SET parent_id = ?, slug = ?, name_en = ?, name_ar = ?, icon = ?, sort_order = ? WHERE id = ?",
          )
          .bind(input.parent_id, input.slug, input.name_en, input.name_ar, input.icon, input.sort_order, id),
        auditStatement(db, staff, "category.update", "category", id, categoryView(before), categoryView(input)),
        bumpCatalogueVersion(db),
      ],
      reindex,
    ),
  );
  changed();
  return findCategory(db, id);
}

export async function deleteCategory(db: D1Database, staff: Staff, lang: Lang, id: number) {
  const before = await findCategory(db, id);
  if (before.products > 0) refuse(lang, 409, CATEGORY_MESSAGES.hasProducts, undefined, { count: before.products });
  if (before.children > 0) refuse(lang, 409, CATEGORY_MESSAGES.hasChildren);
  // Conditional delete: a product or subcategory added since the check keeps the category, and
  // the audit line is written only when the delete happened.
  const [deleted] = await db.batch([
    db
      .prepare(
        "DELETE FROM categories WHERE id = ? AND NOT EXISTS (SELECT 1 FROM products WHERE category_id = ?) AND NOT EXISTS (SELECT 1 FROM categories WHERE parent_id = ?)",
      )
      .bind(id, id, id),
    auditStatement(db, staff, "category.delete", "category", id, categoryView(before), null, { onlyIfChanged: true }),
    bumpCatalogueVersion(db),
  ]);
  // Something was added to it since the check.
  if (deleted!.meta.changes === 0) refuse(lang, 409, CATEGORY_MESSAGES.inUse);
  changed();
}

// ---------------------------------------------------------------------------------------------
// Brands

const BRAND_SELECT = `b.id, b.slug, b.name_en, b.name_ar, (SELECT COUNT(*) FROM products p WHERE p.brand_id = b.id) AS products`;
const BRAND_SORTS = { name_en: "b.name_en COLLATE NOCASE", name_ar: "b.name_ar", slug: "b.slug", products: "products" };

export async function listBrands(db: D1Database, query: ListQuery & { search?: string }) {
  const where = query.search
    ? `WHERE (${contains("b.name_en")} OR ${contains("b.name_ar")} OR ${contains("b.slug")})`
    : "";
  return pageOf<ConsoleBrand>(
    db,
    BRAND_SELECT,
    `FROM brands b ${where}`,
    query.search ? [query.search, query.search, query.search] : [],
    query,
    BRAND_SORTS,
  );
}

export async function findBrand(db: D1Database, id: number): Promise<ConsoleBrand> {
  const row = await db.prepare(`SELECT ${BRAND_SELECT} FROM brands b WHERE b.id = ?`).bind(id).first<ConsoleBrand>();
  if (!row) throw notFound();
  return row;
}

const brandView = (b: BrandInput | ConsoleBrand) => ({ slug: b.slug, name_en: b.name_en, name_ar: b.name_ar });

export async function createBrand(db: D1Database, staff: Staff, lang: Lang, input: BrandInput) {
  const [inserted] = await writing(lang, () =>
    db.batch([
      db
        .prepare("INSERT INTO brands (slug, name_en, name_ar) VALUES (?, ?, ?) RETURNING id")
        .bind(input.slug, input.name_en, input.name_ar),
      auditStatement(db, staff, "brand.create", "brand", null, null, brandView(input)),
      auditTakesId(db, "brands", input.slug),
      bumpCatalogueVersion(db),
    ]),
  );
  changed();
  return findBrand(db, (inserted!.results[0] as { id: number }).id);
}

export async function updateBrand(db: D1Database, staff: Staff, lang: Lang, id: number, input: BrandInput) {
  const before = await findBrand(db, id);
  const renamed = before.name_en !== input.name_en || before.name_ar !== input.name_ar;
  const reindex = renamed
    ? await reindexStatements(db, { sql: "p.brand_id = ?", binds: [id] }, { brand: { ...input, id } })
    : [];
  await writing(lang, () =>
    withReindex(
      db,
      [
        db
          .prepare("UPDATE brands SET slug = ?, name_en = ?, name_ar = ? WHERE id = ?")
          .bind(input.slug, input.name_en, input.name_ar, id),
        auditStatement(db, staff, "brand.update", "brand", id, brandView(before), brandView(input)),
        bumpCatalogueVersion(db),
      ],
      reindex,
    ),
  );
  changed();
  return findBrand(db, id);
}

const BRAND_HAS_PRODUCTS: Bilingual = msg("console.taxonomy.brandHasProducts");

export async function deleteBrand(db: D1Database, staff: Staff, lang: Lang, id: number) {
  const before = await findBrand(db, id);
  const hasProducts = () => refuse(lang, 409, BRAND_HAS_PRODUCTS, undefined, { count: before.products });
  if (before.products > 0) hasProducts();
  const [deleted] = await db.batch([
    db
      .prepare("DELETE FROM brands WHERE id = ? AND NOT EXISTS (SELECT 1 FROM products WHERE brand_id = ?)")
      .bind(id, id),
    auditStatement(db, staff, "brand.delete", "brand", id, brandView(before), null, { onlyIfChanged: true }),
    bumpCatalogueVersion(db),
  ]);
  if (deleted!.meta.changes === 0) hasProducts();
  changed();
}
