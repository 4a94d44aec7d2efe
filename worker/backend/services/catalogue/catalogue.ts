import type { Lang } from "../../env";
import { ftsQuery, synonymGroups, type SynonymGroups } from "./analysis";
import {
  CELL_COLUMNS,
  filtersKey,
  sumCells,
  type Cell,
  type CellFilter,
  type Facet,
  type FacetRow,
  type SumRow,
  type Sums,
  sumsOfRows,
  sumsSql,
} from "./facet-cells";
import { IsolateMemory } from "../../../../contract/server/isolate-memory";
import { CATALOGUE_VERSION_SQL, catalogueVersion } from "../../cache";
import { correctSpelling } from "./spelling";
import {
  keepLater,
  keepSuggestionLater,
  knownKept,
  mayBeKept,
  noteKeptSearches,
  remember,
  shopKeepsSearches,
} from "./search-kept";
import {
  BM25,
  bandOf,
  KEPT_ID,
  PRICE_BANDS,
  RANKED_MATCHES,
  SEARCH_VERSION,
  SEARCH_STATE,
  SUGGEST_KEPT,
  SUGGEST_KEPT_CHECK,
  SUGGEST_RANKED,
  UNLESS_KEPT,
  WINDOW_JSON,
  type Search,
} from "./search-ranking";
import type {
  ProductFacets,
  Ref,
  ProductSummary,
  ProductDetails,
  CategoryNode,
  Suggestion,
  ListMeta,
} from "../../../../contract/catalogue";
export type { Ref, ProductSummary, ProductDetails, CategoryNode, Suggestion, ListMeta };
export { PRICE_BANDS };

/**
 * The catalogue: categories, brands, products and search, as plain functions over D1 that return
 * the contract's shapes (BRIEF "Catalogue"), localized to one language.
 */

export const SORTS = ["relevance", "newest", "price_asc", "price_desc", "name"] as const;
export type Sort = (typeof SORTS)[number];

export interface ProductFilters {
  q?: string;
  category?: string;
  brand?: string;
  min_price?: number;
  max_price?: number;
  in_stock?: boolean;
  /** Count the facets too (the product list page asks; the home page's rows do not). */
  facets?: boolean;
  sort: Sort;
  page: number;
  per_page: number;
}

export const MAX_SUGGESTIONS = 8;
export const MAX_RELATED = 8;
/** How many of a category's products, in index order, the related products are chosen from. */
const RELATED_WINDOW = 40;

/** The synonym table changes rarely (an operator's edit): an isolate reads it at most this often. */
const SYNONYMS_TTL_MS = 60_000;
let synonymsCache: { at: number; groups: SynonymGroups } | undefined;
/** The synonym rows last read, as one string: a change drops the corrections made with the old ones. */
let synonymsRead: string | undefined;

/** The search synonyms (migration 0009), analysed like the index; kept per isolate for a minute. */
export async function searchSynonyms(db: D1Database): Promise<SynonymGroups> {
  if (synonymsCache && Date.now() - synonymsCache.at < SYNONYMS_TTL_MS) return synonymsCache.groups;
  const { results } = await db
    .prepare("SELECT group_name, term FROM search_synonyms")
    .all<{ group_name: string; term: string }>();
  const read = JSON.stringify(results.map((r) => [r.group_name, r.term]));
  // A word the synonyms now find as typed must not be corrected from memory (see `corrections`).
  if (read !== synonymsRead) corrections.clear();
  synonymsRead = read;
  synonymsCache = { at: Date.now(), groups: synonymGroups(results) };
  return synonymsCache.groups;
}

/** Forgets the kept synonyms and taxonomy, so the next search reads the tables (after an edit; tests). */
export function forgetSearchSynonyms(): void {
  synonymsCache = undefined;
  taxonomyCache = undefined;
}

/** Localized column names come only from this switch, never from input. */
const col = (base: "name" | "description" | "specs" | "seo_title" | "seo_description", lang: Lang) =>
  `${base}_${lang === "ar" ? "ar" : "en"}`;

interface SummaryRow {
  id: number;
  slug: string;
  sku: string;
  model: string | null;
  name: string;
  category_id: number;
  category_slug: string;
  category_name: string;
  brand_id: number | null;
  brand_slug: string | null;
  brand_name: string | null;
  price: number;
  compare_at_price: number | null;
  currency: string;
  stock: number;
  max_per_order: number;
  images: string;
  is_featured: number;
  is_new: number;
}

const summaryColumns = (lang: Lang) => `
  p.id, p.slug, p.sku, p.model, p.${col("name", lang)} AS name,
  c.id AS category_id, c.slug AS category_slug, c.${col("name", lang)} AS category_name,
  b.id AS brand_id, b.slug AS brand_slug, b.${col("name", lang)} AS brand_name,
  p.price, p.compare_at_price, p.currency, p.stock, p.max_per_order, p.images, p.is_featured, p.is_new`;

const summaryFrom = "products p JOIN categories c ON c.id = p.category_id LEFT JOIN brands b ON b.id = p.brand_id";

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function toSummary(row: SummaryRow): ProductSummary {
  const images = parseJson<string[]>(row.images, []).filter((i) => typeof i === "string");
  return {
    id: row.id,
    slug: row.slug,
    sku: row.sku,
    model: row.model ?? "",
    name: row.name,
    brand:
      row.brand_id !== null && row.brand_slug !== null
        ? { id: row.brand_id, slug: row.brand_slug, name: row.brand_name ?? "" }
        : null,
    category: { id: row.category_id, slug: row.category_slug, name: row.category_name },
    price: row.price,
    compare_at_price: row.compare_at_price,
    currency: row.currency,
    stock: row.stock,
    in_stock: row.stock > 0,
    max_per_order: row.max_per_order,
    image: images[0] ?? `/backend/media/products/${row.slug}.svg`,
    images,
    is_featured: row.is_featured === 1,
    is_new: row.is_new === 1,
  };
}

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

