// Every date and time the shop writes (storefront, console, tax documents, messages) comes from
// here: Intl in the reader's language, on the shop's clock (SHOP_TIME_ZONE), never the clock of
// whatever machine renders it. The server (UTC) and a browser anywhere must write the same text,
// or React finds a different page when it hydrates.
import { SHOP_TIME_ZONE, type Locale } from "./locale.ts";

export { fromShopLocalInput, shopIsoDay, toShopLocalInput } from "./shop-clock.ts";

/** Gregorian calendar and Latin digits in Arabic too, as prices are written (app/lib/money.ts). */
const TAGS: Record<Locale, string> = { en: "en-US", ar: "ar-SA-u-nu-latn-ca-gregory" };

/**
 * The zone named after a time of day. Kept beside the formatter rather than in locales/*.json: the
 * edge's messages and the storefront both write it, and both must write it alike.
 */
export const SHOP_TIME_LABEL: Record<Locale, string> = { en: "Riyadh time", ar: "بتوقيت الرياض" };

type Style = "day" | "longDay" | "time";
const OPTIONS: Record<Style, Intl.DateTimeFormatOptions> = {
  day: { dateStyle: "medium" },
  longDay: { dateStyle: "long" },
  time: { dateStyle: "medium", timeStyle: "short" },
};

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: Locale, style: Style): Intl.DateTimeFormat {
  const key = `${locale}:${style}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(TAGS[locale], { ...OPTIONS[style], timeZone: SHOP_TIME_ZONE, calendar: "gregory" });
    formatters.set(key, f);
  }
  return f;
}

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * ICU releases differ in the space they put before "PM" and inside dates (a narrow no-break
 * space in some, a plain one in others): one space for all, so the text does not depend on
 * the engine.
 */
const spaces = (text: string) => text.replace(/[\u202f\u00a0]/g, " ");

function write(value: string | number | Date, locale: Locale, style: Style): string {
  const date = toDate(value);
  if (!date) return String(value);
  return spaces(formatter(locale, style).format(date));
}

/** The shop's day of a moment: "Dec 4, 2026" / "04‏/12‏/2026". */
export function shopDay(value: string | number | Date, locale: Locale): string {
  return write(value, locale, "day");
}

/** The shop's day in words: "December 4, 2026" / "4 ديسمبر 2026". */
export function shopLongDay(value: string | number | Date, locale: Locale): string {
  return write(value, locale, "longDay");
}

/** A moment with its time of day and the zone it is in: "Dec 4, 2026, 4:23 PM (Riyadh time)". */
export function shopMoment(value: string | number | Date, locale: Locale): string {
  const date = toDate(value);
  if (!date) return String(value);
  return `${write(date, locale, "time")} (${SHOP_TIME_LABEL[locale]})`;
}

/** "Arrives by …" as the shop writes it, beside the day: the storefront and the backend both say it. */
export const ARRIVES_BY: Record<Locale, (day: string) => string> = {
  en: (day) => `Arrives by ${day}`,
  ar: (day) => `يصل بحلول ${day}`,
};

const arrivalFormatters = new Map<string, Intl.DateTimeFormat>();

function arrivalFormatter(tag: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let f = arrivalFormatters.get(tag);
  if (!f) {
    // The day is a calendar day already (YYYY-MM-DD in shop time): written at its UTC noon in UTC.
    f = new Intl.DateTimeFormat(tag, { ...options, timeZone: "UTC" });
    arrivalFormatters.set(tag, f);
  }
  return f;
}

/**
 * A promised day (YYYY-MM-DD, the shop's) in words: "Tuesday 9 December" / "الثلاثاء 9 ديسمبر",
 * Gregorian with Latin digits as every date the shop writes. With `hijri`, Arabic adds the Umm
 * al-Qura date beside it: "الثلاثاء 9 ديسمبر (18 جمادى الآخرة 1448 هـ)". The year is left out:
 * a promise is days away.
 */
export function shopArrivalDay(day: string, locale: Locale, hijri = false): string {
  const date = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  const parts = arrivalFormatter(TAGS[locale], {
    weekday: "long",
    day: "numeric",
    month: "long",
    calendar: "gregory",
  }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  // Weekday, day, month in that order in both languages, whatever order the ICU release prefers.
  const gregorian = `${part("weekday")} ${part("day")} ${part("month")}`;
  if (!hijri || locale !== "ar") return gregorian;
  const islamic = arrivalFormatter("ar-SA-u-nu-latn-ca-islamic-umalqura", {
    day: "numeric",
    month: "long",
    year: "numeric",
  });
  return `${gregorian} (${spaces(islamic.format(date))})`;
}

/** The whole promise: "Arrives by Tuesday 9 December". */
export function shopArrivesBy(day: string, locale: Locale, hijri = false): string {
  return ARRIVES_BY[locale](shopArrivalDay(day, locale, hijri));
}
