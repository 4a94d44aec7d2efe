import type { Route } from "./+types/brand-edit";
import { CONTENT_LIMITS, type ConsoleBrand } from "../../../contract/console-content";
import { ContentEditor, type EditorRow } from "../../components/console/ContentEditor";
import { createBrand, deleteBrand, getBrand, updateBrand } from "../../lib/api/console-content";
import { consoleLoad, consoleMeta, notFoundResponse } from "../../lib/console";
import { useLocale, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.brands");

export async function loader(args: Route.LoaderArgs) {
  const { id } = args.params;
  if (id !== "new" && !/^[1-9]\d{0,15}$/.test(id)) throw notFoundResponse();
  return consoleLoad(args, async (api) => ({ brand: id === "new" ? null : (await getBrand(api, Number(id))).data }), {
    role: "manager",
  });
}

/** A brand (managers and owners): names side by side and its slug. */
export default function ConsoleBrandEdit({ loaderData }: Route.ComponentProps) {
  return <BrandPage key={loaderData.brand?.id ?? "new"} brand={loaderData.brand} />;
}

function BrandPage({ brand }: { brand: ConsoleBrand | null }) {
  const t = useT();
  const locale = useLocale();
  const name = brand ? (locale === "ar" ? brand.name_ar : brand.name_en) : "";
  const rows: EditorRow[] = [
    {
      pair: [
        { name: "name_en", required: true, max: CONTENT_LIMITS.name },
        { name: "name_ar", required: true, max: CONTENT_LIMITS.name },
      ],
    },
    { fields: [{ name: "slug", required: true, max: CONTENT_LIMITS.slug, dir: "ltr" }] },
  ];
  return (
    <ContentEditor
      rows={rows}
      isNew={!brand}
      listPath="/admin/brands"
      initial={{ name_en: brand?.name_en ?? "", name_ar: brand?.name_ar ?? "", slug: brand?.slug ?? "" }}
      strings={{
        title: brand ? name : t("console.brands.newTitle"),
        back: t("console.brands.back"),
        saved: t("console.brands.saved"),
        created: t("console.brands.created"),
        deleteTitle: t("console.brands.deleteTitle", { name }),
        deleteBody: t("console.brands.deleteBody"),
      }}
      save={(api, v) => {
        const input = {
          slug: (v.slug ?? "").trim(),
          name_en: (v.name_en ?? "").trim(),
          name_ar: (v.name_ar ?? "").trim(),
        };
        return brand ? updateBrand(api, brand.id, input) : createBrand(api, input);
      }}
      remove={brand ? (api) => deleteBrand(api, brand.id) : undefined}
    />
  );
}
