import type { ReactNode } from "react";
import { useLocation } from "react-router";
import { Link } from "../../lib/link";
import type { ConsoleListMeta } from "../../../contract/console";
import { useT } from "../../lib/use-locale";
import { Pagination } from "../Pagination";

export interface Column<Row> {
  /** The sort name the backend knows, when the column sorts. */
  sort?: string;
  label: string;
  cell: (row: Row) => ReactNode;
  /** Numbers and money line up at the end of the cell. */
  numeric?: boolean;
  /** What the header cell shows instead of `label` (a "select all" box); `label` stays the column's key. */
  header?: ReactNode;
}

/** The current URL with some search parameters replaced (undefined removes one). */
export function withParams(search: string, pathname: string, changes: Record<string, string | undefined>): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === "") params.delete(key);
    else params.set(key, value);
  }
  const qs = params.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}

/**
 * A console table, sorted and paged on the server: a sortable column's header is a link that asks
 * for that sort (again: the other direction), so sorting and paging work without JavaScript, keep
 * their URL, and use the keyboard like any link. aria-sort tells screen readers the current order.
 * Without `meta` it is a plain table of what it was given (a customer's orders, the dashboard's
 * latest): no sort links, count or pages. `labelledBy` names the table by a heading on the page.
 * `params` renames its URL parameters, for a second sorted table on one page (Inventory's waiting
 * demand beside its ledger).
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  meta,
  rowKey,
  empty,
  labelledBy,
  params = { sort: "sort", dir: "dir", page: "page" },
}: {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  meta?: ConsoleListMeta;
  rowKey: (row: Row) => string | number;
  empty: string;
  labelledBy?: string;
  params?: { sort: string; dir: string; page: string };
}) {
  const t = useT();
  const { pathname, search } = useLocation();
  return (
    <div className="console-table">
      {/* A table wider than the screen scrolls in its own region, which keyboards must reach. */}
      <div
        className="console-table__scroll"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (axe: scrollable-region-focusable)
        tabIndex={0}
        role="region"
        aria-label={labelledBy ? undefined : caption}
        aria-labelledby={labelledBy}
      >
        <table>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((col) => {
                const active = meta !== undefined && col.sort !== undefined && col.sort === meta.sort;
                const next = active && meta.dir === "asc" ? "desc" : "asc";
                return (
                  <th
                    key={col.label}
                    scope="col"
                    className={col.numeric ? "is-numeric" : undefined}
                    aria-sort={active ? (meta.dir === "asc" ? "ascending" : "descending") : undefined}
                  >
                    {col.header !== undefined ? (
                      col.header
                    ) : col.sort && meta ? (
                      <Link
                        to={withParams(search, pathname, {
                          [params.sort]: col.sort,
                          [params.dir]: next,
                          [params.page]: undefined,
                        })}
                        preventScrollReset
                        aria-label={t("console.table.sortBy", { column: col.label })}
                      >
                        {col.label}
                        <span aria-hidden="true" className="console-table__arrow">
                          {active ? (meta.dir === "asc" ? "▲" : "▼") : "↕"}
                        </span>
                      </Link>
                    ) : (
                      col.label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="console-table__empty">
                  {empty}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((col) => (
                    <td key={col.label} className={col.numeric ? "is-numeric" : undefined}>
                      {col.cell(row)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {meta ? (
        <>
          <p className="console-table__count">{t("console.table.count", { total: meta.total })}</p>
          <Pagination
            page={meta.page}
            last={meta.last_page}
            href={(page) => withParams(search, pathname, { [params.page]: page === 1 ? undefined : String(page) })}
          />
        </>
      ) : null}
    </div>
  );
}
