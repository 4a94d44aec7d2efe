import { formatMoney } from "./money";
import type { Translate } from "./i18n";
import type { Locale } from "./locales";
import { shopDay, shopMoment } from "../../contract/shop-time";

export { fromShopLocalInput, toShopLocalInput } from "../../contract/shop-time";

/**
 * How the console's promo, customer and dashboard pages write numbers, money and moments: Intl in
 * the page's language (Latin digits in Arabic, as money.ts does); dates and times come from the
 * shop's one formatter (contract/shop-time.ts), on the shop's clock.
 */

const TAGS: Record<Locale, string> = { en: "en-GB", ar: "ar-SA-u-nu-latn" };

export function consoleFormat(locale: Locale) {
  const number = new Intl.NumberFormat(TAGS[locale]);
  return {
    locale,
    number: (n: number) => number.format(n),
    /** A number with exactly `digits` decimals (a CLS score: 0.042). */
    decimal: (n: number, digits: number) =>
      new Intl.NumberFormat(TAGS[locale], { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n),
    money: (halalas: number, currency = "SAR") => formatMoney(halalas, currency, locale),
    moment: (iso: string) => shopMoment(iso, locale),
    day: (iso: string) => shopDay(iso, locale),
  };
}

/** A promo code's discount in words: "10% off, up to SAR 150.00" or "SAR 50.00 off". */
export function promoDiscountLabel(
  p: { discount_type: 1 | 2; value: number; max_discount: number | null },
  t: Translate,
  f: ReturnType<typeof consoleFormat>,
): string {
  if (p.discount_type === 2) return t("console.promoCodes.amountOff", { amount: f.money(p.value) });
  const off = t("console.promoCodes.percentOff", { value: f.number(p.value) });
  return p.max_discount === null
    ? off
    : `${off}${t("console.promoCodes.comma")}${t("console.promoCodes.upTo", { amount: f.money(p.max_discount) })}`;
}
