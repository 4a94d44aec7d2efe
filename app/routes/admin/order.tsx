import { reset, useForm } from "@modular-forms/react";
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { Link } from "../../lib/link";
import type { Route } from "./+types/order";
import {
  CARRIER_MAX,
  REFUND_REASON_MAX,
  TRACKING_MAX,
  type ConsoleOrder,
  type OrderAction,
  type OrderEvent,
} from "../../../contract/console-orders";
import { readCount, readNumber } from "../../../contract/numbers";
import { toast } from "../../client/toast";
import { ConfirmDialog } from "../../components/console/ConfirmDialog";
import { OrderStatusBadge, PaymentStatusBadge } from "../../components/console/OrderBadges";
import { currencyName, providerName } from "../../lib/console-vocabulary";
import { OrderMessages } from "../../components/console/OrderMessages";
import { OrderReturns } from "../../components/console/OrderReturns";
import { StaffNotes } from "../../components/console/StaffNotes";
import { FormErrors } from "../../components/form/FormErrors";
import { SubmitButton } from "../../components/form/SubmitButton";
import { TextField } from "../../components/form/TextField";
import { useFormSubmit } from "../../components/form/useFormSubmit";
import { browserApi } from "../../lib/api/browser";
import { handleBrowserError } from "../../lib/browser-errors";
import {
  addOrderNote,
  cancelOrder,
  deliverOrder,
  getConsoleOrder,
  processOrder,
  refundLatePayment,
  refundOrder,
  resendOrderMessage,
  type RefundChoice,
  shipOrder,
} from "../../lib/api/console-orders";
import { listOrderReturns } from "../../lib/api/console-returns";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { FORM_OPTIONS, formRules } from "../../lib/forms";
import { formatMoney, minorUnitDigits } from "../../lib/money";
import { numberProblem } from "../../lib/input-rules";
import { countOf } from "../../lib/plural";
import { formatDate } from "../../lib/orders";
import { useLocale, useT } from "../../lib/use-locale";
import type { Translate } from "../../lib/i18n";

export const meta: Route.MetaFunction = (args) =>
  consoleMeta(args, "console.orders.title", { number: args.params.number ?? "" });

export async function loader(args: Route.LoaderArgs) {
  return consoleLoad(args, async (api) => {
    const [order, returns] = await Promise.all([
      getConsoleOrder(api, args.params.number),
      listOrderReturns(api, args.params.number),
    ]);
    return { ...order.data, returns: returns.data };
  });
}

/** A modal dialog holding a form: focus moves into it, Escape closes it, focus returns on close. */
function FormDialog({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="console-dialog" aria-labelledby={titleId} onClose={() => open && onClose()}>
      <h2 id={titleId}>{title}</h2>
      {open ? children : null}
    </dialog>
  );
}

function actorName(t: Translate, actor: string): string {
  if (actor === "system") return t("console.orders.actors.system");
  if (actor === "shopper") return t("console.orders.actors.shopper");
  return actor;
}

/** A refund made for a return, named in the reader's language. */
function ForReturn({ id }: { id: string }) {
  const t = useT();
  return <span className="console-for-return">{t("console.orders.forReturn", { id })}</span>;
}

/** The reasons the shop itself records on a failed payment (services/payments.ts). */
const PAYMENT_FAILURES = new Set([
  "declined",
  "three_ds_failed",
  "cancelled",
  "expired",
  "already_paid",
  "out_of_stock",
  "amount_mismatch",
]);

/**
 * Why a payment failed: the shop's own codes in the reader's language; anything else is the
 * provider's words, shown as they came.
 */
function PaymentFailure({ reason }: { reason: string }) {
  const t = useT();
  if (PAYMENT_FAILURES.has(reason)) return <span>{t(`console.orders.paymentFailures.${reason}`)}</span>;
  return (
    <span>
      {t("console.orders.paymentFailures.other")}: <bdi>{reason}</bdi>
    </span>
  );
}

