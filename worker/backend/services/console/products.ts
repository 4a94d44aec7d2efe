import { stockAlertStatements } from "../stock-alerts/trigger";
import {
  PRODUCT_LIMITS,
  type BulkEditInput,
  type BulkEditResult,
  type ConsoleProduct,
  type ConsoleProductRow,
  type ProductChoices,
  type ProductInput,
  type Spec,
  type StockState,
} from "../../../../contract/console-catalogue";
import { freeSlug } from "../../../../contract/slug";
import type { ConsoleListMeta } from "../../../../contract/console";
import type { Lang, StaffCaller } from "../../env";
import { BackendError, notFound } from "../../http";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import { indexText } from "../catalogue/analysis";
import { attributeWordsStatement } from "../catalogue/attributes";
import { bumpSearchVersion } from "../catalogue/search-kept";
import { pageOf, type ListQuery } from "./list";
import { auditStatement } from "./audit-log";
import { bumpCatalogueVersion } from "../../cache";
import { msg } from "../../messages";

/**
 * The console's products: list, read, create, edit, hide and show again. Every change is
 * one D1 batch: the product, its rows in both search indexes (so the storefront's search finds it
 * by its new names in both languages at once), the audit line and the catalogue version bump (which
 * moves the catalogue caches on, worker/backend/cache.ts). Stock is set here only when a product is
 * created; after that it changes through the inventory ledger (/admin/inventory), never by a form.
 */

type Staff = Pick<StaffCaller, "user_id" | "email">;

export interface ProductListFilters {
  search?: string;
  category_id?: number;
  brand_id?: number;
  active?: boolean;
  stock?: StockState;
}

export const PRODUCT_SORTS = {
  updated_at: "p.updated_at",
  name: "p.name_en COLLATE NOCASE",
  sku: "p.sku",
  price: "p.price",
  stock: "p.stock",
  created_at: "p.created_at",
} as const;

interface ProductRow {
  id: number;
  slug: string;
  sku: string;
  model: string | null;
  name_en: string;
  name_ar: string;
  description_en: string;
  description_ar: string;
  specs_en: string;
  specs_ar: string;
  price: number;
  compare_at_price: number | null;
  stock: number;
  max_per_order: number;
  low_stock_threshold: number;
  category_id: number;
  brand_id: number | null;
  images: string;
  is_featured: number;
  is_new: number;
  active: number;
  seo_title_en: string | null;
  seo_title_ar: string | null;
  seo_description_en: string | null;
  seo_description_ar: string | null;
  weight_grams: number | null;
  barcode: string | null;
  created_at: string;
  updated_at: string;
}

