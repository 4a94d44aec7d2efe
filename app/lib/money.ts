import type { Locale } from "./locales";

/**
 * Money is integer minor units (halalas for SAR) with an ISO currency (DESIGN §6). Arabic shows
 * Latin digits, as Saudi retailers do (`ar-SA-u-nu-latn`).
 */
export const INTL_TAGS: Record<Locale, string> = { en: "en-US", ar: "ar-SA-u-nu-latn" };

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

/**
 * ISO 4217 minor units of the currencies a Gulf shop meets, so reading them never builds an
 * `Intl.NumberFormat` (its first construction on a page is a long main-thread task in Chromium;
 * docs/PERFORMANCE.md, "Measurements behind the code"). Any other currency asks Intl once.
 */
const digits = new Map<string, number>([
  ["SAR", 2],
  ["AED", 2],
  ["QAR", 2],
  ["USD", 2],
  ["EUR", 2],
  ["EGP", 2],
  ["KWD", 3],
  ["BHD", 3],
  ["OMR", 3],
  ["JOD", 3],
  ["JPY", 0],
]);

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

/** A round amount without its minor digits, for price bands: `formatWholeMoney(50000, "SAR", "en")` → "SAR 500". */
export function formatWholeMoney(minor: number, currency: string, locale: Locale): string {
  const code = (currency || "SAR").toUpperCase();
  return new Intl.NumberFormat(INTL_TAGS[locale], {
    style: "currency",
    currency: code,
    currencyDisplay: "symbol",
    maximumFractionDigits: 0,
    minimumFractionDigits: 0,
  }).format(toMajor(minor, code));
}

/**
 * Prices formatted on the server, sent with the data of a page's first paint. Rendered as they
 * are, they spare the browser an `Intl.NumberFormat` during hydration, the largest single task of
 * hydrating a product page (docs/PERFORMANCE.md, "Lighthouse against the targets"); `Price` falls
 * back to formatting when a price comes without them (the cart, orders, checkout).
 */
export interface PriceLabels {
  price_label: string;
  compare_at_label: string | null;
}

/**
 * Prices the loaders formatted, by locale, currency and amount: a render formats every card's
 * price, and a shop shows the same few hundred prices over and over (each `format` is ICU work;
 * docs/PERFORMANCE.md, "A fresh render within the CPU budget"). Only the loaders' helpers below
 * use it, so the browser's bundle does not carry it. Bounded: emptied when full.
 */
const labels = new Map<string, string>();

export function priceLabel(minor: number, currency: string, locale: Locale): string {
  const key = `${locale}|${currency}|${minor}`;
  let label = labels.get(key);
  if (label === undefined) {
    if (labels.size >= 2_000) labels.clear();
    labels.set(key, (label = formatMoney(minor, currency, locale)));
  }
  return label;
}

/** The items with their price (and former price) formatted for the locale. */
export function withPriceLabels<T extends { price: number; compare_at_price: number | null; currency: string }>(
  items: T[],
  locale: Locale,
): (T & PriceLabels)[] {
  return items.map((item) => ({
    ...item,
    price_label: priceLabel(item.price, item.currency, locale),
    compare_at_label: item.compare_at_price === null ? null : priceLabel(item.compare_at_price, item.currency, locale),
  }));
}

/** The same for services, priced "from". */
export function withPriceFromLabels<T extends { price_from: number; currency: string }>(
  items: T[],
  locale: Locale,
): (T & { price_label: string })[] {
  return items.map((item) => ({ ...item, price_label: priceLabel(item.price_from, item.currency, locale) }));
}

/** A percentage (12.5 → "12.5%"), in the locale's digits as money is; at most two decimals. */
export function formatPercent(percent: number, locale: Locale): string {
  return new Intl.NumberFormat(INTL_TAGS[locale], { style: "percent", maximumFractionDigits: 2 }).format(percent / 100);
}
