import { useEffect, useState } from "react";
import type { Totals } from "../../contract/orders";
import type { CheckoutOptions } from "../../contract/checkout";
import { browserApi } from "./api/browser";
import type { Locale } from "./locales";

/**
 * The totals of the options, with the chosen payment method's fee (cash on delivery) added as the
 * backend adds it when the order is placed: to the total, and to the VAT the total contains.
 */
export function optionsTotals(options: CheckoutOptions, payment?: string): Totals {
  const { subtotal, discount, shipping, vat, total, currency } = options.totals;
  const fee = options.payment_methods.find((m) => m.id === payment)?.fee ?? 0;
  if (!fee || options.vat_rate === undefined) return { subtotal, discount, shipping, vat, total, currency };
  const withFee = total + fee;
  const rate = options.vat_rate;
  return {
    subtotal,
    discount,
    shipping,
    cod_fee: fee,
    vat: Math.round((withFee * rate) / (1 + rate)),
    total: withFee,
    currency,
  };
}

/**
 * The checkout options and totals for the current cart, read again whenever `revision` (the
 * cart's state), the chosen shipping method or the delivery city (which picks the shipping zone)
 * changes. Failures leave `options` null.
 */
export function useCheckoutOptions(
  locale: Locale,
  revision: string,
  shippingMethod?: string,
  enabled = true,
  city?: string,
) {
  const [options, setOptions] = useState<CheckoutOptions | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    browserApi(locale)
      .get<CheckoutOptions>("/checkout/options", {
        query: { shipping_method: shippingMethod, city },
        signal: controller.signal,
      })
      .then((res) => {
        setOptions(res.data);
        setFailed(false);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => controller.abort();
  }, [locale, revision, shippingMethod, enabled, attempt, city]);
  return { options, failed, retry: () => setAttempt((n) => n + 1) };
}

/** `value`, once it has stayed the same for `ms`: a typed field asks the backend once the typing pauses. */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** One idempotency key per checkout attempt: a doubled submit reuses it, a new attempt gets a new one. */
export function newIdempotencyKey(): string {
  if (typeof crypto !== "undefined" && "randomUUID" in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}