function EventDetail({ event, order }: { event: OrderEvent; order: ConsoleOrder }) {
  const locale = useLocale();
  const d = event.detail ?? {};
  const parts: ReactNode[] = [];
  if (typeof d.carrier === "string")
    parts.push(
      <span key="c">
        <bdi>{d.carrier}</bdi> · <bdi dir="ltr">{String(d.tracking_number ?? "")}</bdi>
      </span>,
    );
  if (typeof d.amount === "number" && event.type !== "paid")
    parts.push(<bdi key="a">{formatMoney(d.amount, order.currency, locale)}</bdi>);
  if (typeof d.reason === "string" && d.reason)
    parts.push(
      event.type === "payment_failed" ? <PaymentFailure key="r" reason={d.reason} /> : <q key="r">{d.reason}</q>,
    );
  // A return's own steps name it; a refund made for one says which.
  if (typeof d.return_id === "string")
    parts.push(
      event.type.startsWith("return_") ? (
        <bdi key="rt" dir="ltr">
          {d.return_id}
        </bdi>
      ) : (
        <ForReturn key="rt" id={d.return_id} />
      ),
    );
  if (typeof d.message === "string" && d.message && event.type === "refund_failed")
    parts.push(<code key="m">{d.message}</code>);
  if (!parts.length) return null;
  return (
    <span className="console-timeline__detail">
      {parts.map((p, i) => (
        <span key={i}>
          {i > 0 ? " · " : null}
          {p}
        </span>
      ))}
    </span>
  );
}

type ShipValues = { carrier: string; tracking_number: string };
type RefundValues = { amount: string; reason: string };

