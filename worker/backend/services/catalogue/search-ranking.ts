/**
 * How a search ranks its matches and keeps them, as SQL (docs/PERFORMANCE.md "Search at
 * scale"). Pure, with no imports, so the seed script (Node) writes the very statements the Worker
 * runs: services/catalogue/list-builder.ts reads pages with them, services/catalogue/search-kept.ts keeps queries with
 * them, scripts/seed.ts keeps the common words ahead of the first shopper.
 */

/** What a search looks for: names, brands and categories (with synonyms), and descriptions (as typed). */
export interface Search {
  names: string;
  details: string;
}

/** The price bands of the facet, in halalas (SAR 500, 1,500, 3,000, 6,000); migration 0018 writes the same. */
export const PRICE_BANDS: { min: number; max: number | null }[] = [
  { min: 0, max: 50_000 },
  { min: 50_000, max: 150_000 },
  { min: 150_000, max: 300_000 },
  { min: 300_000, max: 600_000 },
  { min: 600_000, max: null },
];

/** The price band of a price column, as SQL. */
export const bandOf = (column: string) =>
  `CASE ${PRICE_BANDS.slice(0, -1)
    .map((band, i) => `WHEN ${column} < ${band.max} THEN ${i}`)
    .join(" ")} ELSE ${PRICE_BANDS.length - 1} END`;

/** Name column weighs ten times the rest (sku, brand, categories) in relevance. */
export const BM25 = "bm25(product_search, 10.0, 1.0)";

/**
 * Every match of a search with what ranks it: found by name, brand or category (`named`, ranked by
 * that index's BM25) or only in its description (ranked by the description's). A named product's
 * description is not scored at all: it comes before every description-only one whatever its
 * description's score, and scoring it cost a third of ranking a common pair of words at 100,000
 * products. Each product is in one arm, so no grouping either. Parameters ?1 names and ?2 details.
 */
export const RANKED_MATCHES = `SELECT rowid AS id, 1 AS named, ${BM25} AS score FROM product_search WHERE product_search MATCH ?1
  UNION ALL SELECT rowid, 0, bm25(product_details_search) FROM product_details_search WHERE product_details_search MATCH ?2
    AND rowid NOT IN (SELECT rowid FROM product_search WHERE product_search MATCH ?1)`;

/** How many products a query matches in either index (parameters as RANKED_MATCHES): a few ms, no ranking. */
export const MATCH_COUNT = `SELECT COUNT(*) AS n FROM (SELECT rowid FROM product_search WHERE product_search MATCH ?1
  UNION SELECT rowid FROM product_details_search WHERE product_details_search MATCH ?2)`;

// ---------------------------------------------------------------------------------------------
// Kept searches (migration 0022): a query's ranked matches and facet cells, kept under the
// `search` version they were ranked in.

/** A query matching at least this many products is kept: under it, ranking afresh costs a few ms. */
export const KEEP_MIN_MATCHES = 1_000;

/**
 * The catalogue's common phrases, for keeping ahead of the first shopper as its common words are
 * (scripts/seed.ts): every two words that stand side by side in at least ?1 shown products' names,
 * in either language, as `phrase` with how many products hold it (`n`). A phrase of common words
 * ("fast charger", "شاحن سريع") matches thousands and is the name of a kind of product, what
 * shoppers type; without a kept copy its first search ranks every match. Words are split at spaces
 * and compared lower-cased; the search the seed keeps for each normalises them as a shopper's does.
 */
export const COMMON_PHRASES = `WITH RECURSIVE words(id, prev, word, rest) AS (
    SELECT id, '', '', lower(name_en) || ' ' FROM products WHERE active = 1
    UNION ALL SELECT id, '', '', lower(name_ar) || ' ' FROM products WHERE active = 1
    UNION ALL SELECT id, word, substr(rest, 1, instr(rest, ' ') - 1), substr(rest, instr(rest, ' ') + 1)
      FROM words WHERE rest <> ''
  )
  SELECT prev || ' ' || word AS phrase, COUNT(DISTINCT id) AS n FROM words
  WHERE prev <> '' AND word <> '' GROUP BY 1 HAVING n >= ?1 ORDER BY n DESC, phrase`;

