import type { Locale } from "./locales";

/**
 * Money is integer minor units (halalas for SAR) with an ISO currency (DESIGN §6). Arabic shows
 * Latin digits, as Saudi retailers do (`ar-SA-u-nu-latn`).
 */
const INTL_TAGS: Record<Locale, string> = { en: "en-US", ar: "ar-SA-u-nu-latn" };

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, locale: Locale): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(INTL_TAGS[locale], { style: "currency", currency, currencyDisplay: "symbol" });
    formatters.set(key, f);
  }
  return f;
}

const digits = new Map<string, number>();

/** How many minor units make one major unit of a currency (100 for SAR, 1000 for KWD, 1 for JPY). */
export function minorUnitDigits(currency: string): number {
  let d = digits.get(currency);
  if (d === undefined) {
    // resolvedOptions() builds a fresh object each call: read it once per currency (it showed in the SSR profile).
    d = formatter(currency, "en").resolvedOptions().maximumFractionDigits ?? 2;
    digits.set(currency, d);
  }
  return d;
}

/** The amount as a decimal major-unit number: 129900 SAR → 1299. */
export function toMajor(minor: number, currency: string): number {
  return minor / 10 ** minorUnitDigits(currency);
}

/** The amount as a decimal string for machines (JSON-LD `price`): 129950 SAR → "1299.50". */
export function toDecimalString(minor: number, currency: string): string {
  return toMajor(minor, currency).toFixed(minorUnitDigits(currency));
}

/** `formatMoney(129900, "SAR", "en")` → "SAR 1,299.00"; in Arabic the same digits with the Arabic sign. */
export function formatMoney(minor: number, currency: string, locale: Locale): string {
  const code = (currency || "SAR").toUpperCase();
  return formatter(code, locale).format(toMajor(Number.isFinite(minor) ? minor : 0, code));
}