const ORDER_BY: Record<Sort, (searching: boolean, lang: Lang) => string> = {
  relevance: (searching) =>
    // Searching: name, brand and category matches before description-only ones; within each,
    // what can be bought first, then the best match (the name weighs most, BM25 above).
    searching
      ? "s.named DESC, (p.stock > 0) DESC, s.score ASC, p.is_featured DESC, p.id ASC"
      : "p.is_featured DESC, p.is_new DESC, p.id ASC",
  newest: () => "p.created_at DESC, p.id DESC",
  price_asc: () => "p.price ASC, p.id ASC",
  // Ties newest first, so the price index serves it read backwards.
  price_desc: () => "p.price DESC, p.id DESC",
  name: (_searching, lang) => `p.${col("name", lang)} COLLATE NOCASE ASC, p.id ASC`,
};

/** The product list: search, filters, sort and pagination; a page past the last one is empty. */
export async function listProducts(
  db: D1Database,
  lang: Lang,
  filters: ProductFilters,
  /** Work after the answer (the request's waitUntil): keeping a search that matched many products. */
  defer?: (task: Promise<unknown>) => void,
  /** The searching shopper's network as stored, asked only when a keep is weighed (search-kept.ts `keepLater`). */
  voter?: () => Promise<string | null>,
): Promise<Listed> {
  const synonyms = filters.q ? await searchSynonyms(db) : [];
  // A search this isolate already corrected, under the same `search` version: its correction at
  // once, one round trip instead of two (the next page of it, the next shopper who misspells it).
  const known = filters.q ? corrections.get(correctionKey(filters)) : undefined;
  if (known) {
    const again = await searchPage(db, lang, filters, searchOf(known.corrected, synonyms), defer, voter);
    if (again.searchVersion === known.version && again.listed.meta.total > 0)
      return { ...again.listed, meta: { ...again.listed.meta, searched_for: known.corrected } };
    corrections.delete(correctionKey(filters));
  }
  const found = await searchPage(db, lang, filters, filters.q ? searchOf(filters.q, synonyms) : null, defer, voter);
  if (found.listed.meta.total > 0 || !filters.q) return found.listed;
  // Nothing as typed: a misspelt word may be near a real one (services/catalogue/spelling.ts).
  const corrected = await correctSpelling(db, filters.q, found.searchVersion);
  const match = corrected ? searchOf(corrected, synonyms) : null;
  if (!corrected || !match) return found.listed;
  const { listed, searchVersion } = await searchPage(db, lang, filters, match, defer, voter);
  if (listed.meta.total === 0) return found.listed;
  if (searchVersion !== undefined && searchVersion === found.searchVersion)
    corrections.set(correctionKey(filters), { corrected, version: searchVersion }, CORRECTION_TTL_MS);
  return { ...listed, meta: { ...listed.meta, searched_for: corrected } };
}

/**
 * Searches that found nothing as typed and were corrected, by what decides that (the words and
 * the filters; not the sort or the page): the correction and the `search` version both searches
 * were read in. Whether a search finds anything changes only with what the index holds, which
 * moves that version, or with the synonyms, whose change (read again each minute) drops them all;
 * so a correction is used only while the version it was made in is the one its search reads
 * (checked in that search's own batch; otherwise the search goes as typed). Bounded in entries and
 * time, like the isolate's other memories.
 */
const corrections = new IsolateMemory<{ corrected: string; version: number }>(500);
/**
 * Long, because nothing but those two can make one wrong: a shop's everyday misspellings stay
 * one round trip for as long as its search index is unchanged (the bench's second and third runs
 * of the same words come minutes after the first), not only for the minute after each.
 */
const CORRECTION_TTL_MS = 30 * 60_000;
const correctionKey = (f: ProductFilters) =>
  JSON.stringify([f.q, f.category ?? "", f.brand ?? "", f.min_price ?? "", f.max_price ?? "", !!f.in_stock]);

/** Forgets the corrections this isolate made (tests). */
export function forgetCorrections(): void {
  corrections.clear();
}

type Listed = { data: ProductSummary[]; meta: ListMeta };

/**
 * A search in relevance order reads its kept copy when it has one of the current version
 * (services/catalogue/search-kept.ts), and otherwise its matches ranked afresh, in the same round trip;
 * after the answer it keeps them if they are many or its copy went stale. Other sorts, and
 * lists, read the products.
 */
async function searchPage(
  db: D1Database,
  lang: Lang,
  filters: ProductFilters,
  match: Search | null,
  defer: ((task: Promise<unknown>) => void) | undefined,
  voter?: () => Promise<string | null>,
): Promise<Answer> {
  const keepable = match !== null && filters.sort === "relevance" && mayBeKept(match);
  const reads: Reads = !keepable || !shopKeepsSearches() ? "fresh" : match && knownKept(match) ? "kept" : "either";
  let answer = await productPage(db, lang, filters, match, reads);
  // The copy this isolate saw is gone or stale (the index changed since): ranked afresh after all.
  if (reads === "kept" && answer.kept !== "current") answer = await productPage(db, lang, filters, match, "fresh");
  if (!match || !keepable) return answer;
  remember(match, answer.kept === "current");
  // Only now: the database answers one statement at a time, and the keep must not go before the page.
  if (answer.kept !== "current")
    keepLater(db, match, answer.kept === "stale", defer, { matches: answer.matches, voter });
  return answer;
}

