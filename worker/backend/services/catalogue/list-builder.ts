import type { Lang } from "../../env";
import { attributeCellsStatement, attributeCountsStatement, facetAttributes, oneValueCells } from "./attribute-filters";
import { sumsSql, type CellFilter, type Sums } from "./facet-cells";
import { sumsOf, type HeldCells } from "./held-cells";
import {
  bandsFilter,
  cellFiltersOf,
  filtersOf,
  oneValueList,
  ORDER_BY,
  priceCut,
  type ProductFilters,
} from "./list-filters";
import { keptReads, listReads, notRead, searchFacetReads, searchReads, type Build, type Places } from "./list-reads";
import { KEPT_ID, SEARCH_STATE, UNLESS_KEPT, type Search } from "./search-ranking";
import type { AttributeDef, Taxonomy } from "./taxonomy";

/**
 * The list page's builder: which statements one page of the list reads, all in one batch
 * (list.ts runs it, list-assembler.ts makes the answer of its rows). Built for a large catalogue
 * (docs/PERFORMANCE.md, "Search at scale" and "Bench at scale"): the filters name ids, so every
 * count runs on `products` alone, through its indexes. Without a search, the page is read in index
 * order (no count of the rest), and its total and facets are summed from the kept counts' cells
 * this isolate holds (held-cells.ts, migrations 0018 and 0023) when the filters are ones they
 * hold; with a search, the page carries its own total (a window count) and the facets group the
 * matches into the same cells once (a kept search reads its kept cells), summed the same way
 * (facet-cells.ts). With `keptFirst` (a search in relevance order), the kept copy's reads and the
 * fresh ones share one batch, the fresh ones ending in UNLESS_KEPT so that they read nothing when
 * the copy is current.
 */

/**
 * What a search's batch reads (services/catalogue/search-kept.ts): its matches ranked afresh only
 * ("fresh"), its kept copy and, unless that is current, its matches ranked afresh ("either", one
 * round trip whatever the copy's state), or its kept copy only ("kept": this isolate saw it
 * current; two statements fewer, and a second round trip in the rare case it no longer is).
 */
export type Reads = "fresh" | "either" | "kept";

/** What assembling the answer needs to know of how the page was read (list-assembler.ts). */
export interface PageShape {
  filters: ProductFilters;
  /** A search's page (a match), not a list's. */
  searching: boolean;
  /** The kept copy's reads were in the batch (a search in relevance order that may be kept). */
  keptFirst: boolean;
  /** Whether any filter narrows the list. */
  filtered: boolean;
  offset: number;
  /** The filters as the cells answer them, or null when one is not a cells' filter (a price no band's). */
  cellFilters: CellFilter[] | null;
  /** With price bounds that are no band's: the other filters, as the cells answer them; otherwise null. */
  otherThanPrice: CellFilter[] | null;
  /** The kept counts' cells this isolate held and the page used (a list without a search). */
  held: HeldCells | undefined;
  /** The total and facets summed from the held cells, when they answer them whole. */
  summed: Sums | null;
  lang: Lang;
  /** The chosen category's attributes counted as facets (attribute-filters.ts), in order. */
  attributeDefs: AttributeDef[];
}

/**
 * The page's batch: its statements, where each read stands in it, for the kept copy's way of
 * answering (`fromKept`) and the page's as read (`asRead`: a list, or a search ranked afresh), and
 * how the page was read.
 */
export interface PagePlan {
  statements: D1PreparedStatement[];
  fromKept: Places;
  asRead: Places;
  /** The search's state (its `search` version and its kept copy's). */
  stateAt: number;
  /** The kept counts' cells' version, read with a list's page. */
  cellsVersionAt: number;
  /** The attribute facets' counts. */
  attributesAt: number;
  shape: PageShape;
}

/** A search's matching products' ids, its names' and details' parameters first. */
const MATCHED_IDS = `SELECT rowid AS id FROM product_search WHERE product_search MATCH ?
  UNION SELECT rowid FROM product_details_search WHERE product_details_search MATCH ?`;

/**
 * One page of the list for a search (or none): the filters, the sort, the total and, when asked,
 * the facets, as the statements of one batch. `cells`: the kept counts' cells this isolate holds
 * (none, or found changed: the batch reads them).
 */
