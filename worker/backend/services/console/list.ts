import * as v from "valibot";
import {
  CONSOLE_PER_PAGE_DEFAULT,
  CONSOLE_PER_PAGE_MAX,
  SORT_DIRECTIONS,
  type ConsoleListMeta,
  type SortDirection,
} from "../../../../contract/console";
import { queryInt } from "../../validate";

/**
 * Console lists sort and page on the server: every list takes `page`, `per_page`,
 * `sort` (one of the columns the list names) and `dir`, and answers its rows with ConsoleListMeta.
 * Sorting goes by a column the list maps the name to, never by text from the request.
 */
export interface ListQuery {
  page: number;
  per_page: number;
  sort: string;
  dir: SortDirection;
}

/** The query schema of a list sortable by `columns` (first is the default unless `defaultSort`). */
export function listQuerySchema<C extends string>(
  columns: readonly [C, ...C[]],
  defaults: { sort?: C; dir?: SortDirection } = {},
) {
  return {
    page: queryInt(1, 100_000, 1),
    per_page: queryInt(1, CONSOLE_PER_PAGE_MAX, CONSOLE_PER_PAGE_DEFAULT),
    sort: v.optional(v.picklist(columns, `Sort by one of: ${columns.join(", ")}.`), defaults.sort ?? columns[0]),
    dir: v.optional(v.picklist(SORT_DIRECTIONS, "Sort asc or desc."), defaults.dir ?? "desc"),
  };
}

/**
 * Runs a paged, sorted SELECT: `from` is everything after SELECT's columns (FROM ... WHERE ...),
 * `columns` maps each sort name to its SQL expression. Answers the rows and the list's meta.
 */
export async function pageOf<Row>(
  db: D1Database,
  select: string,
  from: string,
  binds: unknown[],
  query: ListQuery,
  columns: Record<string, string>,
): Promise<{ rows: Row[]; meta: ConsoleListMeta }> {
  const order = columns[query.sort] ?? Object.values(columns)[0];
  const offset = (query.page - 1) * query.per_page;
  const [count, rows] = await db.batch([
    db.prepare(`SELECT COUNT(*) AS n ${from}`).bind(...binds),
    db
      .prepare(`SELECT ${select} ${from} ORDER BY ${order} ${query.dir === "asc" ? "ASC" : "DESC"}, 1 LIMIT ? OFFSET ?`)
      .bind(...binds, query.per_page, offset),
  ]);
  const total = (count.results[0] as { n: number } | undefined)?.n ?? 0;
  return {
    rows: rows.results as Row[],
    meta: {
      page: query.page,
      per_page: query.per_page,
      total,
      last_page: Math.max(1, Math.ceil(total / query.per_page)),
      sort: query.sort,
      dir: query.dir,
    },
  };
}

/**
 * "The column contains the text", case-insensitive for Latin letters, as a WHERE term with one
 * bind. instr(), not LIKE: D1 refuses LIKE patterns over 50 bytes ("pattern too complex"), and a
 * search needs no wildcards to escape.
 */
export const contains = (column: string) => `instr(lower(${column}), lower(?)) > 0`;
