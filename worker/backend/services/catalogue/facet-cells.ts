/**
 * A list's total and facets summed from cells: the active products counted per leaf category,
 * brand (0: none), price band and in-stock flag, as `product_facet_counts` keeps them (migration
 * 0018). Summing them here, rather than with four GROUP BY statements over the same rows in D1,
 * lets a list read the cells once per catalogue version and answer every page, sort and filter
 * set of it from memory (services/catalogue/held-cells.ts).
 */

export interface Cell {
  category_id: number;
  brand_id: number;
  band: number;
  in_stock: number;
  n: number;
}

/** A cell's columns, as the tables that hold cells (and a search's matches grouped alike) name them. */
export const CELL_COLUMNS = "category_id, brand_id, band, in_stock, n";

export type Facet = "category" | "brand" | "price" | "stock";

/** One count of a facet: which facet, the category, brand or band, and how many. */
export interface FacetRow {
  facet: Facet;
  id: number;
  n: number;
}

/** A filter as the cells answer it: its facet, and whether a cell's products pass it. */
export interface CellFilter {
  facet: Facet;
  holds: (cell: Cell) => boolean;
  /** `holds` as SQL over a cell's columns (ids and bands written as numbers, no parameters). */
  where: string;
  /** What it holds, as text: two filters of a facet with the same key hold the same cells. */
  key: string;
}

/** An attribute's own facet (services/catalogue/attribute-filters.ts): its filter's counts leave it out. */
export type AttributeFacetName = `attribute:${string}`;

/** The facet a filter belongs to: one of the kept counts', or an attribute's. */
export type FilterFacet = Facet | AttributeFacetName;

/** One filter of the list: its facet, its test on `products` (columns under a prefix), and on the kept counts. */
export interface Filter {
  facet: FilterFacet;
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
  /**
   * An attribute's filter that keeps exactly one value: the attribute and the value as the kept
   * attribute counts hold it (migrations 0039 and 0042), which then answer the list's counts.
   */
  oneValue?: { attribute: number; value: number };
}

/** The total and the facets' counts the cells give for a set of filters. */
export interface Sums {
  total: number;
  rows: FacetRow[];
}

/**
 * The total of the cells every filter keeps, and each facet's counts over the cells its other
 * filters keep (a facet leaves its own filter out, so a shopper sees what choosing another value
 * would give): categories and brands in ascending id, the bands present, and the in-stock count.
 * The brand facet leaves out products without a brand; the stock facet counts those in stock.
 */
export function sumCells(cells: readonly Cell[], filters: readonly CellFilter[]): Sums {
  // Counts by id in typed arrays sized to the largest id (a few thousand cells, ids up to the low
  // thousands): a Map's get and set per cell and facet were a third of a cold list's backend time
  // at 100,000 products (docs/PERFORMANCE.md, "The Worker's own CPU, row by row"). `seen` marks
  // the ids a cell added to, so a facet lists exactly the ids it did before, in ascending order.
  let [maxCategory, maxBrand, maxBand] = [0, 0, 0];
  for (const cell of cells) {
    if (cell.category_id > maxCategory) maxCategory = cell.category_id;
    if (cell.brand_id > maxBrand) maxBrand = cell.brand_id;
    if (cell.band > maxBand) maxBand = cell.band;
  }
  const categories = new Float64Array(maxCategory + 1);
  const brands = new Float64Array(maxBrand + 1);
  const bands = new Float64Array(maxBand + 1);
  const seen = {
    category: new Uint8Array(maxCategory + 1),
    brand: new Uint8Array(maxBrand + 1),
    price: new Uint8Array(maxBand + 1),
  };
  let total = 0;
  let inStock = 0;
  for (const cell of cells) {
    // The one facet whose filters drop this cell, if exactly one does (two filters, as a price's
    // lower and upper bounds, may share a facet).
    let failed: Facet | null = null;
    let several = false;
    for (const f of filters) {
      if (f.holds(cell)) continue;
      if (failed !== null && failed !== f.facet) {
        several = true;
        break;
      }
      failed = f.facet;
    }
    if (several) continue;
    const n = Number(cell.n);
    if (failed === null) total += n;
    if (failed === null || failed === "category") {
      categories[cell.category_id] += n;
      seen.category[cell.category_id] = 1;
    }
    if ((failed === null || failed === "brand") && cell.brand_id !== 0) {
      brands[cell.brand_id] += n;
      seen.brand[cell.brand_id] = 1;
    }
    if (failed === null || failed === "price") {
      bands[cell.band] += n;
      seen.price[cell.band] = 1;
    }
    if ((failed === null || failed === "stock") && cell.in_stock === 1) inStock += n;
  }
  const rows: FacetRow[] = [];
  const rowsOf = (facet: "category" | "brand" | "price", counts: Float64Array) => {
    for (let id = 0; id < counts.length; id++) if (seen[facet][id]) rows.push({ facet, id, n: counts[id] });
  };
  rowsOf("category", categories);
  rowsOf("brand", brands);
  rowsOf("price", bands);
  rows.push({ facet: "stock", id: 0, n: inStock });
  return { total, rows };
}

/** The filters' identity for a memo of their sums: each facet's key, in a fixed order. */
export const filtersKey = (filters: readonly CellFilter[]) =>
  filters
    .map((f) => `${f.facet}:${f.key}`)
    .sort()
    .join("|");

/** One row of `sumsSql`: a facet's count of one id, or the total (facet "total", id 0). */
export interface SumRow {
  facet: Facet | "total";
  id: number;
  n: number;
}

/**
 * `sumCells` as SQL, for cells D1 holds (a kept search's, or a search's matches grouped alike):
 * the same total and counts, summed where the cells are, so a search's answer carries a hundred
 * or so sums instead of its several hundred cells (each a row D1 turns into JSON, and the Worker
 * into objects, to be summed here). `cells` is a statement yielding CELL_COLUMNS; the filters'
 * conditions are literals, so the statement's parameters are the cells' own.
 */
export function sumsSql(cells: string, filters: readonly CellFilter[]): string {
  const where = (leftOut: Facet | null, ...more: string[]) => {
    const conditions = [...filters.filter((f) => f.facet !== leftOut).map((f) => f.where), ...more];
    return conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
  };
  return `WITH c AS MATERIALIZED (${cells})
    SELECT 'total' AS facet, 0 AS id, TOTAL(n) AS n FROM c ${where(null)}
    UNION ALL SELECT 'category', category_id, SUM(n) FROM c ${where("category")} GROUP BY category_id
    UNION ALL SELECT 'brand', brand_id, SUM(n) FROM c ${where("brand", "brand_id <> 0")} GROUP BY brand_id
    UNION ALL SELECT 'price', band, SUM(n) FROM c ${where("price")} GROUP BY band
    UNION ALL SELECT 'stock', 0, TOTAL(n) FROM c ${where("stock", "in_stock = 1")}`;
}

const FACET_ORDER: Record<Facet, number> = { category: 0, brand: 1, price: 2, stock: 3 };

/** `sumsSql`'s rows as `sumCells` answers: the total apart, the counts by facet, then id. */
export function sumsOfRows(sumRows: readonly SumRow[]): Sums {
  let total = 0;
  const rows: FacetRow[] = [];
  for (const row of sumRows) {
    if (row.facet === "total") total = Number(row.n);
    else rows.push({ facet: row.facet, id: Number(row.id), n: Number(row.n) });
  }
  rows.sort((a, b) => FACET_ORDER[a.facet] - FACET_ORDER[b.facet] || a.id - b.id);
  return { total, rows };
}
