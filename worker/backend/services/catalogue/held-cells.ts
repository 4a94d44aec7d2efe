import { CELL_COLUMNS, filtersKey, sumCells, type Cell, type CellFilter, type Sums } from "./facet-cells";

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

/** The kept counts' cells this isolate holds (none yet: the next list reads them with its page). */
export const heldCells = (): HeldCells | undefined => cellsCache;

/** Holds cells a list read with its page, for the lists after it. */
export function holdCells(cells: HeldCells): void {
  cellsCache = cells;
}

/**
 * Cells held with the sums already made from them, by filters (filtersKey): a list's total and
 * facets depend on its filters alone, not on its sort or page, so the shopper who sorts or pages
 * through a list, and every other visitor of it, reuses one sum while the cells stand. Bounded:
 * the memo starts again past MAX_SUMS sets of filters. The sums are shared: read, never changed.
 */
export interface HeldCells {
  version: number;
  cells: Cell[];
  sums: Map<string, Sums>;
}
const MAX_SUMS = 512;

export function sumsOf(held: HeldCells, filters: readonly CellFilter[]): Sums {
  const key = filtersKey(filters);
  let sums = held.sums.get(key);
  if (!sums) {
    if (held.sums.size >= MAX_SUMS) held.sums.clear();
    held.sums.set(key, (sums = sumCells(held.cells, filters)));
  }
  return sums;
}
export const CELLS_VERSION = "SELECT value FROM versions WHERE name = 'facets'";
export const CELLS = `SELECT ${CELL_COLUMNS} FROM product_facet_counts WHERE n > 0`;
