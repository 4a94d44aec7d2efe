import { Link } from "../../lib/link";
import type { Route } from "./+types/remittances";
import { CARRIER_NAMES, type CarrierId, type RemittanceDifference } from "../../../contract/shipping";
import { DataTable, type Column } from "../../components/console/DataTable";
import { StatementImport } from "../../components/console/StatementImport";
import { getRemittances } from "../../lib/api/console-shipments";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { consoleFormat } from "../../lib/console-format";
import { useLocale, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.remittances.title");

export async function loader(args: Route.LoaderArgs) {
  return consoleLoad(args, async (api) => (await getRemittances(api)).data, { role: "manager" });
}

const TONE: Record<RemittanceDifference["kind"], "danger" | "warn"> = {
  missing: "danger",
  short: "danger",
  over: "warn",
  unknown: "warn",
};

const isCarrier = (c: string): c is CarrierId => Object.hasOwn(CARRIER_NAMES, c);

/**
 * Cash on delivery against what the carriers paid over: how many delivered COD parcels matched, the
 * totals, and each parcel (or carrier report) that does not match, to chase or to explain.
 */
export default function ConsoleRemittances({ loaderData: report }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const f = consoleFormat(locale);
  const columns: Column<RemittanceDifference>[] = [
    {
      label: t("console.remittances.carrier"),
      cell: (d) => (isCarrier(d.carrier) ? CARRIER_NAMES[d.carrier][locale] : <bdi dir="ltr">{d.carrier}</bdi>),
    },
    { label: t("console.remittances.waybill"), cell: (d) => <bdi dir="ltr">{d.waybill}</bdi> },
    {
      label: t("console.remittances.order"),
      cell: (d) =>
        d.order_number ? (
          <Link to={`/${locale}/admin/orders/${d.order_number}`}>
            <bdi dir="ltr">{d.order_number}</bdi>
          </Link>
        ) : (
          "—"
        ),
    },
    { label: t("console.remittances.deliveredAt"), cell: (d) => (d.delivered_at ? f.day(d.delivered_at) : "—") },
    { label: t("console.remittances.expected"), numeric: true, cell: (d) => <bdi>{f.money(d.expected)}</bdi> },
    { label: t("console.remittances.remitted"), numeric: true, cell: (d) => <bdi>{f.money(d.remitted)}</bdi> },
    {
      label: t("console.remittances.kind"),
      cell: (d) => (
        <span className={`console-badge console-badge--${TONE[d.kind]}`} data-kind={d.kind}>
          {t(`console.remittances.kinds.${d.kind}`)}
        </span>
      ),
    },
  ];
  return (
    <div className="console-remittances">
      <h1>{t("console.remittances.title")}</h1>
      <p className="console-hint">{t("console.remittances.intro")}</p>
      <section className="console-panel" aria-labelledby="remittances-totals">
        <h2 id="remittances-totals">{t("console.remittances.totals")}</h2>
        <dl className="console-facts" data-remittance-totals>
          <div>
            <dt>{t("console.remittances.matched")}</dt>
            <dd data-matched>{f.number(report.matched)}</dd>
          </div>
          <div>
            <dt>{t("console.remittances.expectedTotal")}</dt>
            <dd>
              <bdi>{f.money(report.expected_total)}</bdi>
            </dd>
          </div>
          <div>
            <dt>{t("console.remittances.remittedTotal")}</dt>
            <dd>
              <bdi>{f.money(report.remitted_total)}</bdi>
            </dd>
          </div>
          <div>
            <dt>{t("console.remittances.differenceTotal")}</dt>
            <dd>
              <bdi>{f.money(report.remitted_total - report.expected_total)}</bdi>
            </dd>
          </div>
        </dl>
      </section>
      <h2 id="remittances-differences">{t("console.remittances.differences")}</h2>
      <p className="console-hint">{t("console.remittances.kindsHint")}</p>
      <DataTable
        caption={t("console.remittances.differences")}
        labelledBy="remittances-differences"
        columns={columns}
        rows={report.differences}
        rowKey={(d) => `${d.carrier}:${d.waybill}`}
        empty={t("console.remittances.none")}
      />
      <StatementImport />
    </div>
  );
}
