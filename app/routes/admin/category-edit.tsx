import type { Route } from "./+types/category-edit";
import { CONTENT_LIMITS, type ConsoleCategory } from "../../../contract/console-content";
import { ContentEditor, wholeOf, type EditorRow } from "../../components/console/ContentEditor";
import {
  allCategories,
  createCategory,
  deleteCategory,
  getCategory,
  updateCategory,
} from "../../lib/api/console-content";
import { consoleLoad, consoleMeta, notFoundResponse } from "../../lib/console";
import { useLocale, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.categories");

export async function loader(args: Route.LoaderArgs) {
  const { id } = args.params;
  if (id !== "new" && !/^[1-9]\d{0,15}$/.test(id)) throw notFoundResponse();
  return consoleLoad(
    args,
    async (api) => {
      const [category, all] = await Promise.all([
        id === "new" ? null : getCategory(api, Number(id)).then((r) => r.data),
        allCategories(api),
      ]);
      return { category, categories: all.data };
    },
    { role: "manager" },
  );
}

/** A category (managers and owners): names side by side, its place in the tree, icon and order. */
export default function ConsoleCategoryEdit({ loaderData }: Route.ComponentProps) {
  const { category, categories } = loaderData;
  return <CategoryPage key={category?.id ?? "new"} category={category} categories={categories} />;
}

function CategoryPage({ category, categories }: { category: ConsoleCategory | null; categories: ConsoleCategory[] }) {
  const t = useT();
  const locale = useLocale();
  const name = (c: ConsoleCategory) => (locale === "ar" ? c.name_ar : c.name_en);
  const rows: EditorRow[] = [
    {
      pair: [
        { name: "name_en", required: true, max: CONTENT_LIMITS.name },
        { name: "name_ar", required: true, max: CONTENT_LIMITS.name },
      ],
    },
    {
      fields: [
        { name: "slug", required: true, max: CONTENT_LIMITS.slug, dir: "ltr", hint: t("console.categories.slugHint") },
        {
          name: "parent_id",
          kind: "select",
          options: [
            { value: "", label: t("console.categories.topLevel") },
            ...categories.filter((c) => c.id !== category?.id).map((c) => ({ value: String(c.id), label: name(c) })),
          ],
        },
        { name: "icon", max: CONTENT_LIMITS.icon, dir: "ltr" },
        { name: "sort_order", kind: "number", dir: "ltr" },
      ],
    },
  ];
  return (
    <ContentEditor
      rows={rows}
      isNew={!category}
      listPath="/admin/categories"
      initial={{
        name_en: category?.name_en ?? "",
        name_ar: category?.name_ar ?? "",
        slug: category?.slug ?? "",
        parent_id: category?.parent_id ? String(category.parent_id) : "",
        icon: category?.icon ?? "",
        sort_order: String(category?.sort_order ?? 0),
      }}
      strings={{
        title: category ? name(category) : t("console.categories.newTitle"),
        back: t("console.categories.back"),
        saved: t("console.categories.saved"),
        created: t("console.categories.created"),
        deleteTitle: t("console.categories.deleteTitle", { name: category ? name(category) : "" }),
        deleteBody: t("console.categories.deleteBody"),
      }}
      save={(api, v) => {
        const input = {
          slug: (v.slug ?? "").trim(),
          name_en: (v.name_en ?? "").trim(),
          name_ar: (v.name_ar ?? "").trim(),
          parent_id: v.parent_id ? Number(v.parent_id) : null,
          icon: (v.icon ?? "").trim() || null,
          sort_order: wholeOf(v.sort_order),
        };
        return category ? updateCategory(api, category.id, input) : createCategory(api, input);
      }}
      remove={category ? (api) => deleteCategory(api, category.id) : undefined}
    />
  );
}