/** How many stale copies of other queries a keep also clears, so old copies do not pile up. */
const CLEAR_STALE = 2;

/** The `search` version, as SQL: a statement reading it, and the same as a value. */
export const SEARCH_VERSION_VALUE = "SELECT value FROM versions WHERE name = 'search'";
export const SEARCH_VERSION = `(${SEARCH_VERSION_VALUE})`;

/** The id of the query's kept copy of the current version, as SQL (null when it has none); parameters ?1 and ?2. */
export const KEPT_ID = `(SELECT id FROM search_kept WHERE names = ?1 AND details = ?2 AND version = ${SEARCH_VERSION})`;

/**
 * What a search reads with its page, in one row (parameters ?1 and ?2): the `search` version; the
 * version of the query's kept copy (null: none; another: stale); and whether the shop holds any
 * copy of the current version (a small shop never does: services/catalogue/search-kept.ts).
 */
export const SEARCH_STATE = `SELECT v.value AS version,
  (SELECT version FROM search_kept WHERE names = ?1 AND details = ?2) AS kept,
  EXISTS (SELECT 1 FROM search_kept WHERE version = v.value) AS any_kept
  FROM versions v WHERE v.name = 'search'`;

/**
 * A LIMIT clause that is 0 when the query has a kept copy of the current version, and none when
 * it has not (two plain `?` parameters where it stands: names, details). A statement that ranks
 * afresh ends with it when it shares a batch with the kept copy's reads, so a search costs one
 * round trip either way: SQLite tests a LIMIT of 0 before its first row, so with a current copy
 * the fresh ranking reads nothing (0.2 ms against 80 ms for a word in 14,000 products).
 */
export const UNLESS_KEPT = `LIMIT CASE WHEN (SELECT id FROM search_kept WHERE names = ? AND details = ? AND version = ${SEARCH_VERSION}) IS NULL THEN -1 ELSE 0 END`;

/**
 * The statements that (re)keep one query, run as one batch so the copy is of one version: its old
 * copy is replaced, its matches are ranked once (shown ones only: hiding a product takes it out
 * of every copy, migration 0022) and its cells counted from them. A few stale copies of other queries lose their rows
 * and cells too, so old copies do not pile up; their own row stays, at version 0, to remember the
 * query was worth keeping (the next search for it keeps it again). Parameters ?1 names and ?2
 * details in every statement.
 */
export function keepStatements(): string[] {
  const kept = "(SELECT id FROM search_kept WHERE names = ?1 AND details = ?2)";
  const others = `SELECT id FROM (SELECT id FROM search_kept
    WHERE version BETWEEN 1 AND ${SEARCH_VERSION} - 1 AND NOT (names = ?1 AND details = ?2) ORDER BY id LIMIT ${CLEAR_STALE})`;
  return [
    `DELETE FROM search_kept_rows WHERE kept_id IN (SELECT id FROM search_kept WHERE names = ?1 AND details = ?2 UNION ALL ${others})`,
    `DELETE FROM search_kept_cells WHERE kept_id IN (SELECT id FROM search_kept WHERE names = ?1 AND details = ?2 UNION ALL ${others})`,
    `UPDATE search_kept SET version = 0 WHERE id IN (${others})`,
    `DELETE FROM search_kept WHERE names = ?1 AND details = ?2`,
    `INSERT INTO search_kept (names, details, version) VALUES (?1, ?2, ${SEARCH_VERSION})`,
    `INSERT INTO search_kept_rows (kept_id, named, available, score, featured, product_id, brand_id)
     SELECT ${kept}, s.named, p.stock > 0, s.score, p.is_featured, p.id, IFNULL(p.brand_id, 0)
     FROM (${RANKED_MATCHES}) s CROSS JOIN product_ranks p ON p.id = s.id WHERE p.active = 1`,
    `INSERT INTO search_kept_cells (kept_id, category_id, brand_id, band, in_stock, n)
     SELECT r.kept_id, p.category_id, r.brand_id, ${bandOf("p.price")}, r.available, COUNT(*)
     FROM search_kept_rows r CROSS JOIN product_ranks p ON p.id = r.product_id
     WHERE r.kept_id = ${kept} GROUP BY 2, 3, 4, 5`,
  ];
}

