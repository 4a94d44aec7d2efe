import type { Route } from "./+types/categories";
import type { ConsoleCategory } from "../../../contract/console-content";
import { bilingualColumns, ContentList } from "../../components/console/ContentList";
import type { Column } from "../../components/console/DataTable";
import { listParams } from "../../lib/api/console";
import { allCategories, listCategories } from "../../lib/api/console-content";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { consoleFormat } from "../../lib/console-format";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.categories");

export async function loader(args: Route.LoaderArgs) {
  const url = args.url;
  return consoleLoad(
    args,
    async (api) => {
      const [list, all] = await Promise.all([listCategories(api, listParams(url, ["search"])), allCategories(api)]);
      // Parents by id, to name each row's parent (the tree is small: one page holds it).
      const parents = Object.fromEntries(all.data.map((c) => [c.id, { en: c.name_en, ar: c.name_ar }]));
      return { rows: list.data, meta: list.meta, parents, search: url.searchParams.get("search") ?? "" };
    },
    { role: "manager" },
  );
}

/** Categories (managers and owners): the tree's nodes with their parent and product counts. */
export default function ConsoleCategories({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const f = consoleFormat(locale);
  const columns: Column<ConsoleCategory>[] = [
    ...bilingualColumns<ConsoleCategory>(
      t,
      (r) => to(`/admin/categories/${r.id}`),
      "name",
      (r) => ({ en: r.name_en, ar: r.name_ar }),
      { en: "name_en", ar: "name_ar" },
    ),
    { label: t("console.fields.slug"), sort: "slug", cell: (r) => <bdi dir="ltr">{r.slug}</bdi> },
    {
      label: t("console.fields.parent_id"),
      cell: (r) => {
        const p = r.parent_id ? loaderData.parents[r.parent_id] : undefined;
        return p ? <bdi>{p[locale]}</bdi> : "—";
      },
    },
    { label: t("console.categories.products"), sort: "products", numeric: true, cell: (r) => f.number(r.products) },
    { label: t("console.fields.sort_order"), sort: "sort_order", numeric: true, cell: (r) => f.number(r.sort_order) },
  ];
  return (
    <ContentList
      area="categories"
      columns={columns}
      rows={loaderData.rows}
      meta={loaderData.meta}
      search={loaderData.search}
    />
  );
}
