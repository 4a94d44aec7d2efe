import { Link } from "react-router";
import type { Route } from "./+types/services";
import type { ConsoleService } from "../../../contract/console-content";
import { DataTable, type Column } from "../../components/console/DataTable";
import { listParams } from "../../lib/api/console";
import { listServices } from "../../lib/api/console-content";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { consoleFormat } from "../../lib/console-format";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.services");

export async function loader(args: Route.LoaderArgs) {
  return consoleLoad(
    args,
    async (api) => {
      const list = await listServices(api, listParams(new URL(args.request.url)));
      return { rows: list.data, meta: list.meta };
    },
    { role: "manager" },
  );
}

/** Services (managers and owners): what the shop offers besides products, with a starting price. */
export default function ConsoleServices({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const f = consoleFormat(locale);
  const columns: Column<ConsoleService>[] = [
    {
      label: t("console.fields.name_en"),
      sort: "name_en",
      cell: (r) => (
        <Link to={to(`/admin/services/${r.id}`)} lang="en" dir="ltr">
          {r.name_en}
        </Link>
      ),
    },
    {
      label: t("console.fields.name_ar"),
      cell: (r) => (
        <bdi lang="ar" dir="rtl">
          {r.name_ar}
        </bdi>
      ),
    },
    { label: t("console.fields.slug"), sort: "slug", cell: (r) => <bdi dir="ltr">{r.slug}</bdi> },
    { label: t("console.fields.price_from"), sort: "price_from", numeric: true, cell: (r) => f.money(r.price_from) },
    { label: t("console.fields.sort_order"), sort: "sort_order", numeric: true, cell: (r) => f.number(r.sort_order) },
  ];
  return (
    <>
      <div className="console-titlebar">
        <h1>{t("console.nav.services")}</h1>
        <Link to={to("/admin/services/new")} className="button">
          {t("console.services.new")}
        </Link>
      </div>
      <DataTable
        caption={t("console.nav.services")}
        columns={columns}
        rows={loaderData.rows}
        meta={loaderData.meta}
        rowKey={(r) => r.id}
        empty={t("console.table.empty")}
      />
    </>
  );
}
