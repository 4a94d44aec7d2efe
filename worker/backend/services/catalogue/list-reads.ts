import type { Lang } from "../../env";
import type { OneValueList } from "./attribute-filters";
import { CELL_COLUMNS, sumsSql, type CellFilter, type Sums } from "./facet-cells";
import { CELLS, CELLS_VERSION, type HeldCells } from "./held-cells";
import { cellFiltersOf, type Filter, type priceCut, type ProductFilters, type WhereOf } from "./list-filters";
import { BM25, bandOf, KEPT_ID, RANKED_MATCHES, type Search } from "./search-ranking";
import { VARIANT_VALUES } from "./search-variants";
import { col, summaryColumns } from "./summary";
import { subtree, type Taxonomy } from "./taxonomy";

/**
 * The list page's reads, by the kind of page (list-builder.ts chooses which and puts them in one
 * batch): a search's kept copy, a search ranked afresh, a list without a search, and a search's
 * facets under price bounds that are no band's. Each adds its statements to the batch and notes
 * where each read stands in it.
 */

/** Where each read of one way of answering stands in the batch (-1: not read). */
export interface Places {
  page: number;
  total: number;
  cells: number;
  /** The sums' statement; `SUMS_ON_PAGE` when the page's rows carry them (`searchReads`). */
  sums: number;
  facets: number;
}

/** A search's sums carried on its page's rows (PageRow `sums`), not read by a statement of their own. */
export const SUMS_ON_PAGE = -2;

/** What the builder's parts share: the request, its filters as SQL and the batch being built. */
export interface Build {
  db: D1Database;
  lang: Lang;
  filters: ProductFilters;
  tax: Taxonomy;
  list: Filter[];
  whereOf: WhereOf;
  /** Every filter on the products as `p.` columns: as a WHERE clause, as conditions, their parameters. */
  whereSql: string;
  conditions: string;
  binds: unknown[];
  offset: number;
  /** The sort's ORDER BY (list-filters.ts ORDER_BY). */
  order: string;
  /** Joins a page's chosen ids to their summaries' tables. */
  joined: string;
  cellFilters: CellFilter[] | null;
  /** Price bounds that are no band's, as the bands they hold and cut (list-filters.ts priceCut). */
  cut: ReturnType<typeof priceCut> | null;
  /** Sums of the cells that tell which subcategories hold none of the list (list-builder.ts `armFilters`). */
  armSums: Sums | null;
  summed: Sums | null;
  held: HeldCells | undefined;
  /** A search's names and details, bound first in every statement about it. */
  matchBinds: string[];
  /** A search's matches as product rows: its kept copy's, and the full-text index's. */
  keptMatches: string;
  freshMatches: string;
  /** The kept copy is read (keptReads), and whether the matches are ranked afresh too. */
  keptFirst: boolean;
  freshToo: boolean;
  /** Ends a fresh read that shares the batch with the kept copy's (search-ranking.ts UNLESS_KEPT). */
  unlessKept: { sql: string; binds: unknown[] };
  /** Adds a statement to the batch; its place in it. */
  add: (statement: D1PreparedStatement) => number;
  fromKept: Places;
  asRead: Places;
  /** A list of one attribute value: its cells answer the total (list-builder.ts). */
  oneValue: OneValueList | null;
}

export const notRead = (): Places => ({ page: -1, total: -1, cells: -1, sums: -1, facets: -1 });

