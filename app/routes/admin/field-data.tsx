import type { Route } from "./+types/field-data";
import { RUM_SHOWN, type FieldDataFigure, type FieldDataRow, type RumMetric } from "../../../contract/rum";
import { DataTable, type Column } from "../../components/console/DataTable";
import { getFieldData } from "../../lib/api/console-field-data";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { consoleFormat } from "../../lib/console-format";
import { useLocale, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.fieldData");

export async function loader(args: Route.LoaderArgs) {
  return consoleLoad(args, async (api) => ({ fieldData: (await getFieldData(api)).data }));
}

/** web-vitals' thresholds: at or under the first is good, over the second poor (ms; CLS unitless). */
const THRESHOLDS: Record<RumMetric, [number, number]> = {
  LCP: [2500, 4000],
  INP: [200, 500],
  CLS: [0.1, 0.25],
  TTFB: [800, 1800],
  FCP: [1800, 3000],
};
const ratingOf = (metric: RumMetric, p75: number) =>
  p75 <= THRESHOLDS[metric][0] ? "good" : p75 <= THRESHOLDS[metric][1] ? "needsImprovement" : "poor";
const BADGE = { good: "ok", needsImprovement: "warn", poor: "danger" } as const;

/**
 * Field data (every staff role): the 75th percentile of LCP, INP, CLS and TTFB that real
 * visits reported over the last day, per page type and locale, each with its sample count.
 */
export default function ConsoleFieldData({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const f = consoleFormat(locale);
  const d = loaderData.fieldData;
  const value = (metric: RumMetric, p75: number) =>
    metric === "CLS" ? f.decimal(p75, 3) : t("console.fieldData.ms", { value: f.number(Math.round(p75)) });
  const figure = (metric: RumMetric, x: FieldDataFigure) => {
    if (x.p75 === null) return <span aria-hidden="true">—</span>;
    const rating = ratingOf(metric, x.p75);
    return (
      <span className="field-data" data-metric={metric} data-rating={rating}>
        <span className="field-data__value">{value(metric, x.p75)}</span>{" "}
        <span className={`console-badge console-badge--${BADGE[rating]}`}>
          {t(`console.fieldData.rating.${rating}`)}
        </span>
        <span className="console-hint field-data__samples">
          {t("console.fieldData.samples", { count: f.number(x.samples) })}
        </span>
      </span>
    );
  };
  const columns: Column<FieldDataRow>[] = [
    { label: t("console.fieldData.pageType"), cell: (r) => t(`console.fieldData.pageTypes.${r.page_type}`) },
    { label: t("console.fieldData.locale"), cell: (r) => t(`console.fieldData.locales.${r.locale}`) },
    ...RUM_SHOWN.map((metric) => ({
      label: t(`console.fieldData.metrics.${metric}`),
      numeric: true,
      cell: (r: FieldDataRow) => figure(metric, r.metrics[metric]),
    })),
  ];
  return (
    <>
      <h1>{t("console.nav.fieldData")}</h1>
      <p className="console-hint" id="field-data-about">
        {t("console.fieldData.about", {
          from: f.moment(d.from),
          to: f.moment(d.to),
          precision: f.number(Math.round(d.precision * 1000) / 10),
        })}
      </p>
      <DataTable
        caption={t("console.nav.fieldData")}
        columns={columns}
        rows={d.rows}
        rowKey={(r) => `${r.page_type}-${r.locale}`}
        empty={t("console.fieldData.empty")}
      />
    </>
  );
}