export function planPage(
  db: D1Database,
  lang: Lang,
  filters: ProductFilters,
  match: Search | null,
  reads: Reads,
  tax: Taxonomy,
  cells: HeldCells | undefined,
): PagePlan {
  const { list, whereOf } = filtersOf(tax, filters);
  const { sql: whereSql, conditions, binds } = whereOf("p.");
  const offset = (filters.page - 1) * filters.per_page;
  const order = ORDER_BY[filters.sort](match !== null, lang);
  const joined = `JOIN products p ON p.id = chosen.id JOIN categories c ON c.id = p.category_id LEFT JOIN brands b ON b.id = p.brand_id`;
  // The cells (facet-cells.ts) answer the total and the facets when every filter is one they hold.
  const cellFilters = cellFiltersOf(list);
  // An attribute's filter, which the cells know nothing of: the products answer the counts,
  // unless it keeps one value and the list is not a search (that value's cells answer them).
  const attributeFiltered = list.some((f) => f.facet.startsWith("attribute:"));
  const oneValue = match ? null : oneValueList(list);
  // Price bounds that are no band's, the one filter the cells cannot answer whole: what they cut.
  const cut = cellFilters || attributeFiltered ? null : priceCut(filters);
  const otherThanPrice = cut && cellFiltersOf(list.filter((f) => f.facet !== "price"))!;
  // The cells' filters that tell which subcategories hold none of the list: its own, or with
  // such bounds the others and every band the bounds touch (none there, none in the bounds).
  const armFilters = cellFilters ?? (cut && [...otherThanPrice!, bandsFilter(cut.touched)]);
  // Without a search: the kept counts' cells this isolate holds (none yet: read with the page).
  // (A list with an attribute filter uses none, but holds them still: no read of them each time.)
  const held = !match && (armFilters || attributeFiltered) ? cells : undefined;
  const armSums = held && armFilters ? sumsOf(held, armFilters) : null;
  const summed = cellFilters ? armSums : null;
  const statements: D1PreparedStatement[] = [];
  const add = (statement: D1PreparedStatement) => statements.push(statement) - 1;
  // Where each read of one way of answering stands in the batch (-1: not read): the kept copy's,
  // and the page's as read (a list, or a search ranked afresh).
  const fromKept = notRead();
  const asRead = notRead();
  let [stateAt, cellsVersionAt, attributesAt] = [-1, -1, -1];
  // Every statement about a search binds its names and details first: the full-text matches, or
  // the kept copy's id (KEPT_ID, SQL of parameters ?1 and ?2, services/catalogue/search-kept.ts).
  const matchBinds = match ? [match.names, match.details] : [];
  const keptMatches = `product_ranks p JOIN search_kept_rows r ON r.product_id = p.id AND r.kept_id = ${KEPT_ID}`;
  // A list's facets counted from the products (an attribute filter) read their narrow rows.
  const freshMatches = match ? `product_ranks p JOIN (${MATCHED_IDS}) s ON s.id = p.id` : "product_ranks p";
  // Ranking afresh in the batch that reads the kept copy: nothing is read when the copy is current.
  const keptFirst = match !== null && reads !== "fresh";
  const freshToo = reads !== "kept";
  const unlessKept = match && keptFirst ? { sql: UNLESS_KEPT, binds: matchBinds } : { sql: "", binds: [] };
  const build: Build = {
    db,
    lang,
    filters,
    tax,
    list,
    whereOf,
    whereSql,
    conditions,
    binds,
    offset,
    order,
    joined,
    cellFilters,
    cut,
    armSums,
    summed,
    held,
    matchBinds,
    keptMatches,
    freshMatches,
    keptFirst,
    freshToo,
    unlessKept,
    add,
    fromKept,
    asRead,
    oneValue,
  };
  // A search reads the `search` version and its kept copy's with its page: whether the copy
  // answered, whether to keep it after, whether the shop keeps any; and a misspelt word is
  // corrected from terms held under that version (services/catalogue/spelling.ts), with no round trip to
  // check them.
  if (match) stateAt = add(db.prepare(SEARCH_STATE).bind(...matchBinds));
  if (match && keptFirst) keptReads(build);
  if (match) searchReads(build, match);
  else cellsVersionAt = listReads(build);
  if (oneValue) asRead.sums = add(db.prepare(sumsSql(oneValueCells(oneValue), oneValue.others)));
  else if (filters.facets && !cellFilters && (match || attributeFiltered)) searchFacetReads(build);
  // The chosen category's attributes: a list whose every filter the cells hold sums them from
  // the attribute cells; any other list counts its products' values (attribute-filters.ts).
  const attributeDefs = filters.facets ? facetAttributes(tax, filters.category) : [];
  if (attributeDefs.length)
    attributesAt = add(
      !match && cellFilters
        ? attributeCellsStatement(db, attributeDefs, cellFilters)
        : attributeCountsStatement(
            db,
            attributeDefs,
            list,
            match ? { sql: MATCHED_IDS, binds: matchBinds } : undefined,
            oneValue,
          ),
    );
  return {
    statements,
    fromKept,
    asRead,
    stateAt,
    cellsVersionAt,
    attributesAt,
    shape: {
      filters,
      searching: match !== null,
      keptFirst,
      filtered: list.length > 0,
      offset,
      cellFilters,
      otherThanPrice,
      held,
      summed,
      lang,
      attributeDefs,
    },
  };
}
