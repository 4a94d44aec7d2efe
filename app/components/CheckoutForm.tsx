import { useAtomValue } from "jotai";
import { useEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Link } from "../lib/link";
import { getProfile, listAddresses } from "../lib/api/account";
import { browserApi } from "../lib/api/browser";
import { handleBrowserError } from "../lib/browser-errors";
import { placeOrder } from "../lib/api/checkout";
import { ApiError, type FieldError } from "../lib/api/errors";
import { useCart } from "../lib/cart";
import type { Address } from "../../contract/addresses";
import type { NewAddress } from "../../contract/checkout";
import { newIdempotencyKey, optionsTotals, useCheckoutOptions, useSettled } from "../lib/checkout";
import { formRules, loadValibot, type Validator } from "../lib/forms";
import { checkoutRules } from "../lib/input-rules";
import { formatMoney } from "../lib/money";
import { SHOP_COUNTRY } from "../lib/phone-text";
import { readStored } from "../lib/tab-storage";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { cartListAtom, totalQuantityAtom } from "../state/cart";
import { ErrorSummary } from "./form/ErrorSummary";
import { fieldId } from "./form/TextField";
import { OrderSummary } from "./OrderSummary";
import { LazyPhoneInput } from "./LazyPhoneInput";

type FieldName = "email" | "name" | "phone" | "city" | "district" | "street" | "building" | "postal_code" | "notes";
type Values = Record<FieldName, string>;

const EMPTY: Values = {
  email: "",
  name: "",
  phone: "",
  city: "",
  district: "",
  street: "",
  building: "",
  postal_code: "",
  notes: "",
};
const ID_PREFIX = "co";

/** The form validates while rendering, so the route shows it only once valibot is there. */
export const ready: Promise<unknown> = loadValibot();

/**
 * The checkout form: contact (guests), the delivery address (a saved one for signed-in
 * visitors, or a new one), shipping and payment methods, and the order summary. One
 * idempotency key per attempt, so a doubled submit makes one order.
 */
