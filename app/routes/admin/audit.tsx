import { Form } from "react-router";
import type { Route } from "./+types/audit";
import type { AuditEntry } from "../../../contract/console";
import { shopMoment } from "../../../contract/shop-time";
import { DataTable, type Column } from "../../components/console/DataTable";
import { listAudit, listParams } from "../../lib/api/console";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { useLocale, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.audit");

export async function loader(args: Route.LoaderArgs) {
  const url = args.url;
  return consoleLoad(args, async (api) => {
    const list = await listAudit(api, listParams(url, ["search", "entity", "entity_id"]));
    return { rows: list.data, meta: list.meta, search: url.searchParams.get("search") ?? "" };
  });
}

/** A record as JSON, short enough for a table cell; the whole of it in a disclosure. */
function Change({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span aria-hidden="true">—</span>;
  const text = JSON.stringify(value, null, 1);
  return (
    <details>
      <summary dir="ltr">{text.length > 48 ? `${text.replace(/\s+/g, " ").slice(0, 48)}…` : text}</summary>
      <pre dir="ltr">{text}</pre>
    </details>
  );
}

/** The audit log (owners): who did what, with the record before and after. */
export default function ConsoleAudit({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const columns: Column<AuditEntry>[] = [
    { label: t("console.audit.when"), sort: "created_at", cell: (r) => shopMoment(r.created_at, locale) },
    { label: t("console.audit.who"), sort: "staff_email", cell: (r) => <bdi dir="ltr">{r.staff_email}</bdi> },
    { label: t("console.audit.action"), sort: "action", cell: (r) => <code dir="ltr">{r.action}</code> },
    {
      label: t("console.audit.record"),
      cell: (r) => (
        <bdi dir="ltr">
          {r.entity}
          {r.entity_id ? ` #${r.entity_id}` : ""}
        </bdi>
      ),
    },
    { label: t("console.audit.before"), cell: (r) => <Change value={r.before} /> },
    { label: t("console.audit.after"), cell: (r) => <Change value={r.after} /> },
  ];
  return (
    <>
      <h1>{t("console.nav.audit")}</h1>
      <Form method="get" className="console-filters" role="search">
        <div className="field">
          <label htmlFor="audit-search">{t("console.audit.search")}</label>
          <input id="audit-search" name="search" type="search" defaultValue={loaderData.search} dir="auto" />
        </div>
        <button type="submit" className="button">
          {t("console.filters.apply")}
        </button>
      </Form>
      <DataTable
        caption={t("console.nav.audit")}
        columns={columns}
        rows={loaderData.rows}
        meta={loaderData.meta}
        rowKey={(r) => r.id}
        empty={t("console.table.empty")}
      />
    </>
  );
}
