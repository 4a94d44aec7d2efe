import {
  getValue,
  reset,
  useForm,
  type FieldElementProps,
  type FieldStore,
  type FormStore,
} from "@modular-forms/react";
import { useSignals } from "@preact/signals-react/runtime";
import { useMemo, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { RETURN_NOTE_MAX, RETURN_REASONS, type OrderReturn } from "../../contract/returns";
import { ConfirmDialog } from "./console/ConfirmDialog";
import { FormErrors } from "./form/FormErrors";
import { SubmitButton } from "./form/SubmitButton";
import { fieldId, TextField } from "./form/TextField";
import { useFormSubmit } from "./form/useFormSubmit";
import { browserApi } from "../lib/api/browser";
import { cancelMyOrder, orderAgain, requestReturn, type ReorderAnswer } from "../lib/api/self-service";
import { ensureGuestId, useCart } from "../lib/cart";
import { Link } from "../lib/link";
import { FORM_OPTIONS, formMessages, visibleError } from "../lib/forms";
import { contractRules } from "../lib/input-rules";
import { formatMoney } from "../lib/money";
import { formatDate, type Order } from "../lib/orders";
import { readOrderGrant } from "../lib/order-grants";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "./Stylesheet";
import selfServiceCss from "../styles/self-service.css?url";
import { lineKey } from "../../contract/cart";
import { saudiIban } from "../../contract/inputs";

/**
 * What the owner of an order can do on its page: cancel it before it ships (after a
 * confirmation; a paid order is refunded), see its refunds, ask to return lines within the return
 * window, and follow their returns. Renders nothing on an order without self-service data (tracking).
 */
export function OrderSelfService({ order }: { order: Order }) {
  const self = order.self_service;
  if (!self) return null;
  const delivered = order.delivered_at && self.returnable_until;
  const cancelled = order.status === "cancelled";
  if (!self.can_cancel && !self.refunds.length && !self.returns.length && !delivered && !cancelled) return null;
  return (
    <section className="order-details__box self-service" aria-labelledby="self-service-title">
      <Stylesheet href={selfServiceCss} />
      <SelfServiceBody order={order} />
    </section>
  );
}

function SelfServiceBody({ order }: { order: Order }) {
  const t = useT();
  const locale = useLocale();
  const self = order.self_service!;
  const money = (n: number) => <bdi>{formatMoney(n, order.currency, locale)}</bdi>;
  // Something is left to return but the backend no longer offers it: the window has closed.
  const closed = !self.can_return && order.status === "delivered" && Object.values(self.returnable).some((n) => n > 0);
  return (
    <>
      <h3 id="self-service-title">{t("orders.selfService.title")}</h3>
      {self.can_cancel ? <CancelOrder order={order} /> : null}
      {order.status === "cancelled" ? <OrderAgain order={order} /> : null}
      {self.refunds.length ? (
        <div className="self-service__block">
          <h4>{t("orders.selfService.refundsTitle")}</h4>
          <ul className="self-service__list" data-testid="refunds">
            {self.refunds.map((r) => (
              <li key={r.id}>
                <span>{money(r.amount)}</span>{" "}
                <span className={`self-service__badge self-service__badge--${r.status}`}>
                  {t(`orders.selfService.refundStatuses.${r.status}`)}
                </span>{" "}
                <span className="muted">{formatDate(r.created_at, locale, true)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {self.returns.length ? (
        <div className="self-service__block">
          <h4>{t("orders.returns.title")}</h4>
          <ul className="self-service__list" data-testid="returns">
            {self.returns.map((r) => (
              <ReturnSummary key={r.id} ret={r} money={money} sendTo={self.send_to} />
            ))}
          </ul>
        </div>
      ) : null}
      {self.can_return && self.returnable_until ? (
        <ReturnForm order={order} />
      ) : closed && self.returnable_until ? (
        <p className="muted">{t("orders.returns.closed", { date: formatDate(self.returnable_until, locale) })}</p>
      ) : null}
    </>
  );
}

function ReturnSummary({
  ret,
  money,
  sendTo,
}: {
  ret: OrderReturn;
  money: (n: number) => React.ReactNode;
  sendTo: string | null;
}) {
  const t = useT();
  const locale = useLocale();
  return (
    <li className="self-service__return">
      <p>
        <strong>{t("orders.returns.returnOf", { date: formatDate(ret.created_at, locale) })}</strong>{" "}
        <span className={`self-service__badge self-service__badge--${ret.status}`}>
          {t(`orders.returns.statuses.${ret.status}`)}
        </span>
      </p>
      <ul className="self-service__lines">
        {ret.items.map((line) => (
          <li key={lineKey(line)}>
            <bdi>{line.name}</bdi> × {line.quantity} · {t(`orders.returns.reasons.${line.reason}`)}
          </li>
        ))}
      </ul>
      {ret.status === "rejected" ? (
        <p data-testid="return-reason">
          {t("orders.returns.rejectedBecause", { reason: ret.decision_note || t("orders.returns.noReason") })}
        </p>
      ) : (
        <p className="muted">
          {t(ret.status === "refunded" ? "orders.returns.amountRefunded" : "orders.returns.amount")}:{" "}
          {money(ret.amount)}
        </p>
      )}
      {ret.status === "approved" ? (
        <p data-testid="return-send-to">
          {sendTo ? t("orders.returns.sendTo", { address: sendTo }) : t("orders.returns.sendToLater")}
        </p>
      ) : null}
    </li>
  );
}

function CancelOrder({ order }: { order: Order }) {
  const t = useT();
  const locale = useLocale();
  const revalidator = useRevalidator();
  const [open, setOpen] = useState(false);
  const [form] = useForm<Record<string, never>>({ ...FORM_OPTIONS });
  const submit = useFormSubmit(form);
  const paid = order.payment_status === "paid" || order.payment_status === "partially_refunded";
  const confirm = async () => {
    setOpen(false);
    const done = await submit.run(
      t("orders.selfService.cancelling"),
      () => cancelMyOrder(browserApi(locale), order.number, readOrderGrant(order.number)),
      (answer) => answer.message ?? t("orders.selfService.cancelled"),
    );
    if (done) await revalidator.revalidate();
  };
  return (
    <div className="self-service__block">
      <button type="button" className="button button--danger" onClick={() => setOpen(true)}>
        {t("orders.selfService.cancel")}
      </button>
      {submit.serverMessage ? (
        <p className="field__error" role="alert">
          {submit.serverMessage}
        </p>
      ) : null}
      <ConfirmDialog
        open={open}
        // Isolated, so the number keeps its order inside an Arabic sentence.
        title={t("orders.selfService.cancelTitle", { number: `\u2068${order.number}\u2069` })}
        confirmLabel={t("orders.selfService.cancelConfirm")}
        cancelLabel={t("orders.selfService.keep")}
        onConfirm={() => void confirm()}
        onCancel={() => setOpen(false)}
      >
        <p>{t("orders.selfService.cancelText")}</p>
        {paid ? (
          <p>
            {t("orders.selfService.cancelPaidText", {
              amount: formatMoney(order.total - order.refunded, order.currency, locale),
            })}
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}

/**
 * "Order again" on a cancelled order: its lines go back in the cart as stock allows, then the
 * shopper goes to the cart; when some could not come back as ordered, the page says which first.
 */
function OrderAgain({ order }: { order: Order }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const cart = useCart();
  const [form] = useForm<Record<string, never>>({ ...FORM_OPTIONS });
  const submit = useFormSubmit(form);
  const [partial, setPartial] = useState<ReorderAnswer["reorder"] | null>(null);
  const list = (names: string[]) => new Intl.ListFormat(locale, { type: "conjunction" }).format(names);
  const run = async () => {
    const answer = await submit.run(t("orders.again.adding"), async () => {
      await ensureGuestId(locale);
      return orderAgain(browserApi(locale), order.number, readOrderGrant(order.number));
    });
    if (!answer) return;
    await cart.loadCart();
    const outcome = answer.data.reorder;
    if (!outcome.reduced.length && !outcome.unavailable.length) void navigate(to("/shopping-cart"));
    else setPartial(outcome);
  };
  return (
    <div className="self-service__block" data-testid="order-again">
      <p>{t("orders.again.intro")}</p>
      <button type="button" className="button button--primary" onClick={() => void run()}>
        {t("orders.again.button")}
      </button>
      {submit.serverMessage ? (
        <p className="field__error" role="alert">
          {submit.serverMessage}
        </p>
      ) : null}
      {partial ? (
        <div className="notice" role="status">
          {partial.unavailable.length ? (
            <p>{t("orders.again.unavailable", { names: list(partial.unavailable) })}</p>
          ) : null}
          {partial.reduced.length ? <p>{t("orders.again.reduced", { names: list(partial.reduced) })}</p> : null}
          {partial.added ? <Link to={to("/shopping-cart")}>{t("orders.again.toCart")}</Link> : null}
        </div>
      ) : null}
    </div>
  );
}

type ReturnValues = {
  items: { quantity: string; reason: string; note: string }[];
  /** An order paid in cash on delivery is refunded by bank transfer: to this account. */
  refund_account: { iban: string; name: string };
};
type ReasonPath = `items.${number}.reason`;

/** The reason picklist of one line, bound to its field like TextField (the message shows once touched or submitted). */
function ReasonSelect({
  form,
  field,
  props,
  label,
}: {
  form: FormStore<ReturnValues, undefined>;
  field: FieldStore<ReturnValues, ReasonPath>;
  props: FieldElementProps<ReturnValues, ReasonPath>;
  label: string;
}) {
  useSignals();
  const t = useT();
  const id = fieldId(field.name, "return");
  const error = visibleError(field, form);
  return (
    <div className="field" data-invalid={error ? "true" : undefined}>
      <label htmlFor={id}>{label}</label>
      <div className="field__control">
        <select
          {...props}
          id={id}
          value={field.value.value ?? ""}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        >
          <option value="">{t("orders.returns.choose")}</option>
          {RETURN_REASONS.map((r) => (
            <option key={r} value={r}>
              {t(`orders.returns.reasons.${r}`)}
            </option>
          ))}
        </select>
      </div>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function ReturnForm({ order }: { order: Order }) {
  useSignals();
  const t = useT();
  const locale = useLocale();
  const revalidator = useRevalidator();
  const self = order.self_service!;
  const lines = order.items.filter((i) => (self.returnable[lineKey(i)] ?? 0) > 0);
  const cash = order.payment_method === "cod";
  const empty = () => ({
    items: lines.map(() => ({ quantity: "0", reason: "", note: "" })),
    refund_account: { iban: "", name: "" },
  });
  const [form, { Form, Field }] = useForm<ReturnValues>({ ...FORM_OPTIONS, initialValues: empty() });
  const submit = useFormSubmit(form);
  const messages = useMemo(() => formMessages(t), [t]);
  const labels = {
    quantity: t("orders.returns.quantityLabel"),
    reason: t("orders.returns.reason"),
    note: t("orders.returns.note"),
  };
  const rules = useMemo(
    () => contractRules(t, labels, (v, m) => v.returnLineFields(m)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the labels follow t
    [t],
  );
  const [nothing, setNothing] = useState(false);

  const send = async (values: ReturnValues) => {
    const items = lines.map((line, i) => ({
      product_id: line.product_id,
      variant_id: line.variant_id,
      quantity: Number(values.items[i].quantity) || 0,
      reason: values.items[i].reason || undefined,
      note: values.items[i].note || null,
    }));
    if (!items.some((i) => i.quantity > 0)) {
      setNothing(true);
      return;
    }
    setNothing(false);
    const done = await submit.run(
      t("orders.returns.sending"),
      () =>
        requestReturn(
          browserApi(locale),
          order.number,
          items,
          readOrderGrant(order.number),
          cash ? { iban: values.refund_account.iban, name: values.refund_account.name.trim() } : undefined,
        ),
      () => t("orders.returns.sent"),
    );
    if (done) {
      reset(form, { initialValues: empty() });
      await revalidator.revalidate();
    }
  };

  return (
    <div className="self-service__block">
      <h4 id="return-form-title">{t("orders.returns.requestTitle")}</h4>
      <p className="muted">
        {t("orders.returns.until", { date: formatDate(self.returnable_until!, locale) })} {t("orders.returns.intro")}
      </p>
      <Form className="form self-service__form" aria-labelledby="return-form-title" onSubmit={send} noValidate>
        <FormErrors
          form={form}
          messages={messages}
          serverErrors={submit.serverErrors}
          serverMessage={submit.serverMessage}
          idPrefix="return"
        />
        {nothing ? (
          <p className="field__error" role="alert" id="return-nothing">
            {t("orders.returns.nothingChosen")}
          </p>
        ) : null}
        {lines.map((line, i) => {
          const max = self.returnable[lineKey(line)] ?? 0;
          return (
            <fieldset key={lineKey(line)} className="self-service__line">
              <legend>
                <bdi>{line.name}</bdi>
              </legend>
              <Field name={`items.${i}.quantity`} validate={rules.quantity}>
                {(field, props) => (
                  <TextField
                    form={form}
                    field={field}
                    props={props}
                    label={t("orders.returns.quantity", { max })}
                    idPrefix="return"
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={max}
                    className="self-service__qty"
                  />
                )}
              </Field>
              <Field
                name={`items.${i}.reason`}
                validate={[
                  (value) =>
                    Number(getValue(form, `items.${i}.quantity`) ?? 0) > 0 && !value
                      ? t("orders.returns.reasonRequired")
                      : "",
                  rules.reason,
                ]}
              >
                {(field, props) => <ReasonSelect form={form} field={field} props={props} label={labels.reason} />}
              </Field>
              <Field name={`items.${i}.note`} validate={rules.note}>
                {(field, props) => (
                  <TextField
                    form={form}
                    field={field}
                    props={props}
                    label={labels.note}
                    idPrefix="return"
                    maxLength={RETURN_NOTE_MAX}
                    className="self-service__note"
                  />
                )}
              </Field>
            </fieldset>
          );
        })}
        {cash ? (
          <fieldset className="self-service__line">
            <legend>{t("orders.returns.refundAccount")}</legend>
            <p className="muted">{t("orders.returns.refundAccountIntro")}</p>
            <Field
              name="refund_account.iban"
              validate={[
                (value) => (value?.trim() ? "" : t("form.required", { name: t("orders.returns.iban") })),
                (value) => (!value?.trim() || saudiIban(value) ? "" : t("orders.returns.ibanFormat")),
              ]}
            >
              {(field, props) => (
                <TextField
                  form={form}
                  field={field}
                  props={props}
                  label={t("orders.returns.iban")}
                  hint={t("orders.returns.ibanHint")}
                  idPrefix="return"
                  dir="ltr"
                  autoComplete="off"
                  maxLength={40}
                  required
                />
              )}
            </Field>
            <Field
              name="refund_account.name"
              validate={[(value) => (value?.trim() ? "" : t("form.required", { name: t("orders.returns.ibanName") }))]}
            >
              {(field, props) => (
                <TextField
                  form={form}
                  field={field}
                  props={props}
                  label={t("orders.returns.ibanName")}
                  idPrefix="return"
                  autoComplete="name"
                  maxLength={100}
                  required
                />
              )}
            </Field>
          </fieldset>
        ) : null}
        <SubmitButton>{t("orders.returns.submit")}</SubmitButton>
      </Form>
    </div>
  );
}
