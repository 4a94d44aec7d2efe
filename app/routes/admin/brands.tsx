import type { Route } from "./+types/brands";
import type { ConsoleBrand } from "../../../contract/console-content";
import { bilingualColumns, ContentList } from "../../components/console/ContentList";
import type { Column } from "../../components/console/DataTable";
import { listParams } from "../../lib/api/console";
import { listBrands } from "../../lib/api/console-content";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { consoleFormat } from "../../lib/console-format";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.brands");

export async function loader(args: Route.LoaderArgs) {
  const url = args.url;
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
    ...bilingualColumns<ConsoleBrand>(
      t,
      (r) => to(`/admin/brands/${r.id}`),
      "name",
      (r) => ({ en: r.name_en, ar: r.name_ar }),
      { en: "name_en", ar: "name_ar" },
    ),
    { label: t("console.fields.slug"), sort: "slug", cell: (r) => <bdi dir="ltr">{r.slug}</bdi> },
    { label: t("console.brands.products"), sort: "products", numeric: true, cell: (r) => f.number(r.products) },
  ];
  return (
    <ContentList
      area="brands"
      columns={columns}
      rows={loaderData.rows}
      meta={loaderData.meta}
      search={loaderData.search}
    />
  );
}
