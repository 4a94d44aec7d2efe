import { Form } from "react-router";
import { Link } from "../../lib/link";
import type { ConsoleListMeta } from "../../../contract/console";
import { useLocalePath, useT } from "../../lib/use-locale";
import { DataTable, type Column } from "./DataTable";

/**
 * A content list page of the console (categories, brands, services, pages): its title with a "new"
 * link, an optional search, and the server-sorted table.
 */
export function ContentList<Row extends { id: number }>({
  area,
  columns,
  rows,
  meta,
  search,
}: {
  /** The console path and message section: "categories" → /admin/categories, console.categories.new. */
  area: "categories" | "brands" | "services" | "pages";
  columns: Column<Row>[];
  rows: Row[];
  meta: ConsoleListMeta;
  /** The search box's current text; undefined: the list has no search. */
  search?: string;
}) {
  const t = useT();
  const to = useLocalePath();
  const title = t(`console.nav.${area}`);
  return (
    <>
      <div className="console-titlebar">
        <h1>{title}</h1>
        <Link to={to(`/admin/${area}/new`)} className="button">
          {t(`console.${area}.new`)}
        </Link>
      </div>
      {search !== undefined ? (
        <Form method="get" className="console-filters" role="search">
          <div className="field">
            <label htmlFor={`${area}-search`}>{t("console.fields.search")}</label>
            <input id={`${area}-search`} name="search" type="search" defaultValue={search} />
          </div>
          <button type="submit" className="button">
            {t("console.filters.apply")}
          </button>
        </Form>
      ) : null}
      <DataTable
        caption={title}
        columns={columns}
        rows={rows}
        meta={meta}
        rowKey={(r) => r.id}
        empty={t("console.table.empty")}
      />
    </>
  );
}

/**
 * The English and Arabic name (or title) columns, each in its own language and direction; the
 * English one links to the record's page.
 */
export function bilingualColumns<Row extends { id: number }>(
  t: (key: string) => string,
  href: (row: Row) => string,
  field: "name" | "title",
  text: (row: Row) => { en: string; ar: string },
  sorts: { en?: string; ar?: string } = {},
): Column<Row>[] {
  return [
    {
      label: t(`console.fields.${field}_en`),
      sort: sorts.en,
      cell: (r) => (
        <Link to={href(r)} lang="en" dir="ltr">
          {text(r).en}
        </Link>
      ),
    },
    {
      label: t(`console.fields.${field}_ar`),
      sort: sorts.ar,
      cell: (r) => (
        <bdi lang="ar" dir="rtl">
          {text(r).ar}
        </bdi>
      ),
    },
  ];
}