export function CheckoutForm({ onPlaced }: { onPlaced: (orderNumber: string) => void }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const cartActions = useCart();
  const cart = useAtomValue(cartListAtom);
  const count = useAtomValue(totalQuantityAtom);
  const rules = useMemo(() => formRules(t), [t]);
  const signedIn = useMemo(() => Boolean(readStored("token")), []);

  const [values, setValues] = useState<Values>(EMPTY);
  /** Fields the visitor changed: their messages show (spec §5, "after a field is dirty"). */
  const [dirty, setDirty] = useState<ReadonlySet<FieldName>>(new Set());
  const [submitted, setSubmitted] = useState(0);
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  /** A form-level message from the server (or the network) for the last attempt. */
  const [formMessage, setFormMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const [addresses, setAddresses] = useState<Address[] | null>(signedIn ? null : []);
  const [addressChoice, setAddressChoice] = useState<number | "new">("new");
  const [shipping, setShipping] = useState<string | undefined>(undefined);
  const [payment, setPayment] = useState<string | undefined>(undefined);
  const keyRef = useRef<string>(newIdempotencyKey());

  const revision = `${cart.total}|${count}|${cart.promo?.code ?? ""}`;
  // The delivery city picks the shipping zone: the quote follows it as the shopper types or picks
  // a saved address. Placing the order charges the zone of the same city, worked out again there.
  const deliveryCity =
    addressChoice === "new" ? values.city.trim() : (addresses?.find((a) => a.id === addressChoice)?.city ?? "");
  const quotedCity = useSettled(deliveryCity, 400);
  const { options, failed, retry } = useCheckoutOptions(locale, revision, shipping, true, quotedCity || undefined);

  // The first shipping and payment methods are chosen until the visitor picks others.
  useEffect(() => {
    if (!options) return;
    if (!shipping && options.shipping_methods[0]) setShipping(options.shipping_methods[0].id);
    if (!payment && options.payment_methods[0]) setPayment(options.payment_methods[0].id);
  }, [options, shipping, payment]);

  // Signed in: the saved addresses (default first) and the account's email.
  useEffect(() => {
    if (!signedIn) return;
    const api = browserApi(locale);
    listAddresses(api)
      .then((res) => {
        const list = Array.isArray(res.data)
          ? [...res.data].sort((a, b) => Number(b.is_default) - Number(a.is_default))
          : [];
        setAddresses(list);
        if (list[0]) setAddressChoice(list[0].id);
      })
      .catch(() => setAddresses([]));
    getProfile(api)
      .then((res) => setValues((v) => (v.email ? v : { ...v, email: res.data?.email ?? "" })))
      .catch(() => undefined);
  }, [signedIn, locale]);

  const labels: Record<FieldName, string> = {
    email: t("checkout.email"),
    name: t("checkout.name"),
    phone: t("checkout.phone"),
    city: t("checkout.city"),
    district: t("checkout.district"),
    street: t("checkout.street"),
    building: t("checkout.building"),
    postal_code: t("checkout.postalCode"),
    notes: t("checkout.notes"),
  };
  const usingNewAddress = addressChoice === "new";
  const [phoneCheck, setPhoneCheck] = useState({ value: "", message: "" });
  useEffect(() => {
    let current = true;
    void rules
      .phone()(values.phone)
      .then((message) => {
        if (current) setPhoneCheck({ value: values.phone, message });
      });
    return () => {
      current = false;
    };
  }, [values.phone, rules]);
  // The contract's checkout rules (contract/inputs.ts): the same limits the backend checks.
  const check = useMemo(
    () => checkoutRules(t, labels),
    // The labels follow `t`: they change only with the locale.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const validators: Partial<Record<FieldName, Validator[]>> = {
    ...(signedIn ? {} : { email: [check.email] }),
    ...(usingNewAddress
      ? {
          name: [check.name],
          // The numbering check loads libphonenumber's metadata first; its answer is kept in phoneCheck.
          phone: [check.phone, () => phoneCheck.message],
          city: [check.city],
          district: [check.district],
          street: [check.street],
          building: [check.building],
          postal_code: [check.postal_code],
          notes: [check.notes],
        }
      : {}),
  };
  const clientError = (name: FieldName): string => {
    for (const check of validators[name] ?? []) {
      const message = check(values[name]);
      // Rules answer at once here: the route shows this form only once `ready` (valibot) resolved.
      if (typeof message === "string" && message) return message;
    }
    return "";
  };
  const errorOf = (name: FieldName): string => {
    const server = serverErrors.find((e) => e.type === name)?.message;
    if (server) return server;
    return dirty.has(name) || submitted > 0 ? clientError(name) : "";
  };
  const set = (name: FieldName, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setDirty((s) => (s.has(name) ? s : new Set(s).add(name)));
    setServerErrors((errs) => errs.filter((e) => e.type !== name));
  };

  const fieldProps = (name: FieldName) => {
    const error = errorOf(name);
    const id = fieldId(name, ID_PREFIX);
    return {
      id,
      name,
      value: values[name],
      onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(name, e.target.value),
      "aria-invalid": error ? true : undefined,
      "aria-describedby": error ? `${id}-error` : undefined,
    };
  };
  const fieldError = (name: FieldName) => {
    const error = errorOf(name);
    return error ? (
      <p id={`${fieldId(name, ID_PREFIX)}-error`} className="field__error">
        {error}
      </p>
    ) : null;
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setSubmitted((n) => n + 1);
    const invalid = (Object.keys(validators) as FieldName[]).filter((name) => clientError(name));
    const phoneMessage = usingNewAddress ? await rules.phone()(values.phone) : "";
    if (invalid.length || phoneMessage || !shipping || !payment) {
      setFormMessage("");
      return;
    }
    setBusy(true);
    setFormMessage("");
    setServerErrors([]);
    const address: NewAddress | undefined = usingNewAddress
      ? {
          name: values.name.trim(),
          phone: values.phone,
          city: values.city.trim(),
          district: values.district.trim(),
          street: values.street.trim(),
          ...(values.building.trim() ? { building: values.building.trim() } : {}),
          ...(values.postal_code.trim() ? { postal_code: values.postal_code.trim() } : {}),
          ...(values.notes.trim() ? { notes: values.notes.trim() } : {}),
        }
      : undefined;
    try {
      const res = await placeOrder(browserApi(locale), {
        idempotency_key: keyRef.current,
        ...(values.email.trim() ? { email: values.email.trim() } : {}),
        ...(address ? { address } : { address_id: addressChoice as number }),
        shipping_method: shipping,
        payment_method: payment,
      });
      // The backend emptied the cart into the order; the page moves on before the empty-cart rule.
      onPlaced(res.data.number);
      cartActions.clearCartState();
      void cartActions.loadCart();
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && (error.status === 422 || error.status === 409 || error.status === 400)) {
        // The server refused this attempt: the next one is a new attempt with a new key.
        keyRef.current = newIdempotencyKey();
        const errs = error.fieldErrors.map((fe) => ({ ...fe, type: fe.type.replace(/^address\./, "") }));
        setServerErrors(errs);
        setFormMessage(error.message || t("checkout.failed"));
        // Stock or the cart changed underneath: show the cart as it is now.
        void cartActions.loadCart();
        return;
      }
      const handled = handleBrowserError(error, locale, (path) => navigate(path));
      setFormMessage(handled.message || t("checkout.failed"));
    }
  };

  const summaryErrors: FieldError[] =
    submitted > 0
      ? [
          ...(Object.keys(validators) as FieldName[])
            .map((name) => ({ type: name, message: clientError(name) }))
            .filter((e) => e.message),
          ...serverErrors.filter((se) => !clientError(se.type as FieldName)),
        ]
      : serverErrors;
  // 'Sorry, not all fields are filled out correctly.' while the fields still have something to fix.
  const summaryMessage = formMessage || (summaryErrors.length > 0 ? t("form.formInvalid") : "");
  const showSummary = Boolean(summaryMessage);
  // The shop cannot take payments (no provider configured): nothing can be ordered, and the page says why.
  const noPayment = options !== null && options.payment_methods.length === 0;
  const totals = options
    ? optionsTotals(options)
    : {
        subtotal: cart.subtotal,
        discount: cart.discount,
        shipping: null,
        vat: null,
        total: cart.total,
        currency: cart.currency,
      };

  return (
    <form className="checkout__layout" onSubmit={(e) => void submit(e)} noValidate>
      <div className="checkout__main">
        {noPayment ? (
          <div className="notice notice--danger" role="alert">
            <p>{t("checkout.paymentsUnavailable")}</p>
          </div>
        ) : null}
        {showSummary ? (
          <ErrorSummary
            title={t("form.summary")}
            message={summaryMessage}
            errors={summaryErrors}
            labels={labels}
            idPrefix={ID_PREFIX}
            focusKey={submitted}
          />
        ) : null}

        {signedIn ? null : (
          <fieldset className="checkout__section">
            <legend>{t("checkout.contact")}</legend>
            <div className="field" data-invalid={errorOf("email") ? "true" : undefined}>
              <label htmlFor={fieldId("email", ID_PREFIX)}>
                {labels.email}
                <span className="field__required" aria-hidden="true">
                  {" "}
                  *
                </span>
              </label>
              <input {...fieldProps("email")} type="email" autoComplete="email" dir="ltr" aria-required="true" />
              <p className="field__hint muted">{t("checkout.emailHint")}</p>
              {fieldError("email")}
            </div>
            <p className="checkout__signin muted">
              {t("checkout.signInHint")}{" "}
              <Link to={`${to("/auth/login")}?redirect=${encodeURIComponent(to("/checkout"))}`}>
                {t("checkout.signIn")}
              </Link>
            </p>
          </fieldset>
        )}

        <fieldset className="checkout__section">
          <legend>{t("checkout.address")}</legend>
          {signedIn && addresses === null ? (
            <p aria-busy="true" className="muted">
              {t("app.loading")}
            </p>
          ) : null}
          {signedIn && addresses && addresses.length > 0 ? (
            <div className="choice-list" role="radiogroup" aria-label={t("checkout.savedAddresses")}>
              {addresses.map((a) => (
                <label key={a.id} className="choice">
                  <input
                    type="radio"
                    name="address_choice"
                    value={a.id}
                    checked={addressChoice === a.id}
                    onChange={() => setAddressChoice(a.id)}
                  />
                  <span className="choice__body">
                    <span className="choice__title">
                      {a.label || a.name}
                      {a.is_default ? <span className="status-badge">{t("checkout.defaultAddress")}</span> : null}
                    </span>
                    <span className="choice__text">
                      {a.name} · <bdi>{a.phone}</bdi>
                    </span>
                    <span className="choice__text">
                      {[a.street, a.building, a.district, a.city, a.postal_code]
                        .filter(Boolean)
                        .join(locale === "ar" ? "، " : ", ")}
                    </span>
                  </span>
                </label>
              ))}
              <label className="choice">
                <input
                  type="radio"
                  name="address_choice"
                  value="new"
                  checked={usingNewAddress}
                  onChange={() => setAddressChoice("new")}
                />
                <span className="choice__body">
                  <span className="choice__title">{t("checkout.newAddress")}</span>
                </span>
              </label>
            </div>
          ) : null}
          {signedIn && addresses && addresses.length === 0 ? (
            <p className="muted">{t("checkout.noAddresses")}</p>
          ) : null}

          {usingNewAddress ? (
            <div className="checkout__grid">
              <div className="field" data-invalid={errorOf("name") ? "true" : undefined}>
                <label htmlFor={fieldId("name", ID_PREFIX)}>
                  {labels.name}
                  <span className="field__required" aria-hidden="true">
                    {" "}
                    *
                  </span>
                </label>
                <input {...fieldProps("name")} autoComplete="name" aria-required="true" />
                {fieldError("name")}
              </div>
              <div className="field" data-invalid={errorOf("phone") ? "true" : undefined}>
                <label htmlFor={fieldId("phone", ID_PREFIX)}>
                  {labels.phone}
                  <span className="field__required" aria-hidden="true">
                    {" "}
                    *
                  </span>
                </label>
                <LazyPhoneInput
                  id={fieldId("phone", ID_PREFIX)}
                  name="phone"
                  value={values.phone}
                  defaultCountry={SHOP_COUNTRY}
                  onChange={(e164) => set("phone", e164)}
                  invalid={Boolean(errorOf("phone"))}
                  describedBy={errorOf("phone") ? `${fieldId("phone", ID_PREFIX)}-error` : undefined}
                  required
                />
                {fieldError("phone")}
              </div>
              <div className="field" data-invalid={errorOf("city") ? "true" : undefined}>
                <label htmlFor={fieldId("city", ID_PREFIX)}>
                  {labels.city}
                  <span className="field__required" aria-hidden="true">
                    {" "}
                    *
                  </span>
                </label>
                <input {...fieldProps("city")} autoComplete="address-level2" aria-required="true" />
                {fieldError("city")}
              </div>
              <div className="field" data-invalid={errorOf("district") ? "true" : undefined}>
                <label htmlFor={fieldId("district", ID_PREFIX)}>
                  {labels.district}
                  <span className="field__required" aria-hidden="true">
                    {" "}
                    *
                  </span>
                </label>
                <input {...fieldProps("district")} autoComplete="address-level3" aria-required="true" />
                {fieldError("district")}
              </div>
              <div className="field checkout__wide" data-invalid={errorOf("street") ? "true" : undefined}>
                <label htmlFor={fieldId("street", ID_PREFIX)}>
                  {labels.street}
                  <span className="field__required" aria-hidden="true">
                    {" "}
                    *
                  </span>
                </label>
                <input {...fieldProps("street")} autoComplete="address-line1" aria-required="true" />
                {fieldError("street")}
              </div>
              <div className="field" data-invalid={errorOf("building") ? "true" : undefined}>
                <label htmlFor={fieldId("building", ID_PREFIX)}>{labels.building}</label>
                <input {...fieldProps("building")} autoComplete="address-line2" />
                {fieldError("building")}
              </div>
              <div className="field" data-invalid={errorOf("postal_code") ? "true" : undefined}>
                <label htmlFor={fieldId("postal_code", ID_PREFIX)}>{labels.postal_code}</label>
                <input {...fieldProps("postal_code")} autoComplete="postal-code" inputMode="numeric" dir="ltr" />
                {fieldError("postal_code")}
              </div>
              <div className="field checkout__wide" data-invalid={errorOf("notes") ? "true" : undefined}>
                <label htmlFor={fieldId("notes", ID_PREFIX)}>{labels.notes}</label>
                <textarea {...fieldProps("notes")} rows={2} />
                {fieldError("notes")}
              </div>
            </div>
          ) : null}
        </fieldset>

        <fieldset className="checkout__section">
          <legend>{t("checkout.shippingMethod")}</legend>
          {failed && !options ? (
            <div className="notice notice--danger" role="alert">
              <p>{t("checkout.optionsFailed")}</p>
              <button type="button" className="button" onClick={retry}>
                {t("checkout.retry")}
              </button>
            </div>
          ) : null}
          {options && quotedCity ? (
            <p className="muted checkout__zone" aria-live="polite">
              {options.shipping_zone
                ? t("checkoutZone.rates", { zone: options.shipping_zone })
                : t("checkoutZone.rest")}
            </p>
          ) : null}
          {options ? (
            <div className="choice-list">
              {options.shipping_methods.map((m) => (
                <label key={m.id} className="choice">
                  <input
                    type="radio"
                    name="shipping_method"
                    value={m.id}
                    checked={shipping === m.id}
                    onChange={() => setShipping(m.id)}
                  />
                  <span className="choice__body">
                    <span className="choice__title">{m.name}</span>
                    {m.eta ? <span className="choice__text">{m.eta}</span> : null}
                  </span>
                  <span className="choice__price">
                    {m.price === 0 ? (
                      t("cart.free")
                    ) : (
                      <bdi>{formatMoney(m.price, options.totals.currency, locale)}</bdi>
                    )}
                  </span>
                </label>
              ))}
            </div>
          ) : failed ? null : (
            <p aria-busy="true" className="muted">
              {t("app.loading")}
            </p>
          )}
        </fieldset>

        <fieldset className="checkout__section">
          <legend>{t("checkout.paymentMethod")}</legend>
          {options ? (
            <div className="choice-list">
              {options.payment_methods.map((m) => (
                <label key={m.id} className="choice">
                  <input
                    type="radio"
                    name="payment_method"
                    value={m.id}
                    checked={payment === m.id}
                    onChange={() => setPayment(m.id)}
                  />
                  <span className="choice__body">
                    <span className="choice__title">{m.name}</span>
                  </span>
                </label>
              ))}
            </div>
          ) : null}
          <p className="muted checkout__secure">{t("checkout.secureNote")}</p>
        </fieldset>
      </div>

      <aside className="checkout__aside">
        <OrderSummary totals={totals} title={t("checkout.summary")}>
          <ul className="checkout__items">
            {cart.products.map((line) => (
              <li key={line.product_id}>
                {line.product?.image ? (
                  <img src={line.product.image} alt="" width={48} height={48} loading="lazy" />
                ) : null}
                <span className="checkout__item-name">{line.product?.name ?? `#${line.product_id}`}</span>
                <span className="checkout__item-qty">
                  <span className="visually-hidden">{t("cart.quantity")} </span>
                  <span aria-hidden="true">×</span>
                  <bdi>{line.quantity}</bdi>
                </span>
                <span className="checkout__item-total">
                  <bdi>{formatMoney(line.line_total ?? 0, cart.currency, locale)}</bdi>
                </span>
              </li>
            ))}
          </ul>
        </OrderSummary>
        <button
          type="submit"
          className="button button--primary button--block checkout__submit"
          disabled={busy || !options || noPayment}
          aria-busy={busy}
        >
          {busy ? t("checkout.placing") : t("checkout.placeOrder")}
        </button>
      </aside>
    </form>
  );
}
