import { useRef } from "react";
import { Link } from "../lib/link";
import { optionsTotals } from "../lib/checkout";
import { loadValibot } from "../lib/forms";
import { formatMoney } from "../lib/money";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { AddressChoice } from "./checkout/AddressChoice";
import { AddressFields } from "./checkout/AddressFields";
import { BusinessBuyer } from "./checkout/BusinessBuyer";
import { CartReminderConsent } from "./checkout/CartReminderConsent";
import { FieldError, FieldLabel, ID_PREFIX, inputProps } from "./checkout/fields";
import { PaymentChoice, ShippingChoice } from "./checkout/MethodChoice";
import { useCheckoutForm } from "./checkout/useCheckoutForm";
import { ErrorSummary } from "./form/ErrorSummary";
import { ChallengeSlot } from "./challenge/ChallengeSlot";
import { OrderSummary } from "./OrderSummary";
import { lineKey } from "../state/cart";

/** The form validates while rendering, so the route shows it only once valibot is there. */
export const ready: Promise<unknown> = loadValibot();

/**
 * The checkout form: contact (guests), the delivery address (a saved one for signed-in
 * visitors, or a new one), shipping and payment methods, and the order summary. Its state and
 * submit are useCheckoutForm's; the sections are in components/checkout/.
 */
export function CheckoutForm({ onPlaced }: { onPlaced: (orderNumber: string) => void }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const form = useCheckoutForm(onPlaced);
  const formRef = useRef<HTMLFormElement>(null);
  const { cart, options, signedIn, addresses } = form;
  // The shop cannot take payments (no provider configured): nothing can be ordered, and the page says why.
  const noPayment = options !== null && options.payment_methods.length === 0;
  const totals = options
    ? optionsTotals(options, form.payment)
    : {
        subtotal: cart.subtotal,
        discount: cart.discount,
        shipping: null,
        vat: null,
        total: cart.total,
        currency: cart.currency,
      };

  return (
    <form ref={formRef} className="checkout__layout" onSubmit={(e) => void form.submit(e)} noValidate>
      <div className="checkout__main">
        {noPayment ? (
          <div className="notice notice--danger" role="alert">
            <p>{t("checkout.paymentsUnavailable")}</p>
          </div>
        ) : null}
        {form.summaryMessage ? (
          <ErrorSummary
            title={form.challenge.challenge ? t("challenge.title") : t("form.summary")}
            message={form.summaryMessage}
            errors={form.summaryErrors}
            labels={form.labels}
            idPrefix={ID_PREFIX}
            focusKey={form.submitted}
          />
        ) : null}

        {signedIn ? null : (
          <fieldset className="checkout__section">
            <legend>{t("checkout.contact")}</legend>
            <div className="field" data-invalid={form.errorOf("email") ? "true" : undefined}>
              <FieldLabel form={form} name="email" required />
              <input {...inputProps(form, "email")} type="email" autoComplete="email" dir="ltr" aria-required="true" />
              <p className="field__hint muted">{t("checkout.emailHint")}</p>
              <FieldError form={form} name="email" />
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
            <AddressChoice addresses={addresses} choice={form.addressChoice} onChoose={form.setAddressChoice} />
          ) : null}
          {signedIn && addresses && addresses.length === 0 ? (
            <p className="muted">{t("checkout.noAddresses")}</p>
          ) : null}
          {form.usingNewAddress ? <AddressFields form={form} /> : null}
        </fieldset>

        <CartReminderConsent signedIn={signedIn} email={form.values.email} phone={form.values.phone} />

        <BusinessBuyer
          form={form}
          open={form.business}
          onOpen={form.setBusiness}
          addressProblem={form.submitted > 0 || form.business ? form.addressProblem : ""}
        />

        <ShippingChoice
          options={options}
          chosen={form.shipping}
          onChoose={form.setShipping}
          failed={form.failed}
          retry={form.retry}
          quotedCity={form.quotedCity}
        />
        <PaymentChoice options={options} chosen={form.payment} onChoose={form.setPayment} />
      </div>

      <aside className="checkout__aside">
        <OrderSummary totals={totals} title={t("checkout.summary")}>
          <ul className="checkout__items">
            {cart.products.map((line) => (
              <li key={lineKey(line)}>
                {line.product?.image ? (
                  <img src={line.product.image} alt="" width={48} height={48} loading="lazy" />
                ) : null}
                <span className="checkout__item-name">
                  {line.product?.name ?? `#${line.product_id}`}
                  {line.variant ? <span className="checkout__item-variant"> · {line.variant}</span> : null}
                </span>
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
        <ChallengeSlot
          state={form.challenge}
          onToken={(token) => {
            form.challenge.solved(token);
            formRef.current?.requestSubmit();
          }}
        />
        <button
          type="submit"
          className="button button--primary button--block checkout__submit"
          disabled={form.busy || !options || noPayment}
          aria-busy={form.busy}
        >
          {form.busy ? t("checkout.placing") : t("checkout.placeOrder")}
        </button>
      </aside>
    </form>
  );
}