/** A search's kept copy: its page, and its total (and facets) from the copy's cells or rows. */
export function keptReads(b: Build): void {
  const { db, lang, filters, list, binds, offset, joined, cellFilters, matchBinds, add, fromKept } = b;
  const keptRows = `search_kept_rows r CROSS JOIN product_ranks p ON p.id = r.product_id`;
  // The brand filter reads the kept row's own brand, so the kept brand index serves the page.
  const keptWhere = `r.kept_id = ${KEPT_ID} AND ${["p.active = 1", ...list.map((f) => f.on(f.facet === "brand" ? "r." : "p."))].join(" AND ")}`;
  const keptOrder = (a: string, id: string) =>
    `${a}named DESC, ${a}available DESC, ${a}score ASC, ${a}featured DESC, ${a}${id} ASC`;
  fromKept.page = add(
    db
      .prepare(
        `SELECT ${summaryColumns(lang)}, ${VARIANT_VALUES} FROM (
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

/** A product's cell (facet-cells.ts) from its `p.` columns, as the cells' columns name it. */
const PRODUCT_CELL = `p.category_id, IFNULL(p.brand_id, 0) AS brand_id, ${bandOf("p.price")} AS band, p.stock > 0 AS in_stock`;

/** A search ranked afresh: its page, carrying its total, and its facets when the cells answer them. */
export function searchReads(b: Build, match: Search): void {
  const { db, lang, filters, list, whereSql, conditions, binds, offset, order, joined, cellFilters } = b;
  const { matchBinds, freshMatches, freshToo, unlessKept, add, asRead } = b;
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
  // A product found by name is left out of the description's arm (search-ranking.ts RANKED_MATCHES).
  const arm = (table: string, score: string, named: 0 | 1) =>
    `SELECT p.id, ${named} AS named, ${score} AS score FROM ${table} f CROSS JOIN product_ranks p ON p.id = f.rowid
       WHERE ${table} MATCH ? AND ${conditions}${named ? "" : " AND f.rowid NOT IN (SELECT rowid FROM product_search WHERE product_search MATCH ?)"}`;
  const armBinds = filtered
    ? [match.names, ...binds, match.details, ...binds, match.names]
    : [match.names, match.details];
  // Other sorts do not rank, so they need neither BM25 nor which index found the product.
  const found = relevance
    ? filtered
      ? `${arm("product_search", BM25, 1)} UNION ALL ${arm("product_details_search", "bm25(product_details_search)", 0)}`
      : RANKED_MATCHES
    : `SELECT rowid AS id FROM product_search WHERE product_search MATCH ?
         UNION SELECT rowid FROM product_details_search WHERE product_details_search MATCH ?`;
  const sortColumns = relevance
    ? "s.named, p.stock > 0 AS available, s.score, p.is_featured"
    : `p.created_at, p.price, p.${col("name", lang)}`;
  const pageOrder = relevance ? "p.named DESC, p.available DESC, p.score ASC, p.is_featured DESC, p.id ASC" : order;
  // Unfiltered, the page's matches are every shown match: their cells are summed in the page's own
  // statement (a JSON column of its rows), so the facets do not search both indexes a second time
  // (that second search was a third of a cold search's time at 100,000 products).
  const sumsOnPage = !!(filters.facets && cellFilters && freshToo && !filtered);
  const cellColumns = sumsOnPage ? `, ${PRODUCT_CELL}` : "";
  const sumsColumn = sumsOnPage
    ? `, (SELECT json_group_array(json_array(facet, id, n)) FROM (${sumsSql(
        "SELECT category_id, brand_id, band, in_stock, COUNT(*) AS n FROM s GROUP BY 1, 2, 3, 4",
        cellFilters!,
      )})) AS sums`
    : "";
  // A page past the last one is cut at the last match instead, so that a row carries the total
  // (dropped below): no second round trip to count.
  if (freshToo)
    asRead.page = add(
      db
        .prepare(
          `WITH s AS MATERIALIZED (
             SELECT p.id, ${sortColumns}${cellColumns} FROM (${found}) s CROSS JOIN ${relevance ? "product_ranks" : "products"} p ON p.id = s.id
             ${relevance && filtered ? "" : whereSql} ${unlessKept.sql}
           ), chosen AS (
             SELECT p.*, (SELECT COUNT(*) FROM s) AS total_count FROM s p ORDER BY ${pageOrder}
             LIMIT ? OFFSET MIN(?, MAX((SELECT COUNT(*) FROM s) - 1, 0))
           )
           SELECT ${summaryColumns(lang)}, ${VARIANT_VALUES}, chosen.total_count${sumsColumn}
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
  if (sumsOnPage) asRead.sums = SUMS_ON_PAGE;
  else if (filters.facets && cellFilters && freshToo)
    asRead.sums = add(
      db
        .prepare(
          sumsSql(
            `SELECT ${PRODUCT_CELL}, COUNT(*) AS n
               FROM ${freshMatches} WHERE p.active = 1 GROUP BY 1, 2, 3, 4 ${unlessKept.sql}`,
            cellFilters,
          ),
        )
        .bind(...matchBinds, ...unlessKept.binds),
    );
}

/**
 * A list without a search: its page in the sort's index order, the cells' version (and the cells,
 * when none are held), and what the cells cannot answer of price bounds that are no band's. The
 * place of the cells' version in the batch.
 */
export function listReads(b: Build): number {
  const { db, lang, filters, tax, list, whereOf, whereSql, binds, offset, order, joined, cut } = b;
  const { armSums, summed, held, add, asRead } = b;
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
            .map((arm) => `SELECT * FROM (SELECT ${sortColumns} FROM products p ${arm.sql} ORDER BY ${order} LIMIT ?)`)
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
  const cellsVersionAt = add(db.prepare(CELLS_VERSION));
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
  } else if (!b.cellFilters && !b.oneValue)
    asRead.total = add(db.prepare(`SELECT COUNT(*) AS n FROM products p ${whereSql}`).bind(...binds));
  return cellsVersionAt;
}

/**
 * A search with a price filter that is no band's, or a list or search with an attribute filter:
 * the matching products' facet columns once (a search matched once, the attribute filters, which
 * every one of the four facets keeps, applied), then the four counts; of the kept copy's matches
 * and of the fresh ones.
 */
export function searchFacetReads(b: Build): void {
  const { db, list, whereOf, matchBinds, keptMatches, freshMatches, keptFirst, freshToo, unlessKept, add } = b;
  const attributes = list
    .filter((f) => f.facet.startsWith("attribute:"))
    .map((f) => ` AND ${f.on("p.")}`)
    .join("");
  const category = whereOf("", "category");
  const brand = whereOf("", "brand", "brand_id IS NOT NULL");
  const price = whereOf("", "price");
  const stock = whereOf("", "stock", "stock > 0");
  const facets = (matches: string, guard: { sql: string; binds: unknown[] }) =>
    db
      .prepare(
        `WITH m AS MATERIALIZED (SELECT p.id, p.category_id, p.brand_id, p.price, p.stock, p.active FROM ${matches} WHERE p.active = 1${attributes} ${guard.sql})
           SELECT 'category' AS facet, category_id AS id, COUNT(*) AS n FROM m ${category.sql} GROUP BY category_id
           UNION ALL SELECT 'brand', brand_id, COUNT(*) FROM m ${brand.sql} GROUP BY brand_id
           UNION ALL SELECT 'price', ${bandOf("price")}, COUNT(*) FROM m ${price.sql} GROUP BY 2
           UNION ALL SELECT 'stock', 0, COUNT(*) FROM m ${stock.sql}`,
      )
      .bind(...matchBinds, ...guard.binds, ...category.binds, ...brand.binds, ...price.binds, ...stock.binds);
  if (keptFirst) b.fromKept.facets = add(facets(keptMatches, { sql: "", binds: [] }));
  if (freshToo) b.asRead.facets = add(facets(freshMatches, unlessKept));
}
