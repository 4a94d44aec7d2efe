import type { Totals } from "../../contract/orders";
import { formatMoney } from "../lib/money";
import { useLocale, useT } from "../lib/use-locale";

/** The totals shown: the contract's, where shipping and VAT are null until checkout prices them. */
export type ShownTotals = Omit<Totals, "shipping" | "vat"> & { shipping: number | null; vat: number | null };

/** The totals block: subtotal, discount, shipping, the VAT line (prices include it) and the total. */
export function OrderSummary({
  totals,
  title,
  children,
}: {
  totals: ShownTotals;
  title?: string;
  children?: React.ReactNode;
}) {
  const t = useT();
  const locale = useLocale();
  const money = (n: number) => <bdi>{formatMoney(n, totals.currency, locale)}</bdi>;
  return (
    <section className="summary" aria-labelledby="summary-title">
      <h2 id="summary-title" className="summary__title">
        {title ?? t("cart.summary")}
      </h2>
      {children}
      <dl className="summary__rows">
        <div className="summary__row">
          <dt>{t("cart.subtotal")}</dt>
          <dd>{money(totals.subtotal)}</dd>
        </div>
        {totals.discount > 0 ? (
          <div className="summary__row summary__row--discount">
            <dt>{t("cart.discount")}</dt>
            <dd>
              −<bdi>{formatMoney(totals.discount, totals.currency, locale)}</bdi>
            </dd>
          </div>
        ) : null}
        <div className="summary__row">
          <dt>{t("cart.shipping")}</dt>
          <dd>
            {totals.shipping === null ? (
              <span className="muted">{t("cart.shippingAtCheckout")}</span>
            ) : totals.shipping === 0 ? (
              t("cart.free")
            ) : (
              money(totals.shipping)
            )}
          </dd>
        </div>
        {totals.cod_fee ? (
          <div className="summary__row">
            <dt>{t("cart.codFee")}</dt>
            <dd>{money(totals.cod_fee)}</dd>
          </div>
        ) : null}
        <div className="summary__row summary__row--total">
          <dt>{t("cart.total")}</dt>
          <dd>{money(totals.total)}</dd>
        </div>
        {totals.vat !== null ? (
          <div className="summary__row summary__row--vat">
            <dt>{t("cart.vatIncluded")}</dt>
            <dd>{money(totals.vat)}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}
