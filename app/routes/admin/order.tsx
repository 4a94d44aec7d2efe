import { reset, useForm } from "@modular-forms/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { Link } from "../../lib/link";
import type { Route } from "./+types/order";
import { CARRIER_MAX, REFUND_REASON_MAX, TRACKING_MAX, type OrderAction } from "../../../contract/console-orders";
import { RETURN_ACTIONS, type ReturnAction } from "../../../contract/returns";
import { readCount, readNumber } from "../../../contract/numbers";
import { lineKey } from "../../../contract/cart";
import { ConfirmDialog } from "../../components/console/ConfirmDialog";
import { FormDialog } from "../../components/console/FormDialog";
import { OrderStatusBadge, PaymentStatusBadge } from "../../components/console/OrderBadges";
import {
  OrderCustomerPanel,
  OrderLinesPanel,
  OrderPaymentsPanel,
  CashOnDeliveryPanel,
  OrderShipmentPanel,
} from "../../components/console/OrderPanels";
import { OrderTimeline } from "../../components/console/OrderTimeline";
import { OrderParcelsPanel } from "../../components/console/OrderParcels";
import { currencyName, providerName } from "../../lib/console-vocabulary";
import { OrderMessages } from "../../components/console/OrderMessages";
import { OrderReturns } from "../../components/console/OrderReturns";
import { StaffNotes } from "../../components/console/StaffNotes";
import { OrderDebitNote } from "../../components/console/OrderDebitNote";
import { FormErrors } from "../../components/form/FormErrors";
import { SubmitButton } from "../../components/form/SubmitButton";
import { TextField } from "../../components/form/TextField";
import { useRouteAction } from "../../components/form/useRouteAction";
import { answer, intentOf, textOf, unknownIntent } from "../../lib/actions";
import { browserApi } from "../../lib/api/browser";
import {
  addOrderNote,
  cancelOrder,
  raiseOrderTotal,
  deliverOrder,
  getConsoleOrder,
  processOrder,
  refundLatePayment,
  markTransferSent,
  refundOrder,
  resendOrderMessage,
  type RefundChoice,
  shipOrder,
} from "../../lib/api/console-orders";
import { listOrderReturns, runReturnAction } from "../../lib/api/console-returns";
import { consoleLoad, consoleLocale, consoleMeta } from "../../lib/console";
import { FORM_OPTIONS, formRules } from "../../lib/forms";
import { formatMoney, minorUnitDigits } from "../../lib/money";
import { numberProblem } from "../../lib/input-rules";
import { countOf } from "../../lib/plural";
import { formatDate } from "../../lib/orders";
import { useLocale, useT } from "../../lib/use-locale";

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

/** What staff may do to an order from its page, one `intent` each. */
const INTENTS = [
  "process",
  "ship",
  "deliver",
  "refund",
  "cancel",
  "late-refund",
  "transfer-sent",
  "resend",
  "note",
  "return",
  "debit-note",
] as const;

/** The refund dialog's choice of lines (`line`: "product id:units:variant id"), shipping and restock, as submitted. */
function refundChoiceOf(form: FormData): RefundChoice | undefined {
  if (!form.has("by_lines")) return undefined;
  const lines = form.getAll("line").map((line) => {
    const [product, units, variant] = String(line).split(":");
    return {
      product_id: Number(product),
      quantity: Number(units),
      ...(variant ? { variant_id: Number(variant) } : {}),
    };
  });
  return { lines, shipping: form.has("shipping"), restock: form.has("restock") };
}