function parseList<T>(text: string): T[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

function present(row: ProductRow): ConsoleProduct {
  return {
    ...row,
    specs_en: parseList<Spec>(row.specs_en),
    specs_ar: parseList<Spec>(row.specs_ar),
    images: parseList<string>(row.images).filter((i) => typeof i === "string"),
    is_featured: row.is_featured === 1,
    is_new: row.is_new === 1,
    active: row.active === 1,
    // A database from before these columns answers rows without them.
    seo_title_en: row.seo_title_en ?? null,
    seo_title_ar: row.seo_title_ar ?? null,
    seo_description_en: row.seo_description_en ?? null,
    seo_description_ar: row.seo_description_ar ?? null,
    weight_grams: row.weight_grams ?? null,
    barcode: row.barcode ?? null,
  };
}

/** The console's product list: sorted and paged on the server, with its filters. */
export async function listConsoleProducts(
  db: D1Database,
  query: ListQuery,
  filters: ProductListFilters,
): Promise<{ rows: ConsoleProductRow[]; meta: ConsoleListMeta }> {
  const where: string[] = [];
  const binds: unknown[] = [];
  if (filters.search) {
    // Name in either language, or the SKU, containing what was typed: instr(), not LIKE, since D1
    // caps a LIKE pattern at 50 bytes (25 Arabic letters) and a search needs no wildcards.
    const text = filters.search.toLowerCase();
    where.push("(instr(lower(p.name_en), ?) > 0 OR instr(p.name_ar, ?) > 0 OR instr(lower(p.sku), ?) > 0)");
    binds.push(text, text, text);
  }
  if (filters.category_id !== undefined) {
    where.push("p.category_id = ?");
    binds.push(filters.category_id);
  }
  if (filters.brand_id !== undefined) {
    where.push("p.brand_id = ?");
    binds.push(filters.brand_id);
  }
  if (filters.active !== undefined) {
    where.push("p.active = ?");
    binds.push(filters.active ? 1 : 0);
  }
  if (filters.stock === "out") where.push("p.stock = 0");
  if (filters.stock === "low") where.push("p.stock > 0 AND p.stock <= p.low_stock_threshold");
  if (filters.stock === "in_stock") where.push("p.stock > p.low_stock_threshold");
  const { rows, meta } = await pageOf<Omit<ConsoleProductRow, "active" | "image"> & { active: number; images: string }>(
    db,
    "p.id, p.slug, p.sku, p.name_en, p.name_ar, p.price, p.stock, p.low_stock_threshold, p.active, p.images, p.category_id, p.brand_id, p.updated_at",
    `FROM products p ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`,
    binds,
    query,
    PRODUCT_SORTS,
  );
  return {
    rows: rows.map(({ images, active, ...row }) => ({
      ...row,
      active: active === 1,
      image: parseList<string>(images)[0] ?? null,
    })),
    meta,
  };
}

async function productRow(db: D1Database, id: number): Promise<ProductRow | null> {
  return db.prepare("SELECT * FROM products WHERE id = ?").bind(id).first<ProductRow>();
}

export async function getConsoleProduct(db: D1Database, id: number): Promise<ConsoleProduct> {
  const row = await productRow(db, id);
  if (!row) throw notFound();
  return present(row);
}

/** The categories and brands the product form offers. */
export async function productChoices(db: D1Database): Promise<ProductChoices> {
  const [categories, brands] = await db.batch([
    db.prepare("SELECT id, name_en, name_ar, parent_id FROM categories ORDER BY sort_order, id"),
    db.prepare("SELECT id, name_en, name_ar FROM brands ORDER BY name_en COLLATE NOCASE"),
  ]);
  return {
    categories: categories.results as ProductChoices["categories"],
    brands: brands.results as ProductChoices["brands"],
  };
}

const MESSAGES = {
  slugTaken: msg("console.products.slugTaken"),
  slugTakenTry: msg("console.products.slugTakenTry"),
  priceAboveCompareAt: msg("console.products.priceAboveCompareAt"),
  belowZero: msg("console.products.belowZero"),
  hasVariants: msg("console.products.hasVariants"),
  unknownProducts: msg("console.products.unknownProducts"),
  moved: msg("console.products.moved"),
  skuTaken: msg("console.products.skuTaken"),
  noCategory: msg("console.products.noCategory"),
  noBrand: msg("console.products.noBrand"),
  stockByLedger: msg("console.products.stockByLedger"),
  invalid: msg("console.products.invalid"),
} satisfies Record<string, Bilingual>;

export type ProductProblems = Record<string, string[]>;

/** What the database knows that the schema cannot: taken slugs and SKUs, unknown categories and brands. */
/** A category or brand as a CSV row may name it: by id, slug, or its English or Arabic name. */
export interface NamedRecord {
  id: number;
  slug: string;
  name_en: string;
  name_ar: string;
}

export interface CatalogueFacts {
  categoryIds: Set<number>;
  brandIds: Set<number>;
  categories: NamedRecord[];
  brands: NamedRecord[];
  /** Every product's id by slug and by SKU (SKUs compared case-insensitively, as stored). */
  bySlug: Map<string, number>;
  bySku: Map<string, { id: number; stock: number }>;
}

export async function catalogueFacts(
  db: D1Database,
  only?: { slugs: string[]; skus: string[] },
): Promise<CatalogueFacts> {
  const [categories, brands, products] = await db.batch([
    db.prepare("SELECT id, slug, name_en, name_ar FROM categories ORDER BY sort_order, id"),
    db.prepare("SELECT id, slug, name_en, name_ar FROM brands ORDER BY id"),
    only
      ? db
          .prepare(
            "SELECT id, slug, sku, stock FROM products WHERE slug IN (SELECT value FROM json_each(?1)) OR sku IN (SELECT value FROM json_each(?2))",
          )
          .bind(JSON.stringify(only.slugs), JSON.stringify(only.skus))
      : db.prepare("SELECT id, slug, sku, stock FROM products"),
  ]);
  const rows = products.results as { id: number; slug: string; sku: string; stock: number }[];
  const categoryList = categories.results as NamedRecord[];
  const brandList = brands.results as NamedRecord[];
  return {
    categoryIds: new Set(categoryList.map((r) => r.id)),
    brandIds: new Set(brandList.map((r) => r.id)),
    categories: categoryList,
    brands: brandList,
    bySlug: new Map(rows.map((r) => [r.slug, r.id])),
    bySku: new Map(rows.map((r) => [r.sku.toUpperCase(), { id: r.id, stock: r.stock }])),
  };
}

/**
 * The checks a valid input still has to pass against the catalogue, as field errors (empty: none).
 * `id` is the product being edited (null: a new one). A CSV row whose other fields failed the
 * schema passes the fields that did not, so all of a row's errors are reported at once.
 */
export function productProblems(
  lang: Lang,
  input: Partial<Pick<ProductInput, "slug" | "sku" | "category_id" | "brand_id" | "stock">>,
  id: number | null,
  facts: CatalogueFacts,
): ProductProblems {
  const problems: ProductProblems = {};
  const add = (field: string, message: Bilingual) => (problems[field] ??= []).push(say(lang, message));
  const slugOwner = input.slug === undefined ? undefined : facts.bySlug.get(input.slug);
  if (slugOwner !== undefined && slugOwner !== id) add("slug", MESSAGES.slugTaken);
  const skuOwner = input.sku === undefined ? undefined : facts.bySku.get(input.sku.toUpperCase());
  if (skuOwner !== undefined && skuOwner.id !== id) add("sku", MESSAGES.skuTaken);
  if (input.category_id !== undefined && !facts.categoryIds.has(input.category_id))
    add("category_id", MESSAGES.noCategory);
  if (input.brand_id != null && !facts.brandIds.has(input.brand_id)) add("brand_id", MESSAGES.noBrand);
  if (id !== null && input.stock != null) {
    const current = [...facts.bySku.values()].find((p) => p.id === id)?.stock;
    if (current !== undefined && current !== input.stock) add("stock", MESSAGES.stockByLedger);
  }
  return problems;
}

/** The taken slugs and SKUs (upper case) that start as `slug` and `sku` do: where a free one is found. */
async function takenLike(
  db: D1Database,
  slug: string,
  sku: string,
): Promise<{ slugs: Set<string>; skus: Set<string> }> {
  const [slugs, skus] = await db.batch([
    db.prepare("SELECT slug FROM products WHERE substr(slug, 1, length(?1)) = ?1").bind(slug),
    db
      .prepare("SELECT upper(sku) AS sku FROM products WHERE substr(upper(sku), 1, length(?1)) = ?1")
      .bind(sku.toUpperCase()),
  ]);
  return {
    slugs: new Set((slugs.results as { slug: string }[]).map((r) => r.slug)),
    skus: new Set((skus.results as { sku: string }[]).map((r) => r.sku)),
  };
}

/** A taken slug's message names it and a free one to use instead. */
async function withSlugSuggestion(
  db: D1Database,
  lang: Lang,
  slug: string,
  problems: ProductProblems,
): Promise<ProductProblems> {
  if (!problems.slug?.includes(say(lang, MESSAGES.slugTaken))) return problems;
  const { slugs } = await takenLike(db, slug, "");
  const free = freeSlug(slug, (s) => slugs.has(s));
  return {
    ...problems,
    slug: problems.slug.map((m) =>
      m === say(lang, MESSAGES.slugTaken) ? say(lang, MESSAGES.slugTakenTry, { slug, free }) : m,
    ),
  };
}

function refuse(lang: Lang, problems: ProductProblems): void {
  if (Object.keys(problems).length) throw new BackendError(422, say(lang, MESSAGES.invalid), problems);
}

/** The product's record as the audit log keeps it (stock included, for a creation). */
function auditView(input: ProductInput | ConsoleProduct): Record<string, unknown> {
  return { ...input };
}

export interface IndexNames {
  categories: Map<number, { parent_id: number | null; name_en: string; name_ar: string }>;
  brands: Map<number, { name_en: string; name_ar: string }>;
  /** The typed values' words of the products asked for (catalogue/attributes.ts), by product id. */
  words: Map<number, string>;
  /** Their variants' option values' words, by product id (in the names index's body too). */
  options: Map<number, string>;
}

/** The names a product's index body holds, and the typed values' words of these products. */
export async function indexNames(db: D1Database, productIds: readonly number[] = []): Promise<IndexNames> {
  const [categories, brands, words] = await db.batch([
    db.prepare("SELECT id, parent_id, name_en, name_ar FROM categories"),
    db.prepare("SELECT id, name_en, name_ar FROM brands"),
    attributeWordsStatement(db, productIds),
  ]);
  const rows = words.results as { product_id: number; words: string; options: string | null }[];
  return {
    words: new Map(rows.map((w) => [w.product_id, w.words])),
    options: new Map(rows.map((w) => [w.product_id, w.options ?? ""])),
    categories: new Map(
      (categories.results as { id: number; parent_id: number | null; name_en: string; name_ar: string }[]).map((c) => [
        c.id,
        c,
      ]),
    ),
    brands: new Map((brands.results as { id: number; name_en: string; name_ar: string }[]).map((b) => [b.id, b])),
  };
}

/**
 * The search index rows of a product, analysed as the seed script indexes them
 * (scripts/seed/catalogue.ts, `productSearchText`): names and model; SKU, brand and the category
 * path in both languages; descriptions in their own index.
 */
export function searchText(
  p: Pick<
    ProductInput,
    "name_en" | "name_ar" | "model" | "sku" | "description_en" | "description_ar" | "category_id" | "brand_id"
  >,
  names: IndexNames,
  /** The product's id, when it has one (its typed values' words go in its body). */
  id?: number,
): { name: string; body: string; details: string } {
  const words = id === undefined ? "" : (names.words.get(id) ?? "");
  return {
    name: indexText([p.name_en, p.name_ar, p.model ?? ""].join(" ")),
    body: searchBody(p, names, id === undefined ? "" : (names.options.get(id) ?? "")),
    // The details index holds the names and typed values beside the descriptions, so "iphone 256"
    // finds the phones of that storage there, ranked after what the names alone match; in the
    // names index their words would lengthen every row that has them and rank it lower.
    details: detailsText(p, names, words),
  };
}

/** What a product's details index row is made of (besides the brand and category names). */
export type DetailsOf = Pick<ProductInput, "name_en" | "name_ar" | "model" | "description_en" | "description_ar">;
type Placed = { category_id: number; brand_id: number | null };

/** The names of a category and those above it, in both languages. */
function pathNames(categoryId: number, names: IndexNames): string[] {
  const path: string[] = [];
  for (let id: number | null = categoryId, depth = 0; id !== null && depth < 10; depth++) {
    const c = names.categories.get(id);
    if (!c) break;
    path.push(c.name_en, c.name_ar);
    id = c.parent_id;
  }
  return path;
}

/** The brand's names and the category path's, in both languages. */
function placeNames(p: Placed, names: IndexNames): string[] {
  const brand = p.brand_id !== null ? names.brands.get(p.brand_id) : undefined;
  return [brand?.name_en ?? "", brand?.name_ar ?? "", ...pathNames(p.category_id, names)];
}

/**
 * The details index text of a product: its descriptions, its category path's names and its typed
 * values' words. A search whose words are all in the names index ranks there first; one that
 * names a typed value ("16gb laptop", «تلفزيون 65 بوصة») is found here. In the names index the
 * words would lengthen every row that has them and rank it lower; the product's and brand's names
 * are left out here, so a search of them does not match every such product in both indexes.
 */
export function detailsText(
  p: Pick<DetailsOf, "description_en" | "description_ar"> & { category_id: number },
  names: IndexNames,
  words: string,
): string {
  return indexText([p.description_en, p.description_ar, ...pathNames(p.category_id, names), words].join(" "));
}

/**
 * The index body of a product: SKU, brand names and the category path in both languages, and its
 * variants' option values ("Desert Titanium 512 GB"), so a search naming the product and a variant
 * finds it in this one index.
 */
export function searchBody(p: { sku: string } & Placed, names: IndexNames, options: string): string {
  return indexText([p.sku, ...placeNames(p, names), options].join(" "));
}

/** Statements that replace a product's rows in both search indexes; `rowid` is SQL giving its id. */
function indexStatements(
  db: D1Database,
  rowid: { sql: string; binds: unknown[] },
  text: ReturnType<typeof searchText>,
  replace: boolean,
) {
  return [
    // A new product has no rows to replace: its batch stays two statements shorter.
    ...(replace
      ? [
          db.prepare(`DELETE FROM product_search WHERE rowid = ${rowid.sql}`).bind(...rowid.binds),
          db.prepare(`DELETE FROM product_details_search WHERE rowid = ${rowid.sql}`).bind(...rowid.binds),
        ]
      : []),
    db
      .prepare(`INSERT INTO product_search (rowid, name, body) VALUES (${rowid.sql}, ?, ?)`)
      .bind(...rowid.binds, text.name, text.body),
    db
      .prepare(`INSERT INTO product_details_search (rowid, details) VALUES (${rowid.sql}, ?)`)
      .bind(...rowid.binds, text.details),
  ];
}

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

function columnsOf(p: ProductInput) {
  return {
    slug: p.slug,
    sku: p.sku,
    model: p.model || null,
    name_en: p.name_en,
    name_ar: p.name_ar,
    description_en: p.description_en,
    description_ar: p.description_ar,
    specs_en: JSON.stringify(p.specs_en),
    specs_ar: JSON.stringify(p.specs_ar),
    price: p.price,
    compare_at_price: p.compare_at_price,
    max_per_order: p.max_per_order,
    low_stock_threshold: p.low_stock_threshold,
    category_id: p.category_id,
    brand_id: p.brand_id,
    images: JSON.stringify(p.images),
    is_featured: p.is_featured ? 1 : 0,
    is_new: p.is_new ? 1 : 0,
    active: p.active ? 1 : 0,
    // Left out of the input (an older CSV file): the product keeps what it has.
    ...definedOnly({
      seo_title_en: p.seo_title_en,
      seo_title_ar: p.seo_title_ar,
      seo_description_en: p.seo_description_en,
      seo_description_ar: p.seo_description_ar,
      weight_grams: p.weight_grams,
      barcode: p.barcode,
    }),
  };
}

function definedOnly<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * The statements of a new product (its id found by SKU inside the batch). Its opening stock (from
 * the form, a CSV row or none for a copy) is the inventory ledger's first line for it, a count by
 * whoever entered it, so the ledger's lines add up to the stock from the start.
 */
function createStatements(
  db: D1Database,
  staff: Staff,
  input: ProductInput,
  names: IndexNames,
  action = "product.create",
  note: Record<string, unknown> = {},
): D1PreparedStatement[] {
  const cols = { ...columnsOf(input), stock: input.stock ?? 0 };
  const keys = Object.keys(cols);
  const byId = { sql: "(SELECT id FROM products WHERE sku = ?)", binds: [input.sku] };
  return [
    db
      .prepare(`INSERT INTO products (${keys.join(", ")}) VALUES (${keys.map(() => "?").join(", ")})`)
      .bind(...Object.values(cols)),
    ...indexStatements(db, byId, searchText(input, names), false),
    db
      .prepare(
        "INSERT INTO audit_log (staff_user_id, staff_email, action, entity, entity_id, before_json, after_json) VALUES (?, ?, ?, 'product', (SELECT id FROM products WHERE sku = ?), NULL, ?)",
      )
      .bind(
        staff.user_id,
        staff.email,
        action,
        input.sku,
        JSON.stringify({ ...auditView({ ...input, stock: cols.stock }), ...note }),
      ),
    ...(cols.stock > 0
      ? [
          db
            .prepare(
              `INSERT INTO inventory_adjustments (product_id, variant_id, delta, reason, note, stock_after, staff_user_id, applied)
               SELECT p.id, v.id, ?2, 'count', NULL, ?2, ?3, 1
               FROM products p JOIN product_variants v ON v.product_id = p.id WHERE p.sku = ?1`,
            )
            .bind(input.sku, cols.stock, staff.user_id),
        ]
      : []),
  ];
}

/**
 * The statements of an edit: every field but stock (the inventory ledger's) and, for a product of
 * several variants, its price and compare-at price, which follow its variants' (migration 0040).
 */
function updateStatements(
  db: D1Database,
  staff: Staff,
  id: number,
  before: ConsoleProduct,
  input: ProductInput,
  names: IndexNames,
): D1PreparedStatement[] {
  const cols: Partial<ReturnType<typeof columnsOf>> = columnsOf(input);
  const several = (before.variant_count ?? 1) > 1;
  if (several) {
    delete cols.price;
    delete cols.compare_at_price;
  }
  const after = {
    ...input,
    stock: before.stock,
    ...(several ? { price: before.price, compare_at_price: before.compare_at_price } : {}),
  };
  return [
    db
      .prepare(
        `UPDATE products SET ${Object.keys(cols)
          .map((k) => `${k} = ?`)
          .join(", ")}, updated_at = ${NOW} WHERE id = ?`,
      )
      .bind(...Object.values(cols), id),
    ...indexStatements(db, { sql: "?", binds: [id] }, searchText(input, names, id), true),
    auditStatement(
      db,
      staff,
      "product.update",
      "product",
      id,
      changedOnly(before, after, "before"),
      changedOnly(before, after, "after"),
    ),
  ];
}

/** The fields an edit changed, as they were (`before`) or became (`after`): the audit line stays readable. */
function changedOnly(before: ConsoleProduct, after: ProductInput, side: "before" | "after"): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const old = (before as unknown as Record<string, unknown>)[key];
    if (JSON.stringify(old ?? null) !== JSON.stringify(value ?? null)) out[key] = side === "before" ? old : value;
  }
  return out;
}

