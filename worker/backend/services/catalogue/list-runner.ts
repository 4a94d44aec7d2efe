import type { AttributeCountRow } from "./attribute-filters";
import type { Cell, FacetRow, SumRow } from "./facet-cells";
import type { PagePlan } from "./list-builder";
import { SUMS_ON_PAGE, type Places } from "./list-reads";
import type { SummaryRow } from "./summary";

/**
 * The list page's runner: the builder's statements (list-builder.ts) in one batch, one round trip
 * however many they are, and their rows by what each read.
 */

/**
 * A row of a page: a product's summary, on a search ranked afresh the count of its matches, and on
 * a search its variants' values (search-variants.ts `VARIANT_VALUES`).
 */
export type PageRow = SummaryRow & { total_count?: number; variant_values?: string | null; sums?: string | null };

/** The rows of one way of answering (the kept copy's, or the page's as read); a read not in the batch is absent. */
export interface WayRows {
  page?: PageRow[];
  total?: { n: number }[];
  cells?: Cell[];
  sums?: SumRow[];
  facets?: FacetRow[];
}

/** A search's state as its page was read (search-ranking.ts SEARCH_STATE). */
export interface SearchState {
  version: number;
  kept: number | null;
  any_kept: number;
}

export interface PageRows {
  /** A search's: none for a list. */
  state: SearchState | undefined;
  fromKept: WayRows;
  asRead: WayRows;
  /** The kept counts' cells' version, when the batch read it (a list's). */
  cellsVersion: number | undefined;
  /** The attribute facets' counts, when the batch read them. */
  attributes: AttributeCountRow[];
}

/** Runs the page's batch: a single round trip (none when it reads nothing). */
export async function runPage(db: D1Database, plan: PagePlan): Promise<PageRows> {
  const results = plan.statements.length ? await db.batch(plan.statements) : [];
  const read = <T>(at: number): T[] | undefined => (at < 0 ? undefined : (results[at].results as T[]));
  const way = (places: Places): WayRows => {
    const page = read<PageRow>(places.page);
    return {
      page,
      total: read<{ n: number }>(places.total),
      cells: read<Cell>(places.cells),
      sums: places.sums === SUMS_ON_PAGE ? sumsOnPage(page) : read<SumRow>(places.sums),
      facets: read<FacetRow>(places.facets),
    };
  };
  return {
    state: read<SearchState>(plan.stateAt)?.[0],
    fromKept: way(plan.fromKept),
    asRead: way(plan.asRead),
    attributes: read<AttributeCountRow>(plan.attributesAt) ?? [],
    cellsVersion:
      plan.cellsVersionAt < 0 ? undefined : Number(read<{ value: number }>(plan.cellsVersionAt)?.[0]?.value ?? 0),
  };
}

/**
 * The sums a search's page carries on its rows (list-reads.ts `searchReads`), as their own
 * statement would answer them: with no row, nothing matched, and the total and stock count are 0.
 */
function sumsOnPage(page: PageRow[] | undefined): SumRow[] {
  const json = page?.[0]?.sums;
  if (!json)
    return [
      { facet: "total", id: 0, n: 0 },
      { facet: "stock", id: 0, n: 0 },
    ];
  return JSON.parse(json).map(([facet, id, n]: [SumRow["facet"], number, number]) => ({ facet, id, n }));
}
