import type {
  AdjustmentInput,
  BrandInput,
  CategoryInput,
  ConsoleBrand,
  ConsoleCategory,
  ConsolePage,
  ConsoleService,
  InventoryAdjustment,
  PageInput,
  ServiceInput,
  StockProduct,
} from "../../../../contract/console-content";
import type { Lang, StaffCaller } from "../../env";
import { forgetCatalogueVersion, bumpCatalogueVersion } from "../../cache";
import { indexNames, searchBody } from "./products";
import { BackendError, notFound } from "../../http";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import { INVALID_INPUT } from "../../../../contract/server/input-messages";
import { forgetSearchSynonyms } from "../catalogue/catalogue";
import { bumpSearchVersion } from "../catalogue/search-kept";
import { contains, pageOf, type ListQuery } from "./list";
import { auditStatement } from "./audit-log";

/**
 * Categories, brands, services, content pages and the inventory ledger as the console runs them
 * (issue 20). Every write is one batch with its audit line and the catalogue version bump, so the
 * storefront's caches (keyed by that version) stop answering the old text within a second.
 */

type Staff = Pick<StaffCaller, "user_id" | "email">;
const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

function refuse(
  lang: Lang,
  status: 409 | 422,
  message: Bilingual,
  field?: string,
  params: Record<string, string | number> = {},
): never {
  const text = say(lang, message, params);
  throw new BackendError(status, field ? say(lang, INVALID_INPUT) : text, field ? { [field]: [text] } : undefined);
}

const SLUG_TAKEN: Bilingual = { en: "This slug is already used.", ar: "هذا المعرّف مستخدم بالفعل." };

/** A UNIQUE slug clash becomes the slug field's message (checked by the database, so no race). */
async function writing<T>(lang: Lang, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (/UNIQUE constraint failed: \w+\.slug/i.test(String(err))) refuse(lang, 422, SLUG_TAKEN, "slug");
    throw err;
  }
}

/** The isolate that made a change forgets its kept taxonomy at once; others see the version move. */
function changed(): void {
  forgetSearchSynonyms();
  // This isolate's catalogue answers follow the new version at once, not within the second.
  forgetCatalogueVersion();
}

/**
 * A new row's id is known only inside its batch: the audit line just written (the statement before
 * this one) takes it, found by the unique slug.
 */
function auditTakesId(db: D1Database, table: "categories" | "brands" | "services" | "pages", slug: string) {
  return db
    .prepare(
      `UPDATE audit_log SET entity_id = (SELECT CAST(id AS TEXT) FROM ${table} WHERE slug = ?) WHERE id = last_insert_rowid()`,
    )
    .bind(slug);
}

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
  const [products, names] = await Promise.all([
    db
      .prepare(`SELECT p.id, p.sku, p.category_id, p.brand_id FROM products p WHERE ${where.sql}`)
      .bind(...where.binds)
      .all<{ id: number; sku: string; category_id: number; brand_id: number | null }>(),
    indexNames(db),
  ]);
  if (override.category) {
    const c = names.categories.get(override.category.id);
    if (c) names.categories.set(override.category.id, { ...c, ...override.category });
  }
  if (override.brand) names.brands.set(override.brand.id, override.brand);
  return products.results.map((p) =>
    db.prepare("UPDATE product_search SET body = ? WHERE rowid = ?").bind(searchBody(p, names), p.id),
  );
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
  noParent: { en: "This parent category does not exist.", ar: "الفئة الأم غير موجودة." },
  cycle: {
    en: "A category cannot sit under itself or one of its own subcategories.",
    ar: "لا يمكن وضع الفئة تحت نفسها أو تحت إحدى فئاتها الفرعية.",
  },
  hasProducts: {
    en: "This category still has {count} products: move them to another category first.",
    ar: "ما زالت في هذه الفئة منتجات ({count}): انقلها إلى فئة أخرى أولًا.",
  },
  inUse: {
    en: "Products or subcategories were just added to this category: it was kept.",
    ar: "أضيفت للتو منتجات أو فئات فرعية إلى هذه الفئة: لم تُحذف.",
  },
  hasChildren: {
    en: "This category has subcategories: move or delete them first.",
    ar: "لهذه الفئة فئات فرعية: انقلها أو احذفها أولًا.",
  },
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

