import { useState } from "react";
import { TRANSFER_REFERENCE_MAX, type ConsoleOrder } from "../../../contract/console-orders";
import { providerName } from "../../lib/console-vocabulary";
import { formatMoney } from "../../lib/money";
import { formatDate } from "../../lib/orders";
import { useLocale, useT } from "../../lib/use-locale";
import { PaymentStatusBadge } from "./OrderBadges";
import { ForReturn } from "./OrderTimeline";
import { lineKey } from "../../../contract/cart";
import { NationalAddressLine } from "../NationalAddress";

// The read-only panels of the console's order page (routes/admin/order.tsx): what was ordered and
// what it cost, who ordered it and where it goes, its shipment, and its payments and refunds.

/** The order's lines, with what was paid for each after the discount, and its totals. */
export function OrderLinesPanel({ order }: { order: ConsoleOrder }) {
  const t = useT();
  const locale = useLocale();
  const money = (n: number) => <bdi>{formatMoney(n, order.currency, locale)}</bdi>;
  return (
    <section className="console-panel console-order__items" aria-labelledby="order-lines">
      <h2 id="order-lines">{t("console.orders.lines")}</h2>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (axe: scrollable-region-focusable) */}
      <div className="console-table__scroll" tabIndex={0} role="region" aria-label={t("console.orders.lines")}>
        <table className="console-table--stack">
          <thead>
            <tr>
              <th scope="col">{t("console.orders.product")}</th>
              <th scope="col" className="is-numeric">
                {t("console.orders.quantity")}
              </th>
              <th scope="col" className="is-numeric">
                {t("console.orders.unitPrice")}
              </th>
              <th scope="col" className="is-numeric">
                {t("console.orders.lineTotal")}
              </th>
              {/* What was paid for each line after the discount: what returning it refunds. */}
              {order.discount > 0 ? (
                <th scope="col" className="is-numeric">
                  {t("console.orders.netTotal")}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {order.items.map((item) => (
              <tr key={lineKey(item)}>
                <td>
                  <bdi>{item.name}</bdi>
                </td>
                {/* data-label: on a phone each line stacks, and its cells name themselves (console.css). */}
                <td className="is-numeric" data-label={t("console.orders.quantity")}>
                  {item.quantity}
                </td>
                <td className="is-numeric" data-label={t("console.orders.unitPrice")}>
                  {money(item.unit_price)}
                </td>
                <td className="is-numeric" data-label={t("console.orders.lineTotal")}>
                  {money(item.line_total)}
                </td>
                {order.discount > 0 ? (
                  <td className="is-numeric" data-label={t("console.orders.netTotal")}>
                    {money(item.net_total)}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="console-order__totals">
        <div>
          <dt>{t("cart.subtotal")}</dt>
          <dd>{money(order.subtotal)}</dd>
        </div>
        {order.discount > 0 ? (
          <div>
            <dt>
              {t("cart.discount")}
              {order.promo_code ? (
                <>
                  {" "}
                  (<bdi dir="ltr">{order.promo_code}</bdi>)
                </>
              ) : null}
            </dt>
            <dd>−{money(order.discount)}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t("cart.shipping")}</dt>
          <dd>{money(order.shipping)}</dd>
        </div>
        {order.cod_fee ? (
          <div>
            <dt>{t("console.orders.codFee")}</dt>
            <dd>{money(order.cod_fee)}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t("console.orders.vat")}</dt>
          <dd>{money(order.vat)}</dd>
        </div>
        <div className="console-order__total">
          <dt>{t("console.orders.total")}</dt>
          <dd>{money(order.total)}</dd>
        </div>
        {order.refunded > 0 ? (
          <div>
            <dt>{t("orders.refunded")}</dt>
            <dd>−{money(order.refunded)}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

/** Who ordered, masked for support staff, and the delivery address. */
export function OrderCustomerPanel({ order }: { order: ConsoleOrder }) {
  const t = useT();
  const locale = useLocale();
  const address = order.address;
  return (
    <section className="console-panel" aria-labelledby="order-customer">
      <h2 id="order-customer">{t("console.orders.customer")}</h2>
      {order.masked ? <p className="console-hint">{t("console.orders.maskedNote")}</p> : null}
      <dl className="console-order__facts">
        <div>
          <dt>{t("console.fields.email")}</dt>
          <dd>
            <bdi dir="ltr">{order.email}</bdi>
          </dd>
        </div>
        {order.phone ? (
          <div>
            <dt>{t("console.orders.phone")}</dt>
            <dd>
              <bdi dir="ltr">{order.phone}</bdi>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{t("console.orders.account")}</dt>
          <dd>{order.guest ? t("console.orders.guest") : t("console.orders.registered")}</dd>
        </div>
      </dl>
      <h3>{t("orders.addressTitle")}</h3>
      <address>
        <bdi>{address.name}</bdi>
        <br />
        {[address.street, address.building].filter(Boolean).join(" ")}
        <br />
        {[address.district, address.city, address.postal_code].filter(Boolean).join(locale === "ar" ? "، " : ", ")}
        <NationalAddressLine address={address} />
        <br />
        <bdi dir="ltr">{address.phone}</bdi>
      </address>
    </section>
  );
}

/** The shipping method, the carrier and tracking number, and the fulfilment dates. */
export function OrderShipmentPanel({ order }: { order: ConsoleOrder }) {
  const t = useT();
  const locale = useLocale();
  const carrierLabel = t("console.fields.carrier");
  const trackingLabel = t("console.fields.tracking_number");
  return (
    <section className="console-panel" aria-labelledby="order-shipping">
      <h2 id="order-shipping">{t("console.orders.shipment")}</h2>
      <dl className="console-order__facts">
        <div>
          <dt>{t("orders.shippingMethod")}</dt>
          <dd>{t(`orders.methods.${order.shipping_method}`)}</dd>
        </div>
        <div>
          <dt>{carrierLabel}</dt>
          <dd>{order.carrier ? <bdi>{order.carrier}</bdi> : "—"}</dd>
        </div>
        <div>
          <dt>{trackingLabel}</dt>
          <dd>{order.tracking_number ? <bdi dir="ltr">{order.tracking_number}</bdi> : "—"}</dd>
        </div>
        {order.shipped_at ? (
          <div>
            <dt>{t("orders.shippedAt")}</dt>
            <dd>{formatDate(order.shipped_at, locale, true)}</dd>
          </div>
        ) : null}
        {order.delivered_at ? (
          <div>
            <dt>{t("orders.deliveredAt")}</dt>
            <dd>{formatDate(order.delivered_at, locale, true)}</dd>
          </div>
        ) : null}
        {order.cancelled_at ? (
          <div>
            <dt>{t("console.orders.cancelledAt")}</dt>
            <dd>{formatDate(order.cancelled_at, locale, true)}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

/** The order's payments and its refunds, with their states and who made them. */
export function OrderPaymentsPanel({ order }: { order: ConsoleOrder }) {
  const t = useT();
  const locale = useLocale();
  const money = (n: number) => <bdi>{formatMoney(n, order.currency, locale)}</bdi>;
  return (
    <section className="console-panel console-order__wide" aria-labelledby="order-payments">
      <h2 id="order-payments">{t("console.orders.payments")}</h2>
      {order.payments.length ? (
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (axe: scrollable-region-focusable)
        <div className="console-table__scroll" tabIndex={0} role="region" aria-label={t("console.orders.payments")}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t("console.orders.date")}</th>
                <th scope="col">{t("console.orders.provider")}</th>
                <th scope="col">{t("console.fields.status")}</th>
                <th scope="col" className="is-numeric">
                  {t("console.fields.amount")}
                </th>
                <th scope="col" className="is-numeric">
                  {t("orders.refunded")}
                </th>
              </tr>
            </thead>
            <tbody>
              {order.payments.map((p) => (
                <tr key={p.id}>
                  <td className="is-date">{formatDate(p.created_at, locale, true)}</td>
                  <td>
                    <bdi>{providerName(t, p.provider)}</bdi>
                  </td>
                  <td>
                    <PaymentStatusBadge
                      status={p.status === "initiated" || p.status === "challenge" ? "pending" : p.status}
                    />
                  </td>
                  <td className="is-numeric">{money(p.amount)}</td>
                  <td className="is-numeric">{p.refunded ? money(p.refunded) : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="console-hint">{t("console.orders.noPayments")}</p>
      )}
      <h3>{t("console.orders.refunds")}</h3>
      {order.refunds.length ? (
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (axe: scrollable-region-focusable)
        <div className="console-table__scroll" tabIndex={0} role="region" aria-label={t("console.orders.refunds")}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t("console.orders.date")}</th>
                <th scope="col" className="is-numeric">
                  {t("console.fields.amount")}
                </th>
                <th scope="col">{t("console.fields.status")}</th>
                <th scope="col">{t("console.fields.reason")}</th>
                <th scope="col">{t("console.orders.by")}</th>
              </tr>
            </thead>
            <tbody>
              {order.refunds.map((r) => (
                <tr key={r.id}>
                  <td className="is-date">{formatDate(r.created_at, locale, true)}</td>
                  <td className="is-numeric">{money(r.amount)}</td>
                  <td>
                    <span
                      className={`console-badge console-badge--${r.status === "succeeded" ? "ok" : r.status === "failed" ? "danger" : "warn"}`}
                    >
                      {t(`console.orders.refundStatuses.${r.status}`)}
                    </span>
                    {r.status === "failed" && r.message ? (
                      <>
                        {" "}
                        <code>{r.message}</code>
                      </>
                    ) : null}
                  </td>
                  <td>
                    {r.reason ? <bdi>{r.reason}</bdi> : null}
                    {r.reason && r.return_id ? " · " : null}
                    {r.return_id ? <ForReturn id={r.return_id} /> : null}
                    {r.reason || r.return_id ? null : "—"}
                  </td>
                  <td>{r.staff_email ? <bdi dir="ltr">{r.staff_email}</bdi> : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="console-hint">{t("console.orders.noRefunds")}</p>
      )}
      {order.refundable > 0 ? (
        <p className="console-hint">
          {t("console.orders.refundable", { amount: formatMoney(order.refundable, order.currency, locale) })}
        </p>
      ) : null}
    </section>
  );
}

/**
 * Cash on delivery: what the courier collects, the account the shopper gave for refunds, and the
 * bank transfers its refunds owe, each recorded as sent with the bank's reference (managers and owners).
 */
export function CashOnDeliveryPanel({
  order,
  busy,
  onSent,
}: {
  order: ConsoleOrder;
  busy: boolean;
  onSent: (transferId: string, reference: string) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const [references, setReferences] = useState<Record<string, string>>({});
  const money = (n: number) => <bdi>{formatMoney(n, order.currency, locale)}</bdi>;
  return (
    <section className="console-panel console-order__wide" aria-labelledby="order-cod" data-cash-on-delivery>
      <h2 id="order-cod">{t("orders.methods.cod")}</h2>
      <dl className="console-order__facts">
        {order.cash_to_collect ? (
          <div>
            <dt>{t("console.orders.cashToCollect")}</dt>
            <dd>
              <strong>{money(order.cash_to_collect)}</strong>
            </dd>
          </div>
        ) : null}
        {order.refund_account ? (
          <div>
            <dt>{t("console.orders.refundAccount")}</dt>
            <dd>
              <bdi dir="ltr">{order.refund_account.iban}</bdi> · <bdi>{order.refund_account.name}</bdi>
            </dd>
          </div>
        ) : null}
      </dl>
      {order.bank_transfers.length ? (
        <>
          <h3>{t("console.orders.bankTransfers")}</h3>
          <p className="console-hint">{t("console.orders.bankTransfersLead")}</p>
          <ul className="console-list">
            {order.bank_transfers.map((transfer) => {
              const inputId = `transfer-${transfer.id}`;
              const reference = references[transfer.id] ?? "";
              return (
                <li key={transfer.id} data-transfer={transfer.status}>
                  <span>
                    {money(transfer.amount)} · <bdi dir="ltr">{transfer.iban}</bdi> · <bdi>{transfer.holder}</bdi> ·{" "}
                    <span className={`console-badge console-badge--${transfer.status === "sent" ? "ok" : "warn"}`}>
                      {t(`console.orders.transferStatuses.${transfer.status}`)}
                    </span>
                    {transfer.reference ? (
                      <>
                        {" "}
                        · {t("console.orders.transferReference")}: <bdi dir="ltr">{transfer.reference}</bdi>
                      </>
                    ) : null}
                  </span>
                  {transfer.status === "due" && !order.masked ? (
                    <form
                      className="console-inline-form"
                      onSubmit={(event) => {
                        event.preventDefault();
                        if (reference.trim()) onSent(transfer.id, reference.trim());
                      }}
                    >
                      <label htmlFor={inputId}>{t("console.orders.transferReference")}</label>
                      <input
                        id={inputId}
                        dir="ltr"
                        required
                        maxLength={TRANSFER_REFERENCE_MAX}
                        value={reference}
                        onChange={(event) => setReferences({ ...references, [transfer.id]: event.target.value })}
                      />
                      <button type="submit" className="button button--primary" disabled={busy}>
                        {t("console.orders.transferMark")}
                      </button>
                    </form>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
    </section>
  );
}