/** POST /admin/products. */
export async function createConsoleProduct(
  db: D1Database,
  lang: Lang,
  staff: Staff,
  input: ProductInput,
): Promise<ConsoleProduct> {
  const facts = await catalogueFacts(db, { slugs: [input.slug], skus: [input.sku] });
  refuse(lang, await withSlugSuggestion(db, lang, input.slug, productProblems(lang, input, null, facts)));
  const names = await indexNames(db);
  await db.batch([...createStatements(db, staff, input, names), bumpCatalogueVersion(db)]);
  const row = await db.prepare("SELECT * FROM products WHERE sku = ?").bind(input.sku).first<ProductRow>();
  return present(row!);
}

/** PUT /admin/products/:id. */
export async function updateConsoleProduct(
  db: D1Database,
  lang: Lang,
  staff: Staff,
  id: number,
  input: ProductInput,
): Promise<ConsoleProduct> {
  const before = await getConsoleProduct(db, id);
  const facts = await catalogueFacts(db, { slugs: [input.slug], skus: [input.sku, before.sku] });
  refuse(lang, await withSlugSuggestion(db, lang, input.slug, productProblems(lang, input, id, facts)));
  const names = await indexNames(db, [id]);
  await db.batch([...updateStatements(db, staff, id, before, input, names), bumpCatalogueVersion(db)]);
  return getConsoleProduct(db, id);
}