const BRAND_HAS_PRODUCTS: Bilingual = {
  en: "This brand still has {count} products: change their brand first.",
  ar: "ما زالت لهذه العلامة منتجات ({count}): غيّر علامتها أولًا.",
};

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

// ---------------------------------------------------------------------------------------------
// Services

interface ServiceRow extends Omit<ConsoleService, "features_en" | "features_ar"> {
  features_en: string;
  features_ar: string;
}

const strings = (json: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === "string") : [];
  } catch {
    return [];
  }
};

const presentService = (r: ServiceRow): ConsoleService => ({
  ...r,
  features_en: strings(r.features_en),
  features_ar: strings(r.features_ar),
});

const SERVICE_SELECT =
  "id, slug, name_en, name_ar, summary_en, summary_ar, description_en, description_ar, features_en, features_ar, icon, price_from, sort_order";
const SERVICE_SORTS = {
  sort_order: "sort_order",
  name_en: "name_en COLLATE NOCASE",
  price_from: "price_from",
  slug: "slug",
};

export async function listServices(db: D1Database, query: ListQuery) {
  const { rows, meta } = await pageOf<ServiceRow>(db, SERVICE_SELECT, "FROM services", [], query, SERVICE_SORTS);
  return { rows: rows.map(presentService), meta };
}

export async function findService(db: D1Database, id: number): Promise<ConsoleService> {
  const row = await db.prepare(`SELECT ${SERVICE_SELECT} FROM services WHERE id = ?`).bind(id).first<ServiceRow>();
  if (!row) throw notFound();
  return presentService(row);
}

const serviceColumns = (s: ServiceInput) => [
  s.slug,
  s.name_en,
  s.name_ar,
  s.summary_en,
  s.summary_ar,
  s.description_en,
  s.description_ar,
  JSON.stringify(s.features_en),
  JSON.stringify(s.features_ar),
  s.icon,
  s.price_from,
  s.sort_order,
];

const serviceView = ({ id: _id, ...rest }: ServiceInput & { id?: number }) => rest;

