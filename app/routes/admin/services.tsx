import type { Route } from "./+types/services";
import type { ConsoleService } from "../../../contract/console-content";
import { bilingualColumns, ContentList } from "../../components/console/ContentList";
import type { Column } from "../../components/console/DataTable";
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
      const list = await listServices(api, listParams(args.url));
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
    ...bilingualColumns<ConsoleService>(
      t,
      (r) => to(`/admin/services/${r.id}`),
      "name",
      (r) => ({ en: r.name_en, ar: r.name_ar }),
      { en: "name_en" },
    ),
    { label: t("console.fields.slug"), sort: "slug", cell: (r) => <bdi dir="ltr">{r.slug}</bdi> },
    { label: t("console.fields.price_from"), sort: "price_from", numeric: true, cell: (r) => f.money(r.price_from) },
    { label: t("console.fields.sort_order"), sort: "sort_order", numeric: true, cell: (r) => f.number(r.sort_order) },
  ];
  return <ContentList area="services" columns={columns} rows={loaderData.rows} meta={loaderData.meta} />;
}
