import { formatMoney } from "./money";
import type { Translate } from "./i18n";
import type { Locale } from "./locales";
import { SHOP_TIME_ZONE } from "../../contract/locale";

/**
 * How the console's promo, customer and dashboard pages write numbers, money and moments: Intl in
 * the page's language (Latin digits in Arabic, as money.ts does), times in the shop's zone.
 */
/** Riyadh is UTC+3 all year: a local time typed in a form is that moment minus three hours. */
const SHOP_OFFSET = "+03:00";
const SHOP_OFFSET_MS = 3 * 60 * 60 * 1000;

const TAGS: Record<Locale, string> = { en: "en-GB", ar: "ar-SA-u-nu-latn" };

export function consoleFormat(locale: Locale) {
  const number = new Intl.NumberFormat(TAGS[locale]);
  // The Gregorian calendar named, not left to ar-SA's default: the server's ICU and the browser's agree.
  const moment = new Intl.DateTimeFormat(TAGS[locale], {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: SHOP_TIME_ZONE,
    calendar: "gregory",
  });
  const day = new Intl.DateTimeFormat(TAGS[locale], {
    dateStyle: "medium",
    timeZone: SHOP_TIME_ZONE,
    calendar: "gregory",
  });
  return {
    number: (n: number) => number.format(n),
    /** A number with exactly `digits` decimals (a CLS score: 0.042). */
    decimal: (n: number, digits: number) =>
      new Intl.NumberFormat(TAGS[locale], { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n),
    money: (halalas: number, currency = "SAR") => formatMoney(halalas, currency, locale),
    moment: (iso: string) => moment.format(new Date(iso)),
    day: (iso: string) => day.format(new Date(iso)),
  };
}

/** An ISO moment as the value of a datetime-local input, in the shop's time. */
export function toShopLocalInput(iso: string | null): string {
  if (!iso) return "";
  return new Date(new Date(iso).getTime() + SHOP_OFFSET_MS).toISOString().slice(0, 16);
}

/** A datetime-local value (shop's time) as the ISO moment the API takes; empty stays null. */
export function fromShopLocalInput(value: string): string | null {
  const trimmed = value.trim();
  return trimmed ? `${trimmed}${SHOP_OFFSET}` : null;
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