function searchOf(q: string, synonyms: SynonymGroups): Search | null {
  const names = ftsQuery(q, synonyms);
  const details = ftsQuery(q);
  return names && details ? { names, details } : null;
}

/**
 * The category tree and the brands by slug, as the filters need them: small, kept per isolate for
 * a minute, and dropped as soon as the catalogue version moves (a console edit). The
 * version is the one the edge cache reads for every catalogue answer (`catalogueVersion`, at most
 * once a second per isolate, and by then read for this very request), so an edit reaches every
 * isolate's filters within a second, and checking costs no round trip of its own: with its own
 * read once a second, one or two of a cold row's forty pages waited for it (the bench's p95).
 */
interface Taxonomy {
  parent: Map<number, number | null>;
  slug: Map<number, string>;
  categoryId: Map<string, number>;
  brandId: Map<string, number>;
  brandSlug: Map<number, string>;
}
let taxonomyCache: { at: number; version: number; value: Taxonomy } | undefined;

async function taxonomy(db: D1Database): Promise<Taxonomy> {
  const now = Date.now();
  if (
    taxonomyCache &&
    now - taxonomyCache.at < SYNONYMS_TTL_MS &&
    Number(await catalogueVersion(db)) === taxonomyCache.version
  )
    return taxonomyCache.value;
  const [versionRow, categories, brands] = await db.batch([
    db.prepare(CATALOGUE_VERSION_SQL),
    db.prepare("SELECT id, parent_id, slug FROM categories"),
    db.prepare("SELECT id, slug FROM brands"),
  ]);
  const value: Taxonomy = {
    parent: new Map(),
    slug: new Map(),
    categoryId: new Map(),
    brandId: new Map(),
    brandSlug: new Map(),
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
  const version = (versionRow.results[0] as { value: number } | undefined)?.value ?? 0;
  taxonomyCache = { at: now, version, value };
  return value;
}

/** A category and everything under it, as ids (none for an unknown slug). */
function subtree(tax: Taxonomy, slug: string): number[] {
  const root = tax.categoryId.get(slug);
  if (root === undefined) return [];
  const ids = [root];
  for (let k = 0; k < ids.length; k++) for (const [id, parent] of tax.parent) if (parent === ids[k]) ids.push(id);
  return ids;
}

/** One filter of the list: its facet, its test on `products` (columns under a prefix), and on the kept counts. */
interface Filter {
  facet: Facet;
  /** The condition on a product's columns, each written as `${prefix}column`. */
  on: (prefix: string) => string;
  binds: unknown[];
  /**
   * The same condition on a cell of the kept counts (facet-cells.ts: `product_facet_counts`, a
   * kept search's cells, a search's matches grouped alike), when the cells can answer it.
   */
  counted: Pick<CellFilter, "holds" | "where"> | null;
  /** What `counted` holds, as text (CellFilter's key). */
  key: string;
}

/**
 * The kept counts' cells (`product_facet_counts`, a few thousand rows whatever the catalogue's
 * size), held by the isolate with their version (`versions` row `facets`, which every write to a
 * cell moves: migration 0023). A list without a search reads the version with its page, in the
 * same batch, and sums its total and facets from the held cells (facet-cells.ts) instead of four
 * GROUP BYs over them; knowing the counts, it reads no subcategory that holds none of the
 * filtered products, and no page past the last. If the version moved, the cells are read again
 * with the page. So the counts are exact as of the page's read, as before, whoever wrote the
 * cells (a sale, the console, a raw write).
 */
let cellsCache: HeldCells | undefined;

/**
 * Cells held with the sums already made from them, by filters (filtersKey): a list's total and
 * facets depend on its filters alone, not on its sort or page, so the shopper who sorts or pages
 * through a list, and every other visitor of it, reuses one sum while the cells stand. Bounded:
 * the memo starts again past MAX_SUMS sets of filters. The sums are shared: read, never changed.
 */
interface HeldCells {
  version: number;
  cells: Cell[];
  sums: Map<string, Sums>;
}
const MAX_SUMS = 512;

function sumsOf(held: HeldCells, filters: readonly CellFilter[]): Sums {
  const key = filtersKey(filters);
  let sums = held.sums.get(key);
  if (!sums) {
    if (held.sums.size >= MAX_SUMS) held.sums.clear();
    held.sums.set(key, (sums = sumCells(held.cells, filters)));
  }
  return sums;
}
const CELLS_VERSION = "SELECT value FROM versions WHERE name = 'facets'";
const CELLS = `SELECT ${CELL_COLUMNS} FROM product_facet_counts WHERE n > 0`;

/**
 * The bands a price filter covers exactly (the facet's own links: from a band's minimum to just
 * below a band's maximum), or null for any other bounds, which only a count of products answers.
 */
function bandRange(filters: ProductFilters): [number, number] | null {
  const from = filters.min_price === undefined ? 0 : PRICE_BANDS.findIndex((b) => b.min === filters.min_price);
  const to =
    filters.max_price === undefined
      ? PRICE_BANDS.length - 1
      : PRICE_BANDS.findIndex((b) => b.max !== null && b.max - 1 === filters.max_price);
  return from >= 0 && to >= from ? [from, to] : null;
}

/** The filters as the cells answer them, or null when one is not a cells' filter (a price no band's). */
const cellFiltersOf = (filters: readonly Filter[]): CellFilter[] | null =>
  filters.every((f) => f.counted !== null) ? filters.map((f) => ({ facet: f.facet, ...f.counted!, key: f.key })) : null;

/**
 * Price bounds that are no band's, as the cells still answer them: the bands wholly inside the
 * bounds, the prices (whole halalas, both ends in) of each band they cut, one or two, and every
 * band they touch.
 */
function priceCut(filters: ProductFilters): { inner: number[]; edges: [number, number][]; touched: number[] } {
  const [min, max] = [filters.min_price ?? 0, filters.max_price ?? Number.MAX_SAFE_INTEGER];
  const inner: number[] = [];
  const edges: [number, number][] = [];
  const touched: number[] = [];
  PRICE_BANDS.forEach((band, i) => {
    const top = band.max === null ? Number.MAX_SAFE_INTEGER : band.max - 1;
    const [from, to] = [Math.max(min, band.min), Math.min(max, top)];
    if (from > to) return;
    touched.push(i);
    if (from === band.min && to === top) inner.push(i);
    else edges.push([from, to]);
  });
  return { inner, edges, touched };
}

/** The cells of some price bands, as a filter of the cells. */
const bandsFilter = (bands: number[]): CellFilter => ({
  facet: "price",
  holds: (cell) => bands.includes(cell.band),
  where: bands.length ? `band IN (${bands.join(", ")})` : "0",
  key: `bands ${bands.join(",")}`,
});

/**
 * What a search's batch reads (services/catalogue/search-kept.ts): its matches ranked afresh only
 * ("fresh"), its kept copy and, unless that is current, its matches ranked afresh ("either", one
 * round trip whatever the copy's state), or its kept copy only ("kept": this isolate saw it
 * current; two statements fewer, and a second round trip in the rare case it no longer is).
 */
type Reads = "fresh" | "either" | "kept";

/**
 * A page's answer; for a search, `kept` is the state of its kept copy as the page was read
 * ("current", "stale": of an older version, "none"). When the copy was read a current one answered;
 * otherwise the page as read did (a list, or a search ranked afresh). `matches`: how many shown
 * products a search matched, when its page counted them all (no filter); `searchVersion`: the
 * `search` version a search was read in.
 */
interface Answer {
  listed: Listed;
  kept: "current" | "stale" | "none";
  matches?: number;
  /** A search's: the `search` version as its page was read (services/catalogue/spelling.ts holds terms under it). */
  searchVersion?: number;
}

/**
 * One page of the list for a search (or none): the filters, the sort, the total and, when asked,
 * the facets. Built for a large catalogue (docs/PERFORMANCE.md, "Search at scale" and "Bench at
 * scale"): the filters name ids, so every count runs on `products` alone, through its indexes.
 * Without a search, the page is read in index order (no count of the rest), and its total and
 * facets are summed from the kept counts' cells this isolate holds (`cellsCache`, migrations 0018
 * and 0023) when the filters are ones they hold; with a search, the page carries its own total (a
 * window count) and the facets group the matches into the same cells once (a kept search reads
 * its kept cells), summed the same way (facet-cells.ts). With `keptFirst` (a search in relevance
 * order), the kept copy's reads and the fresh ones share one batch, the fresh ones ending in
 * UNLESS_KEPT so that they read nothing when the copy is current.
 */
async function productPage(
  db: D1Database,
  lang: Lang,
  filters: ProductFilters,
  match: Search | null,
  reads: Reads,
  /** The kept counts' cells this isolate held were found changed: read them again. */
  cellsChanged = false,
): Promise<Answer> {
  const tax = await taxonomy(db);
  // Each filter knows its facet, so a facet's counts can leave its own filter out. Ids come from
  // the database, never from input, so they are written into the SQL as numbers.
  const bands = bandRange(filters);
  const list: Filter[] = [];
  if (filters.category) {
    const ids = subtree(tax, filters.category);
    const leaves = new Set(ids);
    const sql = (column: string) => (ids.length ? `${column} IN (${ids.join(", ")})` : "0");
    list.push({
      facet: "category",
      on: (a) => sql(`${a}category_id`),
      binds: [],
      counted: { holds: (cell) => leaves.has(cell.category_id), where: sql("category_id") },
      key: ids.join(","),
    });
  }
  if (filters.brand) {
    const id = tax.brandId.get(filters.brand);
    const sql = (column: string) => (id === undefined ? "0" : `${column} = ${id}`);
    list.push({
      facet: "brand",
      on: (a) => sql(`${a}brand_id`),
      binds: [],
      counted: { holds: (cell) => cell.brand_id === id, where: sql("brand_id") },
      key: String(id ?? "none"),
    });
  }
  const priceCounted = bands
    ? {
        holds: (cell: Cell) => cell.band >= bands[0] && cell.band <= bands[1],
        where: `band BETWEEN ${bands[0]} AND ${bands[1]}`,
      }
    : null;
  const priceKey = bands ? bands.join("-") : "";
  if (filters.min_price !== undefined)
    list.push({
      facet: "price",
      on: (a) => `${a}price >= ?`,
      binds: [filters.min_price],
      counted: priceCounted,
      key: priceKey,
    });
  if (filters.max_price !== undefined)
    list.push({
      facet: "price",
      on: (a) => `${a}price <= ?`,
      binds: [filters.max_price],
      counted: priceCounted,
      key: priceKey,
    });
  if (filters.in_stock)
    list.push({
      facet: "stock",
      on: (a) => `${a}stock > 0`,
      binds: [],
      counted: { holds: (cell) => cell.in_stock === 1, where: "in_stock = 1" },
      key: "in stock",
    });
  const whereOf = (prefix: string, without?: Facet, extra?: string) => {
    const parts = list.filter((f) => f.facet !== without);
    // Hidden products (the console's deactivate) are in no list, count or facet.
    const sql = [`${prefix}active = 1`, ...parts.map((f) => f.on(prefix)), ...(extra ? [extra] : [])];
    return { sql: `WHERE ${sql.join(" AND ")}`, conditions: sql.join(" AND "), binds: parts.flatMap((f) => f.binds) };
  };
  const { sql: whereSql, conditions, binds } = whereOf("p.");
  const offset = (filters.page - 1) * filters.per_page;
  const order = ORDER_BY[filters.sort](match !== null, lang);
  const joined = `JOIN products p ON p.id = chosen.id JOIN categories c ON c.id = p.category_id LEFT JOIN brands b ON b.id = p.brand_id`;
  // The cells (facet-cells.ts) answer the total and the facets when every filter is one they hold.
  const cellFilters = cellFiltersOf(list);
  // Price bounds that are no band's, the one filter the cells cannot answer whole: what they cut.
  const cut = cellFilters ? null : priceCut(filters);
  // The cells' filters that tell which subcategories hold none of the list: its own, or with
  // such bounds the others and every band the bounds touch (none there, none in the bounds).
  const armFilters =
    cellFilters ?? (cut && [...cellFiltersOf(list.filter((f) => f.facet !== "price"))!, bandsFilter(cut.touched)]);
  // Without a search: the kept counts' cells this isolate holds (none yet: read with the page).
  const held = !match && armFilters && !cellsChanged ? cellsCache : undefined;
  const armSums = held ? sumsOf(held, armFilters!) : null;
  const summed = cellFilters ? armSums : null;
  const statements: D1PreparedStatement[] = [];
  const add = (statement: D1PreparedStatement) => statements.push(statement) - 1;
  // Where each read of one way of answering stands in the batch (-1: not read): the kept copy's,
  // and the page's as read (a list, or a search ranked afresh).
  const fromKept = { page: -1, total: -1, cells: -1, sums: -1, facets: -1 };
  const asRead = { page: -1, total: -1, cells: -1, sums: -1, facets: -1 };
  let [stateAt, cellsVersionAt] = [-1, -1];
  // Every statement about a search binds its names and details first: the full-text matches, or
  // the kept copy's id (KEPT_ID, SQL of parameters ?1 and ?2, services/catalogue/search-kept.ts).
  const matchBinds = match ? [match.names, match.details] : [];
  const keptMatches = `product_ranks p JOIN search_kept_rows r ON r.product_id = p.id AND r.kept_id = ${KEPT_ID}`;
  const freshMatches = match
    ? `product_ranks p JOIN (SELECT rowid AS id FROM product_search WHERE product_search MATCH ?
         UNION SELECT rowid FROM product_details_search WHERE product_details_search MATCH ?) s ON s.id = p.id`
    : "products p";
  // Ranking afresh in the batch that reads the kept copy: nothing is read when the copy is current.
  const keptFirst = match !== null && reads !== "fresh";
  const freshToo = reads !== "kept";
  const unlessKept = match && keptFirst ? { sql: UNLESS_KEPT, binds: matchBinds } : { sql: "", binds: [] };
  // A search reads the `search` version and its kept copy's with its page: whether the copy
  // answered, whether to keep it after, whether the shop keeps any; and a misspelt word is
  // corrected from terms held under that version (services/catalogue/spelling.ts), with no round trip to
  // check them.
  if (match) stateAt = add(db.prepare(SEARCH_STATE).bind(...matchBinds));
  if (match && keptFirst) {
    const keptRows = `search_kept_rows r CROSS JOIN product_ranks p ON p.id = r.product_id`;
    // The brand filter reads the kept row's own brand, so the kept brand index serves the page.
    const keptWhere = `r.kept_id = ${KEPT_ID} AND ${["p.active = 1", ...list.map((f) => f.on(f.facet === "brand" ? "r." : "p."))].join(" AND ")}`;
    const keptOrder = (a: string, id: string) =>
      `${a}named DESC, ${a}available DESC, ${a}score ASC, ${a}featured DESC, ${a}${id} ASC`;
    fromKept.page = add(
      db
        .prepare(
          `SELECT ${summaryColumns(lang)} FROM (
             SELECT r.product_id AS id, r.named, r.available, r.score, r.featured FROM ${keptRows}
             WHERE ${keptWhere} ORDER BY ${keptOrder("r.", "product_id")} LIMIT ? OFFSET ?
           ) chosen ${joined} ORDER BY ${keptOrder("chosen.", "id")}`,
        )
        .bind(...matchBinds, ...binds, filters.per_page, offset),
    );
    // The copy's cells answer its total (and facets), summed in D1; other price bounds count its rows.
    if (cellFilters)
      fromKept.sums = add(
        db
          .prepare(sumsSql(`SELECT ${CELL_COLUMNS} FROM search_kept_cells WHERE kept_id = ${KEPT_ID}`, cellFilters))
          .bind(...matchBinds),
      );
    else
      fromKept.total = add(
        db.prepare(`SELECT COUNT(*) AS n FROM ${keptRows} WHERE ${keptWhere}`).bind(...matchBinds, ...binds),
      );
  }
  if (match) {
    // A product found by its name, brand or category is `named`; one found only in its
    // description is not, and comes after every named one (ORDER_BY). The matches, with just
    // the columns the sort reads, are gathered once (`s`): the page is cut from them and they
    // are counted for its total, so no window function sorts every match twice (docs/
    // PERFORMANCE.md, "Search at scale"). Only the page's dozen rows are then joined in full.
    const relevance = filters.sort === "relevance";
    // Each arm reads a matching product's narrow row (`product_ranks`, migration 0019: shown,
    // category, brand, price, stock, featured) for the filters before ranking it, so BM25 (most
    // of a search's time) runs only on products the filters keep: a brand keeps one in several.
    // Without filters the arms are ranked first and the rows read once, after merging. Other
    // sorts read their column (date, price, name) from `products`.
    const filtered = list.length > 0;
    const arm = (table: string, score: string, named: 0 | 1) =>
      `SELECT p.id, ${named} AS named, ${score} AS score FROM ${table} f CROSS JOIN product_ranks p ON p.id = f.rowid
       WHERE ${table} MATCH ? AND ${conditions}`;
    const armBinds = filtered ? [match.names, ...binds, match.details, ...binds] : [match.names, match.details];
    // Other sorts do not rank, so they need neither BM25 nor which index found the product.
    const found = relevance
      ? filtered
        ? `SELECT id, MIN(score) AS score, MAX(named) AS named FROM (
             ${arm("product_search", BM25, 1)} UNION ALL ${arm("product_details_search", "bm25(product_details_search)", 0)}
           ) GROUP BY id`
        : RANKED_MATCHES
      : `SELECT rowid AS id FROM product_search WHERE product_search MATCH ?
         UNION SELECT rowid FROM product_details_search WHERE product_details_search MATCH ?`;
    const sortColumns = relevance
      ? "s.named, p.stock > 0 AS available, s.score, p.is_featured"
      : `p.created_at, p.price, p.${col("name", lang)}`;
    const pageOrder = relevance ? "p.named DESC, p.available DESC, p.score ASC, p.is_featured DESC, p.id ASC" : order;
    // A page past the last one is cut at the last match instead, so that a row carries the total
    // (dropped below): no second round trip to count.
    if (freshToo)
      asRead.page = add(
        db
          .prepare(
            `WITH s AS MATERIALIZED (
             SELECT p.id, ${sortColumns} FROM (${found}) s CROSS JOIN ${relevance ? "product_ranks" : "products"} p ON p.id = s.id
             ${relevance && filtered ? "" : whereSql} ${unlessKept.sql}
           ), chosen AS (
             SELECT p.*, (SELECT COUNT(*) FROM s) AS total_count FROM s p ORDER BY ${pageOrder}
             LIMIT ? OFFSET MIN(?, MAX((SELECT COUNT(*) FROM s) - 1, 0))
           )
           SELECT ${summaryColumns(lang)}, chosen.total_count
           FROM chosen ${joined} ORDER BY ${pageOrder.replaceAll("p.", "chosen.")}`,
          )
          .bind(
            ...(relevance ? armBinds : matchBinds),
            ...(relevance && filtered ? [] : binds),
            ...unlessKept.binds,
            filters.per_page,
            offset,
          ),
      );
    // The facets: the matches grouped into the cells of the kept counts once, and summed there
    // as the kept counts' would be (docs/PERFORMANCE.md, "Search at scale").
    if (filters.facets && cellFilters && freshToo)
      asRead.sums = add(
        db
          .prepare(
            sumsSql(
              `SELECT p.category_id, IFNULL(p.brand_id, 0) AS brand_id, ${bandOf("p.price")} AS band,
                 p.stock > 0 AS in_stock, COUNT(*) AS n
               FROM ${freshMatches} WHERE p.active = 1 GROUP BY 1, 2, 3, 4 ${unlessKept.sql}`,
              cellFilters,
            ),
          )
          .bind(...matchBinds, ...unlessKept.binds),
      );
  } else {
    // In the sort's index order, cut at the page: no count of the rest, no sort of every match.
    // A category with subcategories: each one read in order up to the page's end, then merged.
    // With the cells at hand, a subcategory holding none of the filtered products is not read,
    // nor is a page past the last.
    const byLeaf = armSums && new Map(armSums.rows.filter((r) => r.facet === "category").map((r) => [r.id, r.n]));
    const leaves = (filters.category ? subtree(tax, filters.category) : []).filter(
      (id) => !byLeaf || (byLeaf.get(id) ?? 0) > 0,
    );
    const end = offset + filters.per_page;
    const arms = leaves.map((id) => whereOf("p.", "category", `p.category_id = ${id}`));
    // Only the sort's own columns, which its index holds, so an arm without other filters reads no row.
    const sortColumns = [...new Set(["p.id", ...(order.match(/p\.\w+/g) ?? [])])].join(", ");
    const ids =
      arms.length > 1
        ? {
            sql: `SELECT p.id FROM (${arms
              .map(
                (arm) => `SELECT * FROM (SELECT ${sortColumns} FROM products p ${arm.sql} ORDER BY ${order} LIMIT ?)`,
              )
              .join(" UNION ALL ")}) p ORDER BY ${order} LIMIT ? OFFSET ?`,
            binds: arms.flatMap((arm) => [...arm.binds, end]),
          }
        : {
            sql: `SELECT p.id FROM products p ${(arms[0] ?? { sql: whereSql }).sql} ORDER BY ${order} LIMIT ? OFFSET ?`,
            binds,
          };
    if (!summed || offset < summed.total)
      asRead.page = add(
        db
          .prepare(`SELECT ${summaryColumns(lang)} FROM (${ids.sql}) chosen ${joined} ORDER BY ${order}`)
          .bind(...ids.binds, filters.per_page, offset),
      );
    // The cells' version with the page, in the same batch: held cells are used only if current.
    cellsVersionAt = add(db.prepare(CELLS_VERSION));
    if (!held) asRead.cells = add(db.prepare(CELLS));
    if (cut && filters.facets) {
      // Price bounds that are no band's: the kept counts' cells of the bands wholly inside them,
      // and the products of the one or two bands they cut grouped into cells alike (through the
      // price index that holds a cell's columns, migration 0025), summed in D1 with the other
      // filters; the price facet, which leaves its own filter out, from every band's (below).
      const others = cellFiltersOf(list.filter((f) => f.facet !== "price"))!;
      const inner = cut.inner.length ? `${CELLS} AND band IN (${cut.inner.join(", ")})` : `${CELLS} AND 0`;
      // One range of the index per band cut (an OR of the two would look every product up in
      // the table instead: 79 ms against 11 for SAR 600 to 2,000 at 100,000 products).
      const edges = cut.edges
        .map(
          () => `SELECT category_id, IFNULL(brand_id, 0) AS brand_id, ${bandOf("price")} AS band, stock > 0 AS in_stock
                 FROM products WHERE active = 1 AND price >= ? AND price <= ?`,
        )
        .join(" UNION ALL ");
      // A product counts towards the total or a facet only if it fails at most one other filter
      // (the facet's own): with two or more, the rest are left out before they are grouped.
      const counted = others.length > 1 ? `WHERE ${others.map((f) => `(NOT (${f.where}))`).join(" + ")} <= 1` : "";
      asRead.sums = add(
        db
          .prepare(
            sumsSql(
              `${inner} UNION ALL
               SELECT category_id, brand_id, band, in_stock, COUNT(*) FROM (${edges || "SELECT 0, 0, 0, 0 WHERE 0"})
               ${counted} GROUP BY 1, 2, 3, 4`,
              others,
            ),
          )
          .bind(...cut.edges.flat()),
      );
    } else if (cut) asRead.total = add(db.prepare(`SELECT COUNT(*) AS n FROM products p ${whereSql}`).bind(...binds));
  }
  if (filters.facets && !cellFilters && match) {
    // A search with a price filter that is no band's: the matching products' facet columns once
    // (a search matched once), then the four counts.
    const category = whereOf("", "category");
    const brand = whereOf("", "brand", "brand_id IS NOT NULL");
    const price = whereOf("", "price");
    const stock = whereOf("", "stock", "stock > 0");
    const facets = (matches: string, guard: { sql: string; binds: unknown[] }) =>
      db
        .prepare(
          `WITH m AS MATERIALIZED (SELECT p.category_id, p.brand_id, p.price, p.stock, p.active FROM ${matches} WHERE p.active = 1 ${guard.sql})
           SELECT 'category' AS facet, category_id AS id, COUNT(*) AS n FROM m ${category.sql} GROUP BY category_id
           UNION ALL SELECT 'brand', brand_id, COUNT(*) FROM m ${brand.sql} GROUP BY brand_id
           UNION ALL SELECT 'price', ${bandOf("price")}, COUNT(*) FROM m ${price.sql} GROUP BY 2
           UNION ALL SELECT 'stock', 0, COUNT(*) FROM m ${stock.sql}`,
        )
        .bind(...matchBinds, ...guard.binds, ...category.binds, ...brand.binds, ...price.binds, ...stock.binds);
    if (match && keptFirst) fromKept.facets = add(facets(keptMatches, { sql: "", binds: [] }));
    if (freshToo) asRead.facets = add(facets(freshMatches, unlessKept));
  }
  const results = statements.length ? await db.batch(statements) : [];
  const read = <T>(at: number) => (at < 0 ? [] : (results[at].results as T[]));
  const state = read<{ version: number; kept: number | null; any_kept: number }>(stateAt)[0];
  const kept: Answer["kept"] =
    !state || state.kept === null ? "none" : state.kept === state.version ? "current" : "stale";
  if (state) noteKeptSearches(state.any_kept === 1);
  // A current copy answers when it was read; ranking afresh, when it was not (or there is none).
  const answer = kept === "current" && keptFirst ? fromKept : asRead;
  const page = read<SummaryRow & { total_count?: number }>(answer.page);
  let readCells: HeldCells | undefined;
  if (cellsVersionAt >= 0) {
    const version = Number(read<{ value: number }>(cellsVersionAt)[0]?.value ?? 0);
    // A cell changed since this isolate read them: the page may have left out a subcategory, so
    // it is read again, with the cells.
    if (held && held.version !== version) return productPage(db, lang, filters, match, reads, true);
    if (!held) cellsCache = readCells = { version, cells: read<Cell>(asRead.cells), sums: new Map() };
  }
  // Cells read with this page: the kept counts' (now held, their sum kept with them); or a
  // search's sums, of its kept cells or its matches grouped alike.
  // Price bounds that are no band's: the price facet leaves them out, so every band's cells
  // (held, or read with this page) answer it.
  const bandCells = cut && !match ? (held ?? readCells) : undefined;
  const sums =
    summed ??
    (readCells && cellFilters
      ? sumsOf(readCells, cellFilters)
      : answer.sums >= 0
        ? sumsOfRows([
            ...read<SumRow>(answer.sums).filter((r) => !bandCells || r.facet !== "price"),
            ...(bandCells
              ? sumsOf(bandCells, cellFiltersOf(list.filter((f) => f.facet !== "price"))!).rows.filter(
                  (r) => r.facet === "price",
                )
              : []),
          ])
        : null);
  const facetRows = filters.facets ? (sums?.rows ?? read<FacetRow>(answer.facets)) : [];
  // A search ranked afresh carries its total on its page's rows.
  const ranked = match !== null && answer === asRead;
  const total = ranked
    ? Number(page[0]?.total_count ?? 0)
    : sums
      ? sums.total
      : Number(read<{ n: number }>(answer.total)[0]?.n ?? 0);
  return {
    listed: {
      data: (ranked && offset >= total ? [] : page).map(toSummary),
      meta: {
        page: filters.page,
        per_page: filters.per_page,
        total,
        last_page: Math.max(1, Math.ceil(total / filters.per_page)),
        ...(filters.facets ? { facets: facetsOf(tax, facetRows) } : {}),
      },
    },
    kept,
    ...(ranked && list.length === 0 ? { matches: total } : {}),
    ...(state ? { searchVersion: Number(state.version) } : {}),
  };
}

/** The facet counts as the contract's; a category counts its descendants' products too. */
function facetsOf(tax: Taxonomy, rows: FacetRow[]): ProductFacets {
  const counts = new Map<number, number>();
  const brands: { slug: string; count: number }[] = [];
  const bands = PRICE_BANDS.map(() => 0);
  let inStock = 0;
  for (const { facet, id, n } of rows) {
    const count = Number(n);
    if (facet === "category") {
      for (let at: number | null | undefined = id; at != null; at = tax.parent.get(at)) {
        counts.set(at, (counts.get(at) ?? 0) + count);
      }
    } else if (facet === "brand") {
      const slug = tax.brandSlug.get(id);
      if (slug && count > 0) brands.push({ slug, count });
    } else if (facet === "price") bands[id] = (bands[id] ?? 0) + count;
    else inStock = count;
  }
  return {
    categories: [...counts]
      .filter(([, count]) => count > 0)
      .map(([id, count]) => ({ slug: tax.slug.get(id) ?? "", count }))
      .filter((c) => c.slug),
    brands,
    price_bands: PRICE_BANDS.map((band, i) => ({ ...band, count: bands[i] })),
    in_stock: inStock,
  };
}

interface CategoryRow {
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

function categoryStatement(db: D1Database, lang: Lang, counted = false): D1PreparedStatement {
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
  const [found, tree, same] = await db.batch([
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
  return {
    ...toSummary(row),
    description: row.description,
    specifications,
    seo_title: row.seo_title,
    seo_description: row.seo_description,
    weight_grams: row.weight_grams,
    related: results.map(toSummary),
    breadcrumbs,
  };
}

/**
 * Type-ahead: at most eight products whose names (or model, brand, category) start with what was
 * typed, chosen among the SUGGEST_WINDOW best matches by name, in stock first. A prefix that
 * matches many products reads its kept window when it has one of the current version (services/
 * search-kept.ts), and is kept after the answer when it had none: ranking every match is most of
 * a fresh answer's time.
 */
export async function suggestProducts(
  db: D1Database,
  lang: Lang,
  q: string,
  /** Work after the answer (the request's waitUntil): keeping a prefix that matched many products. */
  defer?: (task: Promise<unknown>) => void,
): Promise<Suggestion[]> {
  const match = ftsQuery(q, await searchSynonyms(db));
  if (!match) return [];
  // The eight shown, chosen among a window's rows (`s`: id, score).
  const chosen = (window: string) =>
    `SELECT p.slug, p.${col("name", lang)} AS name, p.model, p.images, p.price, p.currency
     FROM (${window}) s JOIN products p ON p.id = s.id WHERE p.active = 1
     ORDER BY (p.stock > 0) DESC, s.score ASC, p.is_featured DESC, p.id ASC LIMIT ?2`;
  type Row = { slug: string; name: string; model: string | null; images: string; price: number; currency: string };
  let rows: Row[] | undefined;
  if (mayBeKept(match)) {
    const [state, kept] = await db.batch([
      db.prepare(SUGGEST_KEPT_CHECK).bind(match),
      db.prepare(chosen(SUGGEST_KEPT)).bind(match, MAX_SUGGESTIONS),
    ]);
    if ((state.results[0] as { current: number } | undefined)?.current) rows = kept.results as Row[];
    else remember(match, false);
  }
  if (!rows) {
    // Ranked afresh, the window ranked once: the eight chosen from it, and the window itself (with
    // the version it was ranked under) in a row of its own, kept after the answer as it stands.
    const { results } = await db
      .prepare(
        `WITH w AS MATERIALIZED (${SUGGEST_RANKED})
         SELECT NULL AS slug, NULL AS name, NULL AS model, NULL AS images, NULL AS price, NULL AS currency,
           (SELECT ${WINDOW_JSON} FROM w) AS ranked, ${SEARCH_VERSION} AS version
         UNION ALL SELECT *, NULL, NULL FROM (${chosen("SELECT id, score FROM w")})`,
      )
      .bind(match, MAX_SUGGESTIONS)
      .all<Row & { ranked: string | null; version: number | null }>();
    const window = results.find((r) => r.ranked !== null);
    rows = results.filter((r) => r.ranked === null);
    keepSuggestionLater(
      db,
      match,
      window ? { version: Number(window.version), ranked: window.ranked! } : undefined,
      defer,
    );
  }
  return rows.map((r) => ({
    slug: r.slug,
    name: r.name,
    model: r.model ?? "",
    image: parseJson<string[]>(r.images, [])[0] ?? `/backend/media/products/${r.slug}.svg`,
    price: r.price,
    currency: r.currency,
  }));
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
 * The stock of these products now, by id. A product that is gone or hidden is left out: a hidden
 * product does not exist to the public (its page is a 404), so its stock is not told either, and
 * the page cache reads a missing product as a changed count and renders the page again.
 */
export async function stockOf(db: D1Database, ids: number[]): Promise<Map<number, number>> {
  const { results } = await db
    .prepare("SELECT id, stock FROM products WHERE id IN (SELECT value FROM json_each(?1)) AND active = 1")
    .bind(JSON.stringify(ids))
    .all<{ id: number; stock: number }>();
  return new Map(results.map((r) => [r.id, r.stock]));
}