/**
 * Hides a product from the storefront (or shows it again). Never a deletion: orders keep pointing
 * at their products.
 */
export async function setProductActive(
  db: D1Database,
  staff: Staff,
  id: number,
  active: boolean,
): Promise<ConsoleProduct> {
  const before = await getConsoleProduct(db, id);
  if (before.active !== active) {
    await db.batch([
      db.prepare(`UPDATE products SET active = ?, updated_at = ${NOW} WHERE id = ?`).bind(active ? 1 : 0, id),
      auditStatement(
        db,
        staff,
        active ? "product.reactivate" : "product.deactivate",
        "product",
        id,
        { active: before.active },
        { active },
      ),
      bumpCatalogueVersion(db),
    ]);
  }
  return { ...before, active };
}

/**
 * Creates or updates many products (a CSV import) in ONE batch with one version bump: all or
 * nothing. `rows` were validated and checked against `facts` by the caller.
 */
export async function writeProducts(
  db: D1Database,
  staff: Staff,
  rows: { input: ProductInput; existing: number | null }[],
): Promise<void> {
  const existingIds = rows.map((r) => r.existing).filter((id): id is number => id !== null);
  const names = await indexNames(db, existingIds);
  const befores = new Map<number, ConsoleProduct>();
  if (existingIds.length) {
    const { results } = await db
      .prepare("SELECT * FROM products WHERE id IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify(existingIds))
      .all<ProductRow>();
    for (const r of results) befores.set(r.id, present(r));
  }
  const statements: D1PreparedStatement[] = [];
  for (const { input, existing } of rows) {
    const before = existing !== null ? befores.get(existing) : undefined;
    statements.push(
      ...(before && existing !== null
        ? updateStatements(db, staff, existing, before, input, names)
        : createStatements(db, staff, input, names)),
    );
  }
  statements.push(bumpCatalogueVersion(db));
  await db.batch(statements);
}

/** Every product, for the CSV export. */
export async function allConsoleProducts(db: D1Database): Promise<ConsoleProduct[]> {
  const { results } = await db.prepare("SELECT * FROM products ORDER BY id").all<ProductRow>();
  return results.map(present);
}

/** What a copy's name ends with, in each language. */
const COPY = msg("console.products.copy");

const withSuffix = (name: string, suffix: string) =>
  `${name.slice(0, PRODUCT_LIMITS.name - suffix.length).trimEnd()}${suffix}`;

/**
 * POST /admin/products/:id/duplicate: a copy of the product to start a similar one from, hidden
 * from the shop (inactive) with no stock, "(copy)" after its names and a free slug and SKU made
 * from the original's. One batch, audited as a creation that names the original.
 */
export async function duplicateConsoleProduct(db: D1Database, staff: Staff, id: number): Promise<ConsoleProduct> {
  const original = await getConsoleProduct(db, id);
  const slugBase = `${original.slug.slice(0, PRODUCT_LIMITS.slug - 10).replace(/-+$/, "")}-copy`;
  const skuBase = `${original.sku.slice(0, PRODUCT_LIMITS.sku - 10)}-COPY`;
  const taken = await takenLike(db, slugBase, skuBase);
  const sku = freeSlug(skuBase, (s) => taken.skus.has(s.toUpperCase()));
  const { id: _id, created_at: _c, updated_at: _u, ...fields } = original;
  const input: ProductInput = {
    ...fields,
    name_en: withSuffix(original.name_en, COPY.en),
    name_ar: withSuffix(original.name_ar, COPY.ar),
    slug: freeSlug(slugBase, (s) => taken.slugs.has(s)),
    sku,
    model: original.model ?? "",
    stock: 0,
    active: false,
    is_featured: false,
  };
  const names = await indexNames(db);
  await db.batch([
    ...createStatements(db, staff, input, names, "product.duplicate", { copied_from: original.id }),
    bumpCatalogueVersion(db),
  ]);
  const row = await db.prepare("SELECT * FROM products WHERE sku = ?").bind(sku).first<ProductRow>();
  return present(row!);
}

/** The new price of a product under a bulk price change, in whole halalas (a percentage rounds half up). */
export function bulkPrice(price: number, change: NonNullable<BulkEditInput["price"]>): number {
  if (change.mode === "set") return change.amount;
  // In hundredths of a percent, so 12.5 % of 1999 is exact integer arithmetic before the rounding.
  const basis = Math.round(change.percent * 100);
  return Math.max(0, Math.floor((price * (10_000 + basis) + 5_000) / 10_000));
}

/**
 * POST /admin/products/bulk: sets or moves the price and/or the stock of the chosen products, all
 * in ONE batch (all or nothing). Each product gets its audit line (before and after); a stock
 * change also gets its inventory ledger line (a count for "set", "other" for a delta), whose
 * guard (applied = changes()) fails the whole batch when a product's stock moved since it was read.
 */
export async function bulkEditProducts(
  db: D1Database,
  lang: Lang,
  staff: Staff,
  input: BulkEditInput,
): Promise<BulkEditResult> {
  const { results } = await db
    .prepare(
      `SELECT id, sku, price, compare_at_price, stock, (SELECT COUNT(*) FROM product_variants v WHERE v.product_id = products.id) AS variants
       FROM products WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
    )
    .bind(JSON.stringify(input.ids))
    .all<{
      id: number;
      sku: string;
      price: number;
      compare_at_price: number | null;
      stock: number;
      variants: number;
    }>();
  const invalid = (field: string, message: string) =>
    new BackendError(422, say(lang, MESSAGES.invalid), { [field]: [message] });
  if (results.length !== input.ids.length) throw invalid("product_ids", say(lang, MESSAGES.unknownProducts));
  const plans = results.map((p) => {
    const price = input.price ? bulkPrice(p.price, input.price) : p.price;
    const stock = !input.stock ? p.stock : input.stock.mode === "set" ? input.stock.value : p.stock + input.stock.delta;
    return { ...p, newPrice: price, newStock: stock };
  });
  const list = (rows: typeof plans) => rows.map((p) => p.sku).join(lang === "ar" ? "، " : ", ");
  // A product of one variant is written as a whole (its variant follows, migrations/0040); one of
  // several has no single price or stock to set.
  const several = plans.filter((p) => p.variants > 1);
  if (several.length) throw invalid("product_ids", say(lang, MESSAGES.hasVariants, { skus: list(several) }));
  const aboveCompare = plans.filter((p) => p.compare_at_price !== null && p.newPrice >= p.compare_at_price);
  if (input.price && aboveCompare.length)
    throw invalid("price", say(lang, MESSAGES.priceAboveCompareAt, { skus: list(aboveCompare) }));
  const overLimit = plans.filter((p) => p.newPrice > PRODUCT_LIMITS.price);
  if (overLimit.length) throw invalid("price", say(lang, MESSAGES.invalid));
  const negative = plans.filter((p) => p.newStock < 0);
  if (negative.length) throw invalid("stock", say(lang, MESSAGES.belowZero, { skus: list(negative) }));

  const statements: D1PreparedStatement[] = [];
  for (const p of plans) {
    const priceChanges = p.newPrice !== p.price;
    const delta = p.newStock - p.stock;
    if (!priceChanges && delta === 0) continue;
    // The stock as read is the update's condition; the ledger line after it fails the batch if it moved.
    statements.push(
      db
        .prepare(`UPDATE products SET price = ?, stock = ?, updated_at = ${NOW} WHERE id = ? AND stock = ?`)
        .bind(p.newPrice, p.newStock, p.id, p.stock),
    );
    if (delta !== 0)
      statements.push(
        db
          .prepare(
            `INSERT INTO inventory_adjustments (product_id, variant_id, delta, reason, note, stock_after, staff_user_id, applied)
             VALUES (?1, (SELECT id FROM product_variants WHERE product_id = ?1), ?2, ?3, NULL, ?4, ?5, changes())`,
          )
          .bind(p.id, delta, input.stock?.mode === "set" ? "count" : "other", p.newStock, staff.user_id),
      );
    statements.push(
      auditStatement(
        db,
        staff,
        "product.bulk_edit",
        "product",
        p.id,
        { ...(priceChanges ? { price: p.price } : {}), ...(delta ? { stock: p.stock } : {}) },
        { ...(priceChanges ? { price: p.newPrice } : {}), ...(delta ? { stock: p.newStock } : {}) },
      ),
    );
  }
  if (!statements.length) return { updated: 0 };
  statements.push(
    bumpCatalogueVersion(db),
    ...stockAlertStatements(db, { productIds: plans.filter((p) => p.newStock > p.stock).map((p) => p.id) }),
  );
  try {
    await db.batch(statements);
  } catch (err) {
    if (!/CHECK constraint failed/i.test(String(err))) throw err;
    throw invalid("stock", say(lang, MESSAGES.moved));
  }
  return { updated: plans.filter((p) => p.newPrice !== p.price || p.newStock !== p.stock).length };
}

/**
 * Writes a product's details index row and its names index body again from what it holds now
 * (after its typed values or its variants changed), and moves the search version, so no kept
 * search answers from the old words.
 */
export async function reindexProductDetails(db: D1Database, id: number): Promise<void> {
  const [product, names] = await Promise.all([
    db
      .prepare(
        "SELECT sku, name_en, name_ar, model, description_en, description_ar, category_id, brand_id FROM products WHERE id = ?",
      )
      .bind(id)
      .first<DetailsOf & Placed & { sku: string }>(),
    indexNames(db, [id]),
  ]);
  if (!product) return;
  await db.batch([
    db
      .prepare("UPDATE product_details_search SET details = ? WHERE rowid = ?")
      .bind(detailsText(product, names, names.words.get(id) ?? ""), id),
    db
      .prepare("UPDATE product_search SET body = ? WHERE rowid = ?")
      .bind(searchBody(product, names, names.options.get(id) ?? ""), id),
    bumpSearchVersion(db),
  ]);
}
