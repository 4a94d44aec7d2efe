/**
 * A list's total and facets summed from cells: the active products counted per leaf category,
 * brand (0: none), price band and in-stock flag, as `product_facet_counts` keeps them (migration
 * 0018). Summing them here, rather than with four GROUP BY statements over the same rows in D1,
 * lets a list read the cells once per catalogue version and answer every page, sort and filter
 * set of it from memory (services/catalogue.ts, `facetCells`).
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
}

/**
 * The total of the cells every filter keeps, and each facet's counts over the cells its other
 * filters keep (a facet leaves its own filter out, so a shopper sees what choosing another value
 * would give): categories and brands in ascending id, the bands present, and the in-stock count.
 * The brand facet leaves out products without a brand; the stock facet counts those in stock.
 */
export function sumCells(cells: readonly Cell[], filters: readonly CellFilter[]): { total: number; rows: FacetRow[] } {
  let total = 0;
  let inStock = 0;
  const categories = new Map<number, number>();
  const brands = new Map<number, number>();
  const bands = new Map<number, number>();
  const add = (to: Map<number, number>, id: number, n: number) => to.set(id, (to.get(id) ?? 0) + n);
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
    if (failed === null || failed === "category") add(categories, cell.category_id, n);
    if ((failed === null || failed === "brand") && cell.brand_id !== 0) add(brands, cell.brand_id, n);
    if (failed === null || failed === "price") add(bands, cell.band, n);
    if ((failed === null || failed === "stock") && cell.in_stock === 1) inStock += n;
  }
  const rowsOf = (facet: Facet, counts: Map<number, number>): FacetRow[] =>
    [...counts].sort(([a], [b]) => a - b).map(([id, n]) => ({ facet, id, n }));
  return {
    total,
    rows: [
      ...rowsOf("category", categories),
      ...rowsOf("brand", brands),
      ...rowsOf("price", bands),
      { facet: "stock", id: 0, n: inStock },
    ],
  };
}
