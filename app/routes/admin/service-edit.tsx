import type { Route } from "./+types/service-edit";
import { CONTENT_LIMITS, type ConsoleService } from "../../../contract/console-content";
import { formatMinorUnits } from "../../../contract/numbers";
import { ContentEditor, linesOf, moneyOf, wholeOf, type EditorRow } from "../../components/console/ContentEditor";
import { createService, deleteService, getService, updateService } from "../../lib/api/console-content";
import { consoleLoad, consoleMeta, notFoundResponse } from "../../lib/console";
import { useLocale, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.services");

export async function loader(args: Route.LoaderArgs) {
  const { id } = args.params;
  if (id !== "new" && !/^[1-9]\d{0,15}$/.test(id)) throw notFoundResponse();
  return consoleLoad(
    args,
    async (api) => ({
      service: id === "new" ? null : (await getService(api, Number(id))).data,
    }),
    { role: "manager" },
  );
}

/** A service (managers and owners): names, summaries, descriptions and features side by side; icon and price. */
export default function ConsoleServiceEdit({ loaderData }: Route.ComponentProps) {
  return <ServicePage key={loaderData.service?.id ?? "new"} service={loaderData.service} />;
}

const sar = (halalas: number) => formatMinorUnits(halalas);

function ServicePage({ service }: { service: ConsoleService | null }) {
  const t = useT();
  const locale = useLocale();
  const name = service ? (locale === "ar" ? service.name_ar : service.name_en) : "";
  const pair = (base: string, max: number, kind?: "multiline", rows?: number, required = true): EditorRow => ({
    pair: [
      { name: `${base}_en`, required, max, kind, rows },
      { name: `${base}_ar`, required, max, kind, rows },
    ],
  });
  const rows: EditorRow[] = [
    pair("name", CONTENT_LIMITS.name),
    pair("summary", CONTENT_LIMITS.summary, "multiline", 2),
    pair("description", CONTENT_LIMITS.description, "multiline", 6),
    {
      pair: [
        { name: "features_en", kind: "multiline", rows: 4, hint: t("console.services.featuresHint") },
        { name: "features_ar", kind: "multiline", rows: 4, hint: t("console.services.featuresHint") },
      ],
    },
    {
      fields: [
        { name: "slug", required: true, max: CONTENT_LIMITS.slug, dir: "ltr" },
        { name: "icon", required: true, max: CONTENT_LIMITS.icon, dir: "ltr" },
        { name: "price_from", required: true, kind: "money", dir: "ltr", hint: t("console.services.priceHint") },
        { name: "sort_order", kind: "number", dir: "ltr" },
      ],
    },
  ];
  return (
    <ContentEditor
      rows={rows}
      isNew={!service}
      listPath="/admin/services"
      initial={{
        name_en: service?.name_en ?? "",
        name_ar: service?.name_ar ?? "",
        summary_en: service?.summary_en ?? "",
        summary_ar: service?.summary_ar ?? "",
        description_en: service?.description_en ?? "",
        description_ar: service?.description_ar ?? "",
        features_en: (service?.features_en ?? []).join("\n"),
        features_ar: (service?.features_ar ?? []).join("\n"),
        slug: service?.slug ?? "",
        icon: service?.icon ?? "",
        price_from: service ? sar(service.price_from) : "",
        sort_order: String(service?.sort_order ?? 0),
      }}
      strings={{
        title: service ? name : t("console.services.newTitle"),
        back: t("console.services.back"),
        saved: t("console.services.saved"),
        created: t("console.services.created"),
        deleteTitle: t("console.services.deleteTitle", { name }),
        deleteBody: t("console.services.deleteBody"),
      }}
      save={(api, v) => {
        const input = {
          slug: (v.slug ?? "").trim(),
          name_en: (v.name_en ?? "").trim(),
          name_ar: (v.name_ar ?? "").trim(),
          summary_en: (v.summary_en ?? "").trim(),
          summary_ar: (v.summary_ar ?? "").trim(),
          description_en: (v.description_en ?? "").trim(),
          description_ar: (v.description_ar ?? "").trim(),
          features_en: linesOf(v.features_en),
          features_ar: linesOf(v.features_ar),
          icon: (v.icon ?? "").trim(),
          // Typed in riyals, sent in halalas.
          price_from: moneyOf(v.price_from),
          sort_order: wholeOf(v.sort_order),
        };
        return service ? updateService(api, service.id, input) : createService(api, input);
      }}
      remove={service ? (api) => deleteService(api, service.id) : undefined}
    />
  );
}
