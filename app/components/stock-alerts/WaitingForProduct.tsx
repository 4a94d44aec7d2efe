import type { StockAlertDemand } from "../../../contract/stock-alerts";
import { consoleFormat } from "../../lib/console-format";
import { useLocale, useT } from "../../lib/use-locale";
import { DataTable, type Column } from "../console/DataTable";

/**
 * A product's console page: how many shoppers wait for each of its sold-out variants to come back
 * (the same figures as Inventory's "Waiting for stock"). Shown only when someone waits.
 */
export function WaitingForProduct({ rows }: { rows: StockAlertDemand[] }) {
  const t = useT();
  const locale = useLocale();
  const f = consoleFormat(locale);
  if (!rows.length) return null;
  const columns: Column<StockAlertDemand>[] = [
    { label: t("console.fields.sku"), cell: (r) => <bdi dir="ltr">{r.sku}</bdi> },
    { label: t("console.stockAlerts.variant"), cell: (r) => <bdi>{locale === "ar" ? r.name_ar : r.name_en}</bdi> },
    { label: t("console.stockAlerts.waiting"), numeric: true, cell: (r) => f.number(r.waiting) },
    { label: t("console.stockAlerts.email"), numeric: true, cell: (r) => f.number(r.email) },
    { label: t("console.stockAlerts.sms"), numeric: true, cell: (r) => f.number(r.sms) },
    { label: t("console.stockAlerts.since"), cell: (r) => f.moment(r.oldest) },
  ];
  return (
    <section className="console-panel" aria-labelledby="product-waiting">
      <h2 id="product-waiting">{t("console.stockAlerts.productTitle")}</h2>
      <DataTable
        caption={t("console.stockAlerts.productTitle")}
        labelledBy="product-waiting"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.variant_id}
        empty={t("console.stockAlerts.empty")}
      />
    </section>
  );
}