/** Staff's steps on the order, its refunds, notes, messages and returns; the backend checks each one. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = consoleLocale(params);
  const form = await request.formData();
  const intent = intentOf(form, INTENTS);
  const api = browserApi(locale);
  const { number } = params;
  switch (intent) {
    case "process":
      return answer(locale, intent, () => processOrder(api, number));
    case "ship":
      return answer(locale, intent, () =>
        shipOrder(api, number, { carrier: textOf(form, "carrier"), tracking_number: textOf(form, "tracking_number") }),
      );
    case "deliver":
      return answer(locale, intent, () => deliverOrder(api, number));
    case "refund": {
      const reason = textOf(form, "reason").trim() || null;
      const amount = Number(textOf(form, "amount"));
      return answer(locale, intent, () => refundOrder(api, number, amount, reason, refundChoiceOf(form)));
    }
    case "cancel":
      return answer(locale, intent, () => cancelOrder(api, number));
    case "late-refund":
      return answer(locale, intent, () => refundLatePayment(api, number, textOf(form, "payment_id")));
    case "transfer-sent":
      return answer(locale, intent, () =>
        markTransferSent(api, number, textOf(form, "transfer_id"), textOf(form, "reference")),
      );
    case "resend":
      return answer(locale, intent, () => resendOrderMessage(api, number, Number(textOf(form, "message_id"))));
    case "note":
      return answer(locale, intent, () => addOrderNote(api, number, textOf(form, "body")));
    case "debit-note":
      return answer(locale, intent, () =>
        raiseOrderTotal(api, number, Number(textOf(form, "amount")), textOf(form, "reason")),
      );
    case "return": {
      const step = textOf(form, "step") as ReturnAction;
      if (!RETURN_ACTIONS.includes(step)) return unknownIntent(locale);
      const note = textOf(form, "note").trim() || null;
      return answer(locale, intent, () => runReturnAction(api, number, textOf(form, "return_id"), step, note));
    }
    default:
      return unknownIntent(locale);
  }
}

type ShipValues = { carrier: string; tracking_number: string };
type RefundValues = { amount: string; reason: string };

/** One order: lines, totals, customer, payments and refunds, its timeline, and what staff may do next. */
export default function ConsoleOrderPage({ loaderData: order }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
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
      (sum, i) => sum + (refundUnits[lineKey(i)] ? (i.refund_amounts[refundUnits[lineKey(i)] - 1] ?? 0) : 0),
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
  const shipping = useRouteAction(shipForm);
  const [refundForm, refund] = useForm<RefundValues>({
    ...FORM_OPTIONS,
    // Left empty: the most that can be refunded is its hint, never a value one Enter sends.
    initialValues: { amount: "", reason: "" },
  });
  const refunding = useRouteAction(refundForm);

  // A step with nothing to fill in; a message the backend sends with its answer (a provider's refusal) is an error.
  const steps = useRouteAction();
  const runStep = (intent: (typeof INTENTS)[number], fields: Record<string, string | number>, success: string) =>
    void steps.submit(intent, fields, { loading: t("console.saving"), success: () => success, messageIsFailure: true });

  const submitShip = (values: ShipValues) =>
    shipping.submit("ship", values, {
      loading: t("console.saving"),
      success: () => t("console.orders.shipped"),
      onDone: () => setDialog(null),
    });

  const askRefund = (values: RefundValues) => {
    const reason = values.reason.trim() || null;
    if (byLines) {
      const lines = order.items
        .filter((i) => (refundUnits[lineKey(i)] ?? 0) > 0)
        .map((i) => ({ product_id: i.product_id, variant_id: i.variant_id, quantity: refundUnits[lineKey(i)] }));
      setRefundDraft({ amount: chosenTotal, reason, choice: { lines, shipping: refundShipping, restock } });
    } else {
      const reading = readNumber(values.amount, { decimals: minorUnitDigits(order.currency) });
      if (!reading.ok) return;
      setRefundDraft({ amount: reading.value, reason });
    }
    setDialog("confirmRefund");
  };

  const confirmRefund = () => {
    const draft = refundDraft;
    setDialog("refund");
    if (!draft) return;
    const choice = draft.choice;
    void refunding.submit(
      "refund",
      {
        amount: draft.amount,
        reason: draft.reason,
        ...(choice
          ? {
              by_lines: true,
              line: choice.lines.map((l) => `${l.product_id}:${l.quantity}:${l.variant_id ?? ""}`),
              shipping: choice.shipping,
              restock: choice.restock,
            }
          : {}),
      },
      { loading: t("console.saving"), success: () => t("console.orders.refundDone"), onDone: () => setDialog(null) },
    );
  };

  const openRefund = () => {
    refunding.clear();
    reset(refundForm, { initialValues: { amount: "", reason: "" } });
    setRefundUnits({});
    setRefundShipping(false);
    setRestock(false);
    setDialog("refund");
  };

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
          {/* By hand, for a parcel sent outside the shop's carriers: the parcels panel is the usual way. */}
          {can("ship") ? (
            <button
              type="button"
              className="button button--ghost"
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
          {(order.documents.debit_notes ?? []).map((n) => (
            <li key={n.id}>
              <Link to={`/${locale}/admin/orders/${order.number}/debit-notes/${n.id}`}>
                {t("console.orderDocs.debitNote")} <bdi dir="ltr">{n.number}</bdi>
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
        <OrderLinesPanel order={order} />

        <OrderCustomerPanel order={order} />

        <OrderShipmentPanel order={order} />

        <OrderParcelsPanel order={order} />

        <OrderReturns currency={order.currency} returns={order.returns} />
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
                      disabled={steps.busy}
                      onClick={() =>
                        runStep("late-refund", { payment_id: p.payment_id }, t("console.orders.lateRefundDone"))
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
        {order.bank_transfers.length || order.cash_to_collect ? (
          <CashOnDeliveryPanel
            order={order}
            busy={steps.busy}
            onSent={(transferId, reference) =>
              runStep("transfer-sent", { transfer_id: transferId, reference }, t("console.orders.transferDone"))
            }
          />
        ) : null}
        <OrderPaymentsPanel order={order} />

        <OrderTimeline order={order} />

        {/* Managers and owners (support sees the order masked) raise a total that has its invoice. */}
        {!order.masked && order.documents.invoice_number ? <OrderDebitNote /> : null}

        <StaffNotes notes={order.notes} />

        <OrderMessages
          cashOnDelivery={order.payment_method === "cod"}
          messages={order.messages}
          onResend={
            order.masked
              ? undefined
              : (m) => runStep("resend", { message_id: m.id }, t("console.orders.messages.resent"))
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
          <p className="console-hint">{t("console.parcels.manualHint")}</p>
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
                  const inputId = `refund-units-${lineKey(item)}`;
                  return (
                    <tr key={lineKey(item)}>
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
                          value={refundUnits[lineKey(item)] ?? 0}
                          aria-describedby={`${inputId}-of`}
                          onChange={(e) => {
                            const reading = readCount(e.target.value);
                            const n = Math.max(0, Math.min(left, reading.ok ? reading.value : 0));
                            setRefundUnits((u) => ({ ...u, [lineKey(item)]: n }));
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
        onConfirm={confirmRefund}
      >
        {refundDraft?.choice ? (
          <ul className="console-list" data-refund-confirm-lines>
            {refundDraft.choice.lines.map((l) => (
              <li key={lineKey(l)}>
                <bdi>{order.items.find((i) => lineKey(i) === lineKey(l))?.name}</bdi> × {l.quantity}
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
          ["process", "processed"],
          ["deliver", "delivered"],
        ] as const
      ).map(([step, done]) => (
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
            runStep(step, {}, t(`console.orders.${done}`));
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
          runStep("cancel", {}, t("console.orders.cancelled"));
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