// ---------------------------------------------------------------------------------------------
// Kept suggestions (migration 0024): type-ahead's window of a prefix that matches many products,
// kept under the `search` version it was ranked in. Parameter ?1 is the match expression.

/**
 * Type-ahead chooses among the best-matching few dozen (in stock first): a two-letter prefix can
 * match tens of thousands of products, and joining every one to its stock costs more than typing.
 */
export const SUGGEST_WINDOW = 64;

/** The window ranked afresh: the best matches by name, ties by id. BM25 reads every match. */
export const SUGGEST_RANKED = `SELECT rowid AS id, ${BM25} AS score FROM product_search WHERE product_search MATCH ?1
  ORDER BY score, rowid LIMIT ${SUGGEST_WINDOW}`;

/** A window as it is kept: its rows' [id, score] pairs as a JSON array (an aggregate over `id`, `score`). */
export const WINDOW_JSON = "json_group_array(json_array(id, score))";

/** The kept window of the current version (no rows when none is kept, or it is stale). */
export const SUGGEST_KEPT = `SELECT j.value ->> 0 AS id, j.value ->> 1 AS score
  FROM search_kept_suggestions k, json_each(k.ranked) j WHERE k.query = ?1 AND k.version = ${SEARCH_VERSION}`;

/** Whether the prefix has a kept window, and whether it is of the current version. */
export const SUGGEST_KEPT_CHECK = `SELECT version = ${SEARCH_VERSION} AS current FROM search_kept_suggestions WHERE query = ?1`;

/** At most this many windows are kept: anyone can type, and each distinct prefix is a row. */
export const MAX_KEPT_SUGGESTIONS = 5_000;

/**
 * Whether a prefix's window is worth keeping: it matches ?2 products or more (KEEP_MIN_MATCHES,
 * counted no further), and fewer than ?3 other windows of the current version are kept
 * (MAX_KEPT_SUGGESTIONS).
 */
export const SUGGEST_KEEPABLE = `SELECT
  (SELECT COUNT(*) FROM (SELECT 1 FROM product_search WHERE product_search MATCH ?1 LIMIT ?2)) = ?2
  AND (SELECT COUNT(*) FROM search_kept_suggestions WHERE query <> ?1 AND version = ${SEARCH_VERSION}) < ?3
  AS keepable`;

/**
 * Keeps a prefix's window, clearing the windows of an older version first (they are never read
 * again): ranked here (`rank`, the seed), or as type-ahead's answer ranked it (`given`: ?2 the
 * version it was ranked under, ?3 its WINDOW_JSON), so keeping after an answer ranks nothing again.
 */
export function keepSuggestionStatements(window: "rank" | "given"): string[] {
  return [
    `DELETE FROM search_kept_suggestions WHERE version <> ${SEARCH_VERSION}`,
    `INSERT INTO search_kept_suggestions (query, version, ranked)
     ${window === "rank" ? `SELECT ?1, ${SEARCH_VERSION}, ${WINDOW_JSON} FROM (${SUGGEST_RANKED}) WHERE true` : "VALUES (?1, ?2, ?3)"}
     ON CONFLICT (query) DO UPDATE SET version = excluded.version, ranked = excluded.ranked`,
  ];
}
