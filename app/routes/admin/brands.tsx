import { Form, Link } from "react-router";
import type { Route } from "./+types/brands";
import type { ConsoleBrand } from "../../../contract/console-content";
import { DataTable, type Column } from "../../components/console/DataTable";
import { listParams } from "../../lib/api/console";
import { listBrands } from "../../lib/api/console-content";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { consoleFormat } from "../../lib/console-format";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.brands");

export async function loader(args: Route.LoaderArgs) {
  const url = new URL(args.request.url);
  return consoleLoad(
    args,
    async (api) => {
      const list = await listBrands(api, listParams(url, ["search"]));
      return { rows: list.data, meta: list.meta, search: url.searchParams.get("search") ?? "" };
    },
    { role: "manager" },
  );
}

/** Brands (managers and owners). */
export default function ConsoleBrands({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const f = consoleFormat(locale);
  const columns: Column<ConsoleBrand>[] = [
    {
      label: t("console.fields.name_en"),
      sort: "name_en",
      cell: (r) => (
        <Link to={to(`/admin/brands/${r.id}`)} lang="en" dir="ltr">
          {r.name_en}
        </Link>
      ),
    },
    {
      label: t("console.fields.name_ar"),
      sort: "name_ar",
      cell: (r) => (
        <bdi lang="ar" dir="rtl">
          {r.name_ar}
        </bdi>
      ),
    },
    { label: t("console.fields.slug"), sort: "slug", cell: (r) => <bdi dir="ltr">{r.slug}</bdi> },
    { label: t("console.brands.products"), sort: "products", numeric: true, cell: (r) => f.number(r.products) },
  ];
  return (
    <>
      <div className="console-titlebar">
        <h1>{t("console.nav.brands")}</h1>
        <Link to={to("/admin/brands/new")} className="button">
          {t("console.brands.new")}
        </Link>
      </div>
      <Form method="get" className="console-filters" role="search">
        <div className="field">
          <label htmlFor="brand-search">{t("console.fields.search")}</label>
          <input id="brand-search" name="search" type="search" defaultValue={loaderData.search} />
        </div>
        <button type="submit" className="button">
          {t("console.filters.apply")}
        </button>
      </Form>
      <DataTable
        caption={t("console.nav.brands")}
        columns={columns}
        rows={loaderData.rows}
        meta={loaderData.meta}
        rowKey={(r) => r.id}
        empty={t("console.table.empty")}
      />
    </>
  );
}
