import type { Lang } from "../../env";
import { heldCells, holdCells, type HeldCells } from "./held-cells";
import { assemblePage, type Answer } from "./list-assembler";
import { planPage, type Reads } from "./list-builder";
import type { ProductFilters } from "./list-filters";
import { runPage } from "./list-runner";
import { noteKeptSearches } from "./search-kept";
import type { Search } from "./search-ranking";
import { taxonomy } from "./taxonomy";

/**
 * One page of the product list, for a search or none: the filters, the sort, the total and, when
 * asked, the facets. Three parts: the builder (list-builder.ts) chooses what to read, as the
 * statements of one batch; the runner (list-runner.ts) reads them in one round trip; the
 * assembler (list-assembler.ts) makes the contract's answer of the rows. In between, this notes
 * what the batch told of the kept searches and the kept counts' cells (held-cells.ts).
 */
export async function productPage(
  db: D1Database,
  lang: Lang,
  filters: ProductFilters,
  match: Search | null,
  reads: Reads,
  /** The kept counts' cells this isolate held were found changed: read them again. */
  cellsChanged = false,
): Promise<Answer> {
  const tax = await taxonomy(db);
  const plan = planPage(db, lang, filters, match, reads, tax, cellsChanged ? undefined : heldCells());
  const rows = await runPage(db, plan);
  if (rows.state) noteKeptSearches(rows.state.any_kept === 1);
  const { held } = plan.shape;
  let readCells: HeldCells | undefined;
  if (rows.cellsVersion !== undefined) {
    // A cell changed since this isolate read them: the page may have left out a subcategory, so
    // it is read again, with the cells.
    if (held && held.version !== rows.cellsVersion) return productPage(db, lang, filters, match, reads, true);
    if (!held) holdCells((readCells = { version: rows.cellsVersion, cells: rows.asRead.cells ?? [], sums: new Map() }));
  }
  return assemblePage(plan.shape, rows, readCells, tax);
}
