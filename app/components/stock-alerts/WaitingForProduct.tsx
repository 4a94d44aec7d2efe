import type { StockAlertDemand } from "../../../contract/stock-alerts";
import { consoleFormat } from "../../lib/console-format";
import { useLocale, useT } from "../../lib/use-locale";

/**
 * A product's console page: how many shoppers wait for each of its sold-out variants to come back
 * (the same figures as Inventory's "Waiting for stock", sorted there). Shown only when someone
 * waits; a plain table in the console's style, as the page needs no sorting or paging for it.
 */
export function WaitingForProduct({ rows }: { rows: StockAlertDemand[] }) {
  const t = useT();
  const locale = useLocale();
  const f = consoleFormat(locale);
  if (!rows.length) return null;
  const heads = ["console.fields.sku", "console.stockAlerts.variant", "console.stockAlerts.waiting"] as const;
  const counts = ["console.stockAlerts.email", "console.stockAlerts.sms"] as const;
  return (
    <section className="console-panel" aria-labelledby="product-waiting">
      <h2 id="product-waiting">{t("console.stockAlerts.productTitle")}</h2>
      <div className="console-table">
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (axe: scrollable-region-focusable) */}
        <div className="console-table__scroll" tabIndex={0} role="region" aria-labelledby="product-waiting">
          <table>
            <caption className="visually-hidden">{t("console.stockAlerts.productTitle")}</caption>
            <thead>
              <tr>
                {heads.map((key, i) => (
                  <th key={key} scope="col" className={i === 2 ? "is-numeric" : undefined}>
                    {t(key)}
                  </th>
                ))}
                {counts.map((key) => (
                  <th key={key} scope="col" className="is-numeric">
                    {t(key)}
                  </th>
                ))}
                <th scope="col">{t("console.stockAlerts.since")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.variant_id}>
                  <td>
                    <bdi dir="ltr">{r.sku}</bdi>
                  </td>
                  <td>
                    <bdi>{locale === "ar" ? r.name_ar : r.name_en}</bdi>
                  </td>
                  <td className="is-numeric">{f.number(r.waiting)}</td>
                  <td className="is-numeric">{f.number(r.email)}</td>
                  <td className="is-numeric">{f.number(r.sms)}</td>
                  <td>{f.moment(r.oldest)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
