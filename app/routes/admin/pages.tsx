import type { Route } from "./+types/pages";
import type { ConsolePage } from "../../../contract/console-content";
import { bilingualColumns, ContentList } from "../../components/console/ContentList";
import type { Column } from "../../components/console/DataTable";
import { listParams } from "../../lib/api/console";
import { listContentPages } from "../../lib/api/console-content";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { consoleFormat } from "../../lib/console-format";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.pages");

export async function loader(args: Route.LoaderArgs) {
  return consoleLoad(
    args,
    async (api) => {
      const list = await listContentPages(api, listParams(args.url));
      return { rows: list.data, meta: list.meta };
    },
    { role: "manager" },
  );
}

/** Content pages (managers and owners): about, delivery, returns... in both languages. */
export default function ConsolePages({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const f = consoleFormat(locale);
  const columns: Column<ConsolePage>[] = [
    ...bilingualColumns<ConsolePage>(
      t,
      (r) => to(`/admin/pages/${r.id}`),
      "title",
      (r) => ({ en: r.title_en, ar: r.title_ar }),
      { en: "title_en" },
    ),
    { label: t("console.fields.slug"), sort: "slug", cell: (r) => <bdi dir="ltr">{r.slug}</bdi> },
    { label: t("console.pages.updated"), sort: "updated_at", cell: (r) => f.moment(r.updated_at) },
    { label: t("console.fields.sort_order"), sort: "sort_order", numeric: true, cell: (r) => f.number(r.sort_order) },
  ];
  return <ContentList area="pages" columns={columns} rows={loaderData.rows} meta={loaderData.meta} />;
}
