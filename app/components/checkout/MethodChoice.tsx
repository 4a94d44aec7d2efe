import type { CheckoutOptions } from "../../../contract/checkout";
import { formatMoney } from "../../lib/money";
import { useLocale, useT } from "../../lib/use-locale";
import { PaymentMarks } from "./PaymentMarks";
import { InstalmentLine } from "../InstalmentLine";
import { instalmentTexts } from "../../lib/instalments";

interface Choice {
  options: CheckoutOptions | null;
  chosen: string | undefined;
  onChoose: (id: string) => void;
}

/** The shipping methods with their prices for this cart, the zone they are for, and a retry on failure. */
export function ShippingChoice({
  options,
  chosen,
  onChoose,
  failed,
  retry,
  quotedCity,
}: Choice & { failed: boolean; retry: () => void; quotedCity: string }) {
  const t = useT();
  const locale = useLocale();
  return (
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
          {options.shipping_zone ? t("checkoutZone.rates", { zone: options.shipping_zone }) : t("checkoutZone.rest")}
        </p>
      ) : null}
      {/* The promise follows the delivery city as it is typed or chosen (the options are asked again per city). */}
      {options?.delivery_promise && quotedCity ? (
        <p className="checkout__promise" aria-live="polite">
          <strong>{options.delivery_promise.text}</strong>
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
                checked={chosen === m.id}
                onChange={() => onChoose(m.id)}
              />
              <span className="choice__body">
                <span className="choice__title">{m.name}</span>
                {m.eta ? <span className="choice__text">{m.eta}</span> : null}
              </span>
              <span className="choice__price">
                {m.price === 0 ? t("cart.free") : <bdi>{formatMoney(m.price, options.totals.currency, locale)}</bdi>}
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
  );
}

/** The payment methods the backend offers. */
export function PaymentChoice({ options, chosen, onChoose }: Choice) {
  const t = useT();
  const locale = useLocale();
  return (
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
                checked={chosen === m.id}
                onChange={() => onChoose(m.id)}
              />
              <span className="choice__body">
                <span className="choice__title">{m.name}</span>
                {m.instalments ? (
                  <InstalmentLine
                    lines={instalmentTexts([m.instalments], options.totals.total, options.totals.currency, locale)}
                  />
                ) : m.id === "cod" ? (
                  <span className="choice__text">{t("checkout.codNote")}</span>
                ) : (
                  <PaymentMarks marks={m.marks ?? []} />
                )}
              </span>
              {m.fee ? (
                <span className="choice__price">
                  {t("checkout.codFee", {
                    amount: `\u2068${formatMoney(m.fee, options.totals.currency, locale)}\u2069`,
                  })}
                </span>
              ) : null}
            </label>
          ))}
        </div>
      ) : null}
      <p className="muted checkout__secure">{t("checkout.secureNote")}</p>
    </fieldset>
  );
}
