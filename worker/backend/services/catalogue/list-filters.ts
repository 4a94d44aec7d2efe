import type { AttributeFilter } from "../../../../contract/catalogue";
import type { Lang } from "../../env";
import { attributeFilterOf, type OneValueList } from "./attribute-filters";
import type { Cell, CellFilter, Facet, Filter, FilterFacet } from "./facet-cells";
import { PRICE_BANDS } from "./search-ranking";
import { col } from "./summary";
import { subtree, type Taxonomy } from "./taxonomy";

/**
 * What a product list asks for (its search words, filters, sort and page) and the filters as SQL:
 * on the products' columns, and on the cells of the kept counts (facet-cells.ts), which answer
 * a list's total and facets when every filter is one they hold.
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
  /** Typed specifications' filters (attribute-filters.ts). */
  attributes?: AttributeFilter[];
  /** Count the facets too (the product list page asks; the home page's rows do not). */
  facets?: boolean;
  sort: Sort;
  page: number;
  per_page: number;
}

export const ORDER_BY: Record<Sort, (searching: boolean, lang: Lang) => string> = {
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

export type { Filter, FilterFacet };

/** A list's conditions as SQL: each filter's but one facet's, and one more condition. */
export type WhereOf = (
  prefix: string,
  without?: FilterFacet,
  extra?: string,
) => { sql: string; conditions: string; binds: unknown[] };

/**
 * The list's filters, each knowing its facet, so a facet's counts can leave its own filter out.
 * Ids come from the database, never from input, so they are written into the SQL as numbers.
 */
export function filtersOf(tax: Taxonomy, filters: ProductFilters): { list: Filter[]; whereOf: WhereOf } {
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
  for (const f of filters.attributes ?? []) list.push(attributeFilterOf(tax, f));
  const whereOf = (prefix: string, without?: FilterFacet, extra?: string) => {
    const parts = list.filter((f) => f.facet !== without);
    // Hidden products (the console's deactivate) are in no list, count or facet.
    const sql = [`${prefix}active = 1`, ...parts.map((f) => f.on(prefix)), ...(extra ? [extra] : [])];
    return { sql: `WHERE ${sql.join(" AND ")}`, conditions: sql.join(" AND "), binds: parts.flatMap((f) => f.binds) };
  };
  return { list, whereOf };
}

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
export const cellFiltersOf = (filters: readonly Filter[]): CellFilter[] | null =>
  filters.every((f) => f.counted !== null)
    ? // Only the kept counts' own facets have `counted` (an attribute's filter has none).
      filters.map((f) => ({ facet: f.facet as Facet, ...f.counted!, key: f.key }))
    : null;

/** A list filtered by one value of one attribute and otherwise as the cells hold (attribute-filters.ts `OneValueList`), or null. */
export function oneValueList(list: readonly Filter[]): OneValueList | null {
  const own = list.filter((f) => f.facet.startsWith("attribute:"));
  const one = own.length === 1 ? own[0].oneValue : undefined;
  const others = one ? cellFiltersOf(list.filter((f) => f !== own[0])) : null;
  return one && others ? { ...one, others } : null;
}

/**
 * Price bounds that are no band's, as the cells still answer them: the bands wholly inside the
 * bounds, the prices (whole halalas, both ends in) of each band they cut, one or two, and every
 * band they touch.
 */
export function priceCut(filters: ProductFilters): { inner: number[]; edges: [number, number][]; touched: number[] } {
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
export const bandsFilter = (bands: number[]): CellFilter => ({
  facet: "price",
  holds: (cell) => bands.includes(cell.band),
  where: bands.length ? `band IN (${bands.join(", ")})` : "0",
  key: `bands ${bands.join(",")}`,
});