export async function createService(db: D1Database, staff: Staff, lang: Lang, input: ServiceInput) {
  const [inserted] = await writing(lang, () =>
    db.batch([
      db
        .prepare(
          `INSERT INTO services (slug, name_en, name_ar, summary_en, summary_ar, description_en, description_ar, features_en, features_ar, icon, price_from, sort_order)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        )
        .bind(...serviceColumns(input)),
      auditStatement(db, staff, "service.create", "service", null, null, serviceView(input)),
      auditTakesId(db, "services", input.slug),
      bumpCatalogueVersion(db),
    ]),
  );
  return findService(db, (inserted!.results[0] as { id: number }).id);
}

export async function updateService(db: D1Database, staff: Staff, lang: Lang, id: number, input: ServiceInput) {
  const before = await findService(db, id);
  await writing(lang, () =>
    db.batch([
      db
        .prepare(
          `UPDATE services SET slug = ?, name_en = ?, name_ar = ?, summary_en = ?, summary_ar = ?, description_en = ?, description_ar = ?,
             features_en = ?, features_ar = ?, icon = ?, price_from = ?, sort_order = ? WHERE id = ?`,
        )
        .bind(...serviceColumns(input), id),
      auditStatement(db, staff, "service.update", "service", id, serviceView(before), serviceView(input)),
      bumpCatalogueVersion(db),
    ]),
  );
  return findService(db, id);
}

export async function deleteService(db: D1Database, staff: Staff, id: number) {
  const before = await findService(db, id);
  await db.batch([
    db.prepare("DELETE FROM services WHERE id = ?").bind(id),
    auditStatement(db, staff, "service.delete", "service", id, serviceView(before), null, { onlyIfChanged: true }),
    bumpCatalogueVersion(db),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Content pages

const PAGE_SELECT = "id, slug, title_en, title_ar, excerpt_en, excerpt_ar, body_en, body_ar, sort_order, updated_at";
const PAGE_SORTS = {
  sort_order: "sort_order",
  title_en: "title_en COLLATE NOCASE",
  slug: "slug",
  updated_at: "updated_at",
};

export async function listPages(db: D1Database, query: ListQuery) {
  return pageOf<ConsolePage>(db, PAGE_SELECT, "FROM pages", [], query, PAGE_SORTS);
}

export async function findPage(db: D1Database, id: number): Promise<ConsolePage> {
  const row = await db.prepare(`SELECT ${PAGE_SELECT} FROM pages WHERE id = ?`).bind(id).first<ConsolePage>();
  if (!row) throw notFound();
  return row;
}

const pageColumns = (p: PageInput) => [
  p.slug,
  p.title_en,
  p.title_ar,
  p.excerpt_en,
  p.excerpt_ar,
  p.body_en,
  p.body_ar,
  p.sort_order,
];

const pageView = ({ id: _id, updated_at: _at, ...rest }: PageInput & { id?: number; updated_at?: string }) => rest;

export async function createPage(db: D1Database, staff: Staff, lang: Lang, input: PageInput) {
  const [inserted] = await writing(lang, () =>
    db.batch([
      db
        .prepare(
          "INSERT INTO pages (slug, title_en, title_ar, excerpt_en, excerpt_ar, body_en, body_ar, sort_order) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(...pageColumns(input)),
      auditStatement(db, staff, "page.create", "page", null, null, pageView(input)),
      auditTakesId(db, "pages", input.slug),
      bumpCatalogueVersion(db),
    ]),
  );
  return findPage(db, (inserted!.results[0] as { id: number }).id);
}

export async function updatePage(db: D1Database, staff: Staff, lang: Lang, id: number, input: PageInput) {
  const before = await findPage(db, id);
  await writing(lang, () =>
    db.batch([
      db
        .prepare(
          `UPDATE pages SET slug = ?, title_en = ?, title_ar = ?, excerpt_en = ?, excerpt_ar = ?, body_en = ?, body_ar = ?, sort_order = ?,
             updated_at = ${NOW} WHERE id = ?`,
        )
        .bind(...pageColumns(input), id),
      auditStatement(db, staff, "page.update", "page", id, pageView(before), pageView(input)),
      bumpCatalogueVersion(db),
    ]),
  );
  return findPage(db, id);
}

export async function deletePage(db: D1Database, staff: Staff, id: number) {
  const before = await findPage(db, id);
  await db.batch([
    db.prepare("DELETE FROM pages WHERE id = ?").bind(id),
    auditStatement(db, staff, "page.delete", "page", id, pageView(before), null, { onlyIfChanged: true }),
    bumpCatalogueVersion(db),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Inventory

const INVENTORY_MESSAGES = {
  deltaNeeded: { en: "Enter the change in stock (not zero).", ar: "أدخل مقدار التغيير في المخزون (غير صفر)." },
  countNeeded: { en: "Enter the quantity you counted.", ar: "أدخل الكمية التي عددتها." },
  sameCount: {
    en: "The count matches the stock ({stock}): nothing to adjust.",
    ar: "العدد يطابق المخزون ({stock}): لا شيء لتعديله.",
  },
  belowZero: {
    en: "Only {stock} in stock: the stock cannot go below zero.",
    ar: "المتوفر {stock} فقط: لا يمكن أن يقل المخزون عن صفر.",
  },
  moved: {
    en: "The stock changed while you counted (an order?). Check the count and record it again.",
    ar: "تغيّر المخزون أثناء العد (ربما بسبب طلب). تحقّق من العدد وسجّله مرة أخرى.",
  },
  noProduct: { en: "This product does not exist.", ar: "هذا المنتج غير موجود." },
};

/**
 * Records a stock adjustment: a conditional stock update (never below zero; for a count, only if
 * the stock is still what was read) and its ledger line, whose `applied` CHECK fails the whole
 * batch when the update changed nothing, so stock and ledger never disagree.
 */
export async function adjustStock(
  db: D1Database,
  staff: Staff,
  lang: Lang,
  input: AdjustmentInput,
): Promise<InventoryAdjustment> {
  const product = await db
    .prepare("SELECT id, stock FROM products WHERE id = ?")
    .bind(input.product_id)
    .first<{ id: number; stock: number }>();
  if (!product) refuse(lang, 422, INVENTORY_MESSAGES.noProduct, "product_id");
  let delta: number;
  let update: D1PreparedStatement;
  if (input.reason === "count") {
    if (input.counted === null) refuse(lang, 422, INVENTORY_MESSAGES.countNeeded, "counted");
    delta = input.counted - product.stock;
    if (delta === 0) {
      const text = say(lang, INVENTORY_MESSAGES.sameCount, { stock: product.stock });
      throw new BackendError(422, say(lang, INVALID_INPUT), { counted: [text] });
    }
    update = db
      .prepare(`UPDATE products SET stock = ?, updated_at = ${NOW} WHERE id = ? AND stock = ?`)
      .bind(input.counted, product.id, product.stock);
  } else {
    if (input.delta === null) refuse(lang, 422, INVENTORY_MESSAGES.deltaNeeded, "delta");
    delta = input.delta;
    update = db
      .prepare(`UPDATE products SET stock = stock + ?1, updated_at = ${NOW} WHERE id = ?2 AND stock + ?1 >= 0`)
      .bind(delta, product.id);
  }
  try {
    const results = await db.batch([
      update,
      db
        .prepare(
          `INSERT INTO inventory_adjustments (product_id, delta, reason, note, stock_after, staff_user_id, applied)
           VALUES (?1, ?2, ?3, ?4, (SELECT stock FROM products WHERE id = ?1), ?5, changes()) RETURNING id`,
        )
        .bind(product.id, delta, input.reason, input.note, staff.user_id),
      auditStatement(
        db,
        staff,
        `inventory.${input.reason}`,
        "product",
        product.id,
        { stock: product.stock },
        {
          delta,
          reason: input.reason,
          note: input.note,
        },
      ),
      bumpCatalogueVersion(db),
    ]);
    const id = (results[1]!.results[0] as { id: number }).id;
    return findAdjustment(db, id);
  } catch (err) {
    if (!/CHECK constraint failed/i.test(String(err))) throw err;
    // The update found nothing to do: the stock would go below zero, or moved since it was read.
    const now = await db.prepare("SELECT stock FROM products WHERE id = ?").bind(product.id).first<number>("stock");
    // On the counted field, so the form shows it where the operator typed.
    if (input.reason === "count") refuse(lang, 422, INVENTORY_MESSAGES.moved, "counted");
    const text = say(lang, INVENTORY_MESSAGES.belowZero, { stock: now ?? 0 });
    throw new BackendError(422, say(lang, INVALID_INPUT), { delta: [text] });
  }
}

/** A line as just written by staff (POST /admin/inventory/adjustments): its stock after as stored. */
async function findAdjustment(db: D1Database, id: number): Promise<InventoryAdjustment> {
  const row = await db
    .prepare(
      `SELECT a.id, 'adjustment' AS source, a.product_id, p.sku, p.name_en, p.name_ar, a.delta, a.reason, a.note,
         a.stock_after, u.name AS staff_name, u.email AS staff_email, NULL AS order_number, a.created_at
       FROM inventory_adjustments a JOIN products p ON p.id = a.product_id LEFT JOIN users u ON u.id = a.staff_user_id
       WHERE a.id = ?`,
    )
    .bind(id)
    .first<InventoryAdjustment>();
  if (!row) throw notFound();
  return row;
}

/**
 * The whole ledger, one line per change of stock: staff's adjustments and restocks
 * (inventory_adjustments) and the orders' sales and releases (stock_moves, without the guard rows a
 * retried reservation writes, whose quantity is 0). `seq` orders the lines as they happened; each
 * line's balance is the product's stock now less the lines after it, so the balances add up line
 * by line and the newest is the stock now. Filters apply outside, after the balances are made.
 */
const LEDGER_LINES = `(
  SELECT l.*, p.stock - COALESCE(SUM(l.delta) OVER (
      PARTITION BY l.product_id ORDER BY l.seq DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS stock_after
  FROM (
    SELECT m.*, ROW_NUMBER() OVER (ORDER BY m.created_at, m.source, m.id) AS seq FROM (
      SELECT a.id, 'adjustment' AS source, a.product_id, a.delta, a.reason, a.note, a.staff_user_id,
        NULL AS order_id, a.created_at
      FROM inventory_adjustments a
      UNION ALL
      SELECT s.id, 'order', s.product_id, s.quantity, CASE WHEN s.quantity < 0 THEN 'sale' ELSE 'released' END,
        NULL, NULL, s.order_id, s.created_at
      FROM stock_moves s WHERE s.quantity <> 0
    ) m
  ) l JOIN products p ON p.id = l.product_id
)`;
const ADJUSTMENT_SELECT = `a.id, a.source, a.product_id, p.sku, p.name_en, p.name_ar, a.delta, a.reason, a.note,
  a.stock_after, u.name AS staff_name, u.email AS staff_email, o.number AS order_number, a.created_at`;
const ADJUSTMENT_FROM = `FROM ${LEDGER_LINES} a JOIN products p ON p.id = a.product_id
  LEFT JOIN users u ON u.id = a.staff_user_id LEFT JOIN orders o ON o.id = a.order_id`;
const ADJUSTMENT_SORTS = { created_at: "a.seq", delta: "a.delta", reason: "a.reason" };

export async function listAdjustments(db: D1Database, query: ListQuery & { product_id?: number; reason?: string }) {
  const where: string[] = [];
  const binds: unknown[] = [];
  if (query.product_id) {
    where.push("a.product_id = ?");
    binds.push(query.product_id);
  }
  if (query.reason) {
    where.push("a.reason = ?");
    binds.push(query.reason);
  }
  return pageOf<InventoryAdjustment>(
    db,
    ADJUSTMENT_SELECT,
    `${ADJUSTMENT_FROM}${where.length ? ` WHERE ${where.join(" AND ")}` : ""}`,
    binds,
    query,
    ADJUSTMENT_SORTS,
  );
}

const STOCK_SELECT = "p.id, p.sku, p.name_en, p.name_ar, p.stock, p.low_stock_threshold";
const LOW_STOCK_SORTS = { stock: "p.stock", name_en: "p.name_en COLLATE NOCASE", sku: "p.sku" };

/** Products at or under their low-stock threshold (hidden ones left out), fewest first by default. */
export async function lowStock(db: D1Database, query: ListQuery) {
  return pageOf<StockProduct>(
    db,
    STOCK_SELECT,
    "FROM products p WHERE p.active = 1 AND p.stock <= p.low_stock_threshold",
    [],
    query,
    LOW_STOCK_SORTS,
  );
}

/** The adjustment form's product picker: by exact SKU first, then names and SKUs containing the text. */
export async function findStockProducts(db: D1Database, search: string): Promise<StockProduct[]> {
  const { results } = await db
    .prepare(
      `SELECT ${STOCK_SELECT} FROM products p
       WHERE instr(lower(p.sku), lower(?1)) > 0 OR instr(lower(p.name_en), lower(?1)) > 0 OR instr(p.name_ar, ?1) > 0
       ORDER BY (p.sku = ?1 COLLATE NOCASE) DESC, p.name_en COLLATE NOCASE LIMIT 10`,
    )
    .bind(search)
    .all<StockProduct>();
  return results;
}