/** One order: lines, totals, customer, payments and refunds, its timeline, and what staff may do next. */
export default function ConsoleOrderPage({ loaderData: order }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const rules = useMemo(() => formRules(t), [t]);
  const money = (n: number) => <bdi>{formatMoney(n, order.currency, locale)}</bdi>;
  const [dialog, setDialog] = useState<"process" | "ship" | "deliver" | "refund" | "cancel" | "confirmRefund" | null>(
    null,
  );
  const [refundDraft, setRefundDraft] = useState<{
    amount: number;
    reason: string | null;
    choice?: RefundChoice;
  } | null>(null);
  const can = (action: OrderAction) => order.actions.includes(action);
  // The refund dialog's choice of lines (units per product), shipping and restock; when any line or
  // the shipping is chosen the server prices it (each line's units at what was paid for them) and
  // the amount field gives way to that exact total.
  const [refundUnits, setRefundUnits] = useState<Record<number, number>>({});
  const [refundShipping, setRefundShipping] = useState(false);
  const [restock, setRestock] = useState(false);
  const chosenTotal =
    order.items.reduce(
      (sum, i) => sum + (refundUnits[i.product_id] ? (i.refund_amounts[refundUnits[i.product_id] - 1] ?? 0) : 0),
      0,
    ) + (refundShipping ? order.shipping_refundable : 0);
  // The amount field's validators run outside render: they read the choice through a ref.
  const chosenRef = useRef(0);
  useEffect(() => {
    chosenRef.current = chosenTotal;
  }, [chosenTotal]);
  const byLines = chosenTotal > 0;

  const [shipForm, ship] = useForm<ShipValues>({
    ...FORM_OPTIONS,
    initialValues: { carrier: "", tracking_number: "" },
  });
  const shipping = useFormSubmit(shipForm);
  const [refundForm, refund] = useForm<RefundValues>({
    ...FORM_OPTIONS,
    // Left empty: the most that can be refunded is its hint, never a value one Enter sends.
    initialValues: { amount: "", reason: "" },
  });
  const refunding = useFormSubmit(refundForm);

  const mutate = async (action: () => Promise<unknown>, success: string) => {
    const id = toast.loading(t("console.saving"));
    try {
      const answer = (await action()) as { message?: string } | undefined;
      if (answer?.message) toast.error(answer.message, { id });
      else toast.success(success, { id });
      await revalidator.revalidate();
    } catch (error) {
      toast.dismiss(id);
      handleBrowserError(error, locale, (path) => void navigate(path));
    }
  };

  const submitShip = async (values: ShipValues) => {
    const done = await shipping.run(
      t("console.saving"),
      () => shipOrder(browserApi(locale), order.number, values),
      () => t("console.orders.shipped"),
    );
    if (done) {
      setDialog(null);
      await revalidator.revalidate();
    }
  };

  const askRefund = (values: RefundValues) => {
    const reason = values.reason.trim() || null;
    if (byLines) {
      const lines = order.items
        .filter((i) => (refundUnits[i.product_id] ?? 0) > 0)
        .map((i) => ({ product_id: i.product_id, quantity: refundUnits[i.product_id] }));
      setRefundDraft({ amount: chosenTotal, reason, choice: { lines, shipping: refundShipping, restock } });
    } else {
      const reading = readNumber(values.amount, { decimals: minorUnitDigits(order.currency) });
      if (!reading.ok) return;
      setRefundDraft({ amount: reading.value, reason });
    }
    setDialog("confirmRefund");
  };

  const confirmRefund = async () => {
    const draft = refundDraft;
    setDialog("refund");
    if (!draft) return;
    const done = await refunding.run(
      t("console.saving"),
      () => refundOrder(browserApi(locale), order.number, draft.amount, draft.reason, draft.choice),
      () => t("console.orders.refundDone"),
    );
    if (done) {
      setDialog(null);
      await revalidator.revalidate();
    }
  };

  const openRefund = () => {
    refunding.clear();
    reset(refundForm, { initialValues: { amount: "", reason: "" } });
    setRefundUnits({});
    setRefundShipping(false);
    setRestock(false);
    setDialog("refund");
  };

  const address = order.address;
  const carrierLabel = t("console.fields.carrier");
  const trackingLabel = t("console.fields.tracking_number");
  const amountLabel = t("console.orders.refundAmount", { currency: currencyName(t, order.currency) });
  const reasonLabel = t("console.fields.reason");

  return (
    <div className="console-orders-page">
      <p className="console-back">
        <Link to={`/${locale}/admin/orders`}>{t("console.orders.back")}</Link>
      </p>
      <header className="console-order__head">
        <h1>
          {t("console.orders.title", { number: "" })}
          <bdi dir="ltr">{order.number}</bdi>
        </h1>
        <OrderStatusBadge status={order.status} labelled />
        <PaymentStatusBadge status={order.payment_status} labelled />
      </header>
      <p className="console-hint">
        {t("console.orders.placedOn", { date: formatDate(order.created_at, locale, true) })}
      </p>

      {order.actions.length ? (
        <div className="console-actions" role="group" aria-label={t("console.table.actions")}>
          {can("process") ? (
            <button type="button" className="button" onClick={() => setDialog("process")}>
              {t("console.orders.actions.process")}
            </button>
          ) : null}
          {can("ship") ? (
            <button
              type="button"
              className="button"
              onClick={() => {
                shipping.clear();
                setDialog("ship");
              }}
            >
              {t("console.orders.actions.ship")}
            </button>
          ) : null}
          {can("deliver") ? (
            <button type="button" className="button" onClick={() => setDialog("deliver")}>
              {t("console.orders.actions.deliver")}
            </button>
          ) : null}
          {can("refund") ? (
            <button type="button" className="button button--ghost" onClick={openRefund}>
              {t("console.orders.actions.refund")}
            </button>
          ) : null}
          {can("cancel") ? (
            <button type="button" className="button button--danger" onClick={() => setDialog("cancel")}>
              {t("console.orders.actions.cancel")}
            </button>
          ) : null}
        </div>
      ) : (
        <p className="console-hint">{order.masked ? t("console.orders.readOnly") : t("console.orders.noActions")}</p>
      )}

      <nav className="console-documents" aria-label={t("console.orderDocs.title")} data-order-documents>
        <h2 className="console-documents__title">{t("console.orderDocs.title")}</h2>
        <ul className="console-documents__list">
          {order.documents.invoice_number ? (
            <li>
              <Link to={`/${locale}/admin/orders/${order.number}/invoice`}>
                {t("console.orderDocs.invoice")} <bdi dir="ltr">{order.documents.invoice_number}</bdi>
              </Link>
            </li>
          ) : null}
          {order.documents.credit_notes.map((n) => (
            <li key={n.id}>
              <Link to={`/${locale}/admin/orders/${order.number}/credit-notes/${n.id}`}>
                {t("console.orderDocs.creditNote")} <bdi dir="ltr">{n.number}</bdi>
              </Link>
            </li>
          ))}
          {/* The slip carries the whole address, which support sees masked: managers and owners print it. */}
          {order.masked ? null : (
            <li>
              <Link to={`/${locale}/admin/orders/${order.number}/packing-slip`}>
                {t("console.orderDocs.packingSlip")}
              </Link>
            </li>
          )}
        </ul>
      </nav>

      <div className="console-order">
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
                  <tr key={item.product_id}>
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
            <br />
            <bdi dir="ltr">{address.phone}</bdi>
          </address>
        </section>

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

        <OrderReturns number={order.number} currency={order.currency} returns={order.returns} />
        {order.late_payments.length ? (
          <section
            className="console-panel console-order__wide console-alert"
            aria-labelledby="order-late-payments"
            data-late-payments
          >
            <h2 id="order-late-payments">{t("console.orders.latePayments")}</h2>
            <p>{t("console.orders.latePaymentsLead")}</p>
            <ul className="console-list">
              {order.late_payments.map((p) => (
                <li key={p.payment_id}>
                  <span>
                    {money(p.amount)} · <bdi>{providerName(t, p.provider)}</bdi> ·{" "}
                    {formatDate(p.received_at, locale, true)} ·{" "}
                    <span
                      className={`console-badge console-badge--${p.refund_status === "refunded" ? "ok" : p.refund_status === "owed" ? "danger" : "warn"}`}
                    >
                      {t(`console.orders.lateStatuses.${p.refund_status}`)}
                    </span>
                    {p.refund_status === "owed" && p.refund_message ? (
                      <>
                        {" "}
                        {t("console.orders.paymentFailures.other")}: <bdi>{p.refund_message}</bdi>
                      </>
                    ) : null}
                  </span>
                  {p.refund_status === "owed" && !order.masked ? (
                    <button
                      type="button"
                      className="button button--primary"
                      onClick={() =>
                        void mutate(
                          () => refundLatePayment(browserApi(locale), order.number, p.payment_id),
                          t("console.orders.lateRefundDone"),
                        )
                      }
                    >
                      {t("console.orders.lateRefund", { amount: formatMoney(p.amount, p.currency, locale) })}
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
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

        <section className="console-panel console-order__wide" aria-labelledby="order-timeline">
          <h2 id="order-timeline">{t("console.orders.timeline")}</h2>
          <ol className="console-timeline">
            {order.events.map((event) => (
              <li key={event.id}>
                <time dateTime={event.created_at}>{formatDate(event.created_at, locale, true)}</time>
                <span className="console-timeline__what">
                  {t(`console.orders.events.${event.type}`) === `console.orders.events.${event.type}`
                    ? event.type
                    : t(`console.orders.events.${event.type}`)}
                </span>
                <EventDetail event={event} order={order} />
                <span className="console-hint">
                  {t("console.orders.byActor", { actor: "" })}
                  <bdi dir="ltr">{actorName(t, event.actor)}</bdi>
                </span>
              </li>
            ))}
          </ol>
        </section>

        <StaffNotes notes={order.notes} onAdd={(body) => addOrderNote(browserApi(locale), order.number, body)} />

        <OrderMessages
          messages={order.messages}
          onResend={
            order.masked
              ? undefined
              : (m) =>
                  void mutate(
                    () => resendOrderMessage(browserApi(locale), order.number, m.id),
                    t("console.orders.messages.resent"),
                  )
          }
        />
      </div>

      <FormDialog
        open={dialog === "ship"}
        title={t("console.orders.shipTitle", { number: order.number })}
        onClose={() => setDialog(null)}
      >
        <ship.Form
          className="form"
          onSubmit={submitShip}
          shouldFocus
          aria-label={t("console.orders.shipTitle", { number: order.number })}
        >
          <FormErrors
            form={shipForm}
            messages={rules.messages}
            serverErrors={shipping.serverErrors}
            serverMessage={shipping.serverMessage}
            labels={{ carrier: carrierLabel, tracking_number: trackingLabel }}
          />
          <ship.Field
            name="carrier"
            validate={[rules.required(carrierLabel), rules.maxLength(carrierLabel, CARRIER_MAX)]}
          >
            {(field, props) => (
              <TextField
                form={shipForm}
                field={field}
                props={props}
                label={carrierLabel}
                idPrefix="ship"
                autoComplete="off"
                list="order-carriers"
                required
              />
            )}
          </ship.Field>
          <datalist id="order-carriers">
            {["SMSA Express", "Aramex", "SPL", "DHL Express", "Naqel"].map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
          <ship.Field
            name="tracking_number"
            validate={[
              rules.required(trackingLabel),
              rules.maxLength(trackingLabel, TRACKING_MAX),
              rules.schema((v) =>
                v.pipe(
                  v.string(),
                  v.trim(),
                  v.regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, t("console.orders.trackingInvalid")),
                ),
              ),
            ]}
          >
            {(field, props) => (
              <TextField
                form={shipForm}
                field={field}
                props={props}
                label={trackingLabel}
                idPrefix="ship"
                dir="ltr"
                autoComplete="off"
                required
              />
            )}
          </ship.Field>
          <div className="console-dialog__actions">
            <button type="button" className="button button--ghost" onClick={() => setDialog(null)}>
              {t("console.actions.cancel")}
            </button>
            <SubmitButton>{t("console.orders.shipSubmit")}</SubmitButton>
          </div>
        </ship.Form>
      </FormDialog>

      <FormDialog
        open={dialog === "refund" || dialog === "confirmRefund"}
        title={t("console.orders.refundTitle", { number: order.number })}
        onClose={() => setDialog(null)}
      >
        <refund.Form
          className="form"
          onSubmit={askRefund}
          shouldFocus
          aria-label={t("console.orders.refundTitle", { number: order.number })}
        >
          <FormErrors
            form={refundForm}
            messages={rules.messages}
            serverErrors={refunding.serverErrors}
            serverMessage={refunding.serverMessage}
            labels={{ amount: amountLabel, reason: reasonLabel }}
          />
          <fieldset className="console-refund-lines" data-refund-lines>
            <legend>{t("console.refundLines.legend")}</legend>
            <p className="console-hint">{t("console.refundLines.hint")}</p>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("console.orders.product")}</th>
                  <th scope="col" className="is-numeric">
                    {t("console.refundLines.paid")}
                  </th>
                  <th scope="col">{t("console.refundLines.units")}</th>
                </tr>
              </thead>
              <tbody>
                {order.items.map((item) => {
                  const left = item.refund_amounts.length;
                  const inputId = `refund-units-${item.product_id}`;
                  return (
                    <tr key={item.product_id}>
                      <th scope="row">
                        <label htmlFor={inputId}>
                          <bdi>{item.name}</bdi>
                        </label>
                        {item.claimed_quantity > 0 ? (
                          <span className="console-hint">
                            {" "}
                            {countOf(t, locale, "console.refundLines.claimed", item.claimed_quantity)}
                          </span>
                        ) : null}
                      </th>
                      <td className="is-numeric">{money(item.net_total)}</td>
                      <td>
                        <input
                          id={inputId}
                          // Text, not number: a number input refuses Arabic-Indic digits ("١").
                          type="text"
                          inputMode="numeric"
                          autoComplete="off"
                          size={4}
                          disabled={left === 0}
                          value={refundUnits[item.product_id] ?? 0}
                          aria-describedby={`${inputId}-of`}
                          onChange={(e) => {
                            const reading = readCount(e.target.value);
                            const n = Math.max(0, Math.min(left, reading.ok ? reading.value : 0));
                            setRefundUnits((u) => ({ ...u, [item.product_id]: n }));
                          }}
                        />{" "}
                        <span id={`${inputId}-of`} className="console-hint">
                          {countOf(t, locale, "console.refundLines.of", left)}
                        </span>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            {order.shipping > 0 ? (
              <label className="checkbox">
                <input
                  type="checkbox"
                  name="refund_shipping"
                  checked={refundShipping}
                  disabled={order.shipping_refundable === 0}
                  onChange={(e) => setRefundShipping(e.target.checked)}
                />{" "}
                {order.shipping_refundable > 0
                  ? t("console.refundLines.shipping", {
                      amount: formatMoney(order.shipping_refundable, order.currency, locale),
                    })
                  : t("console.refundLines.shippingDone")}
              </label>
            ) : null}
            <label className="checkbox">
              <input type="checkbox" name="restock" checked={restock} onChange={(e) => setRestock(e.target.checked)} />{" "}
              {t("console.refundLines.restock")}
            </label>
            {byLines ? (
              <p className="console-refund-lines__total" aria-live="polite" data-refund-total>
                {t("console.refundLines.total", { amount: formatMoney(chosenTotal, order.currency, locale) })}
              </p>
            ) : (
              <p className="console-hint">{t("console.refundLines.orAmount")}</p>
            )}
          </fieldset>
          {byLines ? null : (
            <refund.Field
              name="amount"
              validate={[
                // Lines or shipping chosen: the server prices them; the amount field is not used.
                (value) => (chosenRef.current > 0 ? "" : rules.required(amountLabel)(value)),
                (value) => {
                  if (chosenRef.current > 0) return "";
                  const decimals = { decimals: minorUnitDigits(order.currency) };
                  const reading = readNumber(value ?? "", decimals);
                  if (!reading.ok)
                    return reading.problem === "empty" ? "" : numberProblem(t, amountLabel, reading.problem, decimals);
                  const minor = reading.value;
                  if (minor <= 0) return t("console.orders.amountInvalid");
                  if (minor > order.refundable)
                    return t("console.orders.amountTooHigh", {
                      amount: formatMoney(order.refundable, order.currency, locale),
                    });
                  return "";
                },
              ]}
            >
              {(field, props) => (
                <TextField
                  form={refundForm}
                  field={field}
                  props={props}
                  label={amountLabel}
                  idPrefix="refund"
                  inputMode="decimal"
                  dir="ltr"
                  autoComplete="off"
                  hint={t("numbers.refundHint", { max: formatMoney(order.refundable, order.currency, locale) })}
                  required
                />
              )}
            </refund.Field>
          )}
          <refund.Field name="reason" validate={[rules.maxLength(reasonLabel, REFUND_REASON_MAX)]}>
            {(field, props) => (
              <TextField
                form={refundForm}
                field={field}
                props={props}
                label={reasonLabel}
                idPrefix="refund"
                dir="auto"
                multiline
                rows={2}
              />
            )}
          </refund.Field>
          <p className="console-hint">
            {t("console.orders.refundHint", {
              provider: providerName(
                t,
                order.payments.find((p) => p.amount > 0 && p.status !== "failed")?.provider ?? "",
              ),
            })}
          </p>
          <div className="console-dialog__actions">
            <button type="button" className="button button--ghost" onClick={() => setDialog(null)}>
              {t("console.actions.cancel")}
            </button>
            <SubmitButton>{t("console.orders.refundSubmit")}</SubmitButton>
          </div>
        </refund.Form>
      </FormDialog>

      <ConfirmDialog
        open={dialog === "confirmRefund"}
        title={t("console.orders.refundConfirmTitle", {
          amount: formatMoney(refundDraft?.amount ?? 0, order.currency, locale),
        })}
        confirmLabel={t("console.orders.refundSubmit")}
        onCancel={() => setDialog("refund")}
        onConfirm={() => void confirmRefund()}
      >
        {refundDraft?.choice ? (
          <ul className="console-list" data-refund-confirm-lines>
            {refundDraft.choice.lines.map((l) => (
              <li key={l.product_id}>
                <bdi>{order.items.find((i) => i.product_id === l.product_id)?.name}</bdi> × {l.quantity}
              </li>
            ))}
            {refundDraft.choice.shipping ? <li>{t("cart.shipping")}</li> : null}
            <li>
              {refundDraft.choice.restock ? t("console.refundLines.restockYes") : t("console.refundLines.restockNo")}
            </li>
          </ul>
        ) : (
          <p>{t("console.refundLines.amountOnly")}</p>
        )}
        <p>{t("console.orders.refundConfirmBody")}</p>
      </ConfirmDialog>

      {/* Each step of fulfilment is one way: it is confirmed first, like a cancel or a refund. */}
      {(
        [
          ["process", processOrder, "processed"],
          ["deliver", deliverOrder, "delivered"],
        ] as const
      ).map(([step, run, done]) => (
        <ConfirmDialog
          key={step}
          open={dialog === step}
          title={t(`console.orderSteps.${step}Title`, { number: order.number })}
          confirmLabel={t(`console.orders.actions.${step}`)}
          cancelLabel={t("console.orderSteps.notNow")}
          danger={false}
          onCancel={() => setDialog(null)}
          onConfirm={() => {
            setDialog(null);
            void mutate(() => run(browserApi(locale), order.number), t(`console.orders.${done}`));
          }}
        >
          <p>{t(`console.orderSteps.${step}Body`)}</p>
        </ConfirmDialog>
      ))}

      <ConfirmDialog
        open={dialog === "cancel"}
        title={t("console.orders.cancelTitle", { number: order.number })}
        confirmLabel={t("console.orders.actions.cancel")}
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          setDialog(null);
          void mutate(() => cancelOrder(browserApi(locale), order.number), t("console.orders.cancelled"));
        }}
      >
        <p>
          {order.refundable > 0
            ? t("console.orders.cancelBodyPaid", { amount: formatMoney(order.refundable, order.currency, locale) })
            : t("console.orders.cancelBody")}
        </p>
      </ConfirmDialog>
    </div>
  );
}
