import { Form } from "react-router";
import type { Route } from "./+types/audit";
import type { AuditEntry } from "../../../contract/console";
import { shopMoment } from "../../../contract/shop-time";
import { DataTable, type Column } from "../../components/console/DataTable";
import { listAudit, listParams } from "../../lib/api/console";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";
import { auditActionName, auditChanges, auditRecordName, auditRecordPath } from "../../lib/audit-log";
import { consoleFormat } from "../../lib/console-format";
import { Link } from "../../lib/link";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.audit");

export async function loader(args: Route.LoaderArgs) {
  const url = args.url;
  return consoleLoad(args, async (api) => {
    const list = await listAudit(api, listParams(url, ["search", "entity", "entity_id"]));
    return { rows: list.data, meta: list.meta, search: url.searchParams.get("search") ?? "" };
  });
}

/** What a line changed, one field a line: "Status: Paid → Processing", read aloud as "changed from … to …". */
function Changes({ entry }: { entry: AuditEntry }) {
  const t = useT();
  const locale = useLocale();
  const changes = auditChanges(t, consoleFormat(locale), entry);
  if (!changes.length) return <span aria-hidden="true">—</span>;
  return (
    <ul className="console-audit__changes">
      {changes.map((c) => (
        <li key={c.field}>
          <span className="console-audit__field">{c.label}</span>
          {t("console.auditLog.colon")}
          {c.before !== null && c.after !== null ? (
            <>
              <del>
                <span className="visually-hidden">{t("console.auditLog.from")}</span>
                <bdi>{c.before}</bdi>
              </del>{" "}
              <span aria-hidden="true">{t("console.auditLog.arrow")}</span>{" "}
              <ins>
                <span className="visually-hidden">{t("console.auditLog.to")}</span>
                <bdi>{c.after}</bdi>
              </ins>
            </>
          ) : c.after !== null ? (
            <bdi>{c.after}</bdi>
          ) : (
            <del>
              <bdi>{c.before}</bdi>
            </del>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The record a line is about, by name, linked to its page where it has one. */
function Record({ entry }: { entry: AuditEntry }) {
  const t = useT();
  const to = useLocalePath();
  const name = auditRecordName(t, entry.entity, entry.record);
  const path = auditRecordPath(entry.record);
  return path ? (
    <Link to={to(path)}>
      <bdi>{name}</bdi>
    </Link>
  ) : (
    <bdi>{name}</bdi>
  );
}

/** The audit log (owners): who did what, with the record before and after. */
export default function ConsoleAudit({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const columns: Column<AuditEntry>[] = [
    { label: t("console.audit.when"), sort: "created_at", cell: (r) => shopMoment(r.created_at, locale) },
    { label: t("console.audit.who"), sort: "staff_email", cell: (r) => <bdi dir="ltr">{r.staff_email}</bdi> },
    { label: t("console.audit.action"), sort: "action", cell: (r) => auditActionName(t, r.action) },
    { label: t("console.audit.record"), cell: (r) => <Record entry={r} /> },
    { label: t("console.auditLog.changes"), cell: (r) => <Changes entry={r} /> },
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
