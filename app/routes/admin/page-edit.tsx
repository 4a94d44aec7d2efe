import type { Route } from "./+types/page-edit";
import { Link } from "../../lib/link";
import { CONTENT_LIMITS, type ConsolePage } from "../../../contract/console-content";
import { ContentEditor, wholeOf, type EditorRow } from "../../components/console/ContentEditor";
import { createContentPage, deleteContentPage, getContentPage, updateContentPage } from "../../lib/api/console-content";
import { consoleLoad, consoleMeta, notFoundResponse } from "../../lib/console";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.pages");

export async function loader(args: Route.LoaderArgs) {
  const { id } = args.params;
  if (id !== "new" && !/^[1-9]\d{0,15}$/.test(id)) throw notFoundResponse();
  return consoleLoad(
    args,
    async (api) => ({
      page: id === "new" ? null : (await getContentPage(api, Number(id))).data,
    }),
    { role: "manager" },
  );
}

/** A content page (managers and owners): title, excerpt and text side by side in both languages. */
export default function ConsolePageEdit({ loaderData }: Route.ComponentProps) {
  return <PageEditor key={loaderData.page?.id ?? "new"} page={loaderData.page} />;
}

function PageEditor({ page }: { page: ConsolePage | null }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const title = page ? (locale === "ar" ? page.title_ar : page.title_en) : "";
  const pair = (base: string, max: number, kind?: "multiline", rows?: number): EditorRow => ({
    pair: [
      { name: `${base}_en`, required: true, max, kind, rows },
      { name: `${base}_ar`, required: true, max, kind, rows },
    ],
  });
  const rows: EditorRow[] = [
    pair("title", CONTENT_LIMITS.title),
    pair("excerpt", CONTENT_LIMITS.excerpt, "multiline", 2),
    {
      pair: [
        { name: "body_en", required: true, kind: "multiline", rows: 12, hint: t("console.pages.bodyHint") },
        { name: "body_ar", required: true, kind: "multiline", rows: 12, hint: t("console.pages.bodyHint") },
      ],
    },
    {
      fields: [
        { name: "slug", required: true, max: CONTENT_LIMITS.slug, dir: "ltr" },
        { name: "sort_order", kind: "number", dir: "ltr" },
      ],
    },
  ];
  return (
    <>
      <ContentEditor
        rows={rows}
        isNew={!page}
        listPath="/admin/pages"
        initial={{
          title_en: page?.title_en ?? "",
          title_ar: page?.title_ar ?? "",
          excerpt_en: page?.excerpt_en ?? "",
          excerpt_ar: page?.excerpt_ar ?? "",
          body_en: page?.body_en ?? "",
          body_ar: page?.body_ar ?? "",
          slug: page?.slug ?? "",
          sort_order: String(page?.sort_order ?? 0),
        }}
        strings={{
          title: page ? title : t("console.pages.newTitle"),
          back: t("console.pages.back"),
          saved: t("console.pages.saved"),
          created: t("console.pages.created"),
          deleteTitle: t("console.pages.deleteTitle", { name: title }),
          deleteBody: t("console.pages.deleteBody"),
        }}
        save={(api, v) => {
          const input = {
            slug: (v.slug ?? "").trim(),
            title_en: (v.title_en ?? "").trim(),
            title_ar: (v.title_ar ?? "").trim(),
            excerpt_en: (v.excerpt_en ?? "").trim(),
            excerpt_ar: (v.excerpt_ar ?? "").trim(),
            body_en: (v.body_en ?? "").trim(),
            body_ar: (v.body_ar ?? "").trim(),
            sort_order: wholeOf(v.sort_order),
          };
          return page ? updateContentPage(api, page.id, input) : createContentPage(api, input);
        }}
        remove={page ? (api) => deleteContentPage(api, page.id) : undefined}
      />
      {page ? (
        <p>
          <Link to={to(`/page/${page.slug}`)}>{t("console.pages.view")}</Link>
        </p>
      ) : null}
    </>
  );
}
