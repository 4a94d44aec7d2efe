/**
 * The delivery promise ("Arrives by Tuesday 9 December"): a pure rule on the shop's clock, with
 * `now` given by the caller (the backend passes the real time, tests a fixed one). No
 * dependencies but regions.ts (none of its own), so any page could load it cheaply.
 *
 * The rule: a parcel ordered on a working day before the daily cut-off (shop time, Asia/Riyadh)
 * is dispatched that day, else on the next working day; it arrives after the lead time of the
 * delivery city, counted in working days from the dispatch day. Working days are Sunday to
 * Thursday (the Saudi weekend is Friday and Saturday) that are not one of the operator's public
 * holidays. The lead time of a city is, first match wins: the operator's override for that city
 * (matched with `placeKey`, so "Al-Khobar" and "al khobar" are one city, and across languages
 * for the main cities, so "Riyadh" and "الرياض" are too), its shipping zone's (the
 * zone of the city's region, contract/settings.ts), then the rest of the country's.
 */
import { placeKey, regionOfCity, type RegionId } from "./regions.ts";

/** The `delivery` settings section (contract/settings.ts `DeliverySettings` is this). */
export interface DeliveryPromiseSettings {
  /** The daily cut-off, HH:MM in shop time: orders placed before it leave the same working day. */
  cutoff: string;
  /** Working days from dispatch to the door for the rest of the country. */
  lead_days: number;
  /** Lead time per shipping zone, by the zone's English name (a zone not listed: the rest of the country's). */
  zones: { zone: string; days: number }[];
  /** Overrides for single cities, matched with regions.ts `placeKey`. */
  cities: { city: string; days: number }[];
  /** Public holidays, YYYY-MM-DD (shop days): no dispatch and no delivery. */
  holidays: string[];
  /** Show the Hijri (Umm al-Qura) date beside the Gregorian one in Arabic. */
  hijri: boolean;
}

/** The zones of the `shipping` section, as far as the rule needs them. */
export interface PromiseZone {
  name_en: string;
  regions: readonly RegionId[];
}

export interface DeliveryPromise {
  /** The day the parcel arrives by, YYYY-MM-DD in shop time. */
  arrives_by: string;
  /** The day it leaves, YYYY-MM-DD in shop time. */
  dispatch_day: string;
  /** Working days from dispatch to arrival. */
  lead_days: number;
  /** Whether `now` was before the cut-off of a working day (so it leaves today). */
  leaves_today: boolean;
  /** Where the lead time came from. */
  basis: "city" | "zone" | "rest";
  /** Whether the Arabic text carries the Hijri date too. */
  hijri: boolean;
}

/** A promise as a page shows it: the day, and its words in the request's language. */
export interface ShownPromise {
  /** YYYY-MM-DD, shop time. */
  arrives_by: string;
  /** "Arrives by Tuesday 9 December" / "يصل بحلول الثلاثاء 9 ديسمبر". */
  text: string;
}

/**
 * GET /backend/delivery/promise?city=: the promise for the shopper's city at the server's clock.
 * Signed in with a default address, that address's city wins over `city` (the one the shopper
 * chose in the city chooser and keeps in a cookie). Never cached: it changes with the clock.
 */
export interface DeliveryPromiseAnswer {
  /** The city the promise is for, as given; null: none known (the page asks for one). */
  city: string | null;
  /** Where the city came from: the account's default address, or the shopper's choice. */
  source: "address" | "chosen" | null;
  /** Null when no city is known. */
  promise: ShownPromise | null;
  /** The cities the chooser offers, in the request's language (value: the city as it is sent back). */
  cities: { value: string; label: string }[];
}

export const DELIVERY_PROMISE_PATH = "/delivery/promise";
/** The cookie that keeps the city a shopper chose (a year; read by the page's script, not secret). */
export const CITY_COOKIE = "city";

/** Riyadh keeps UTC+3 all year (no daylight saving). */
const SHOP_OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The cut-off's pattern: 00:00 to 23:59. */
export const CUTOFF_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A calendar day as the settings store it. */
export const ISO_DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a YYYY-MM-DD is a real calendar day (not the 30th of February). */
export function isIsoDay(day: string): boolean {
  if (!ISO_DAY_PATTERN.test(day)) return false;
  const t = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === day;
}

/** Days since the epoch of a YYYY-MM-DD (UTC arithmetic, so no zone can move it). */
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
/** 0 Sunday … 6 Saturday; the epoch's first day was a Thursday. */
const weekday = (n: number) => (((n + 4) % 7) + 7) % 7;

/** Friday and Saturday: the Saudi weekend. */
export const WEEKEND_DAYS: readonly number[] = [5, 6];

/**
 * The country's largest cities in both languages: the city chooser's list, and the names a city
 * override matches across languages (an override for "Riyadh" holds for an address in "الرياض").
 */
export const MAIN_CITIES: readonly { en: string; ar: string }[] = [
  { en: "Riyadh", ar: "الرياض" },
  { en: "Jeddah", ar: "جدة" },
  { en: "Makkah", ar: "مكة المكرمة" },
  { en: "Madinah", ar: "المدينة المنورة" },
  { en: "Dammam", ar: "الدمام" },
  { en: "Khobar", ar: "الخبر" },
  { en: "Dhahran", ar: "الظهران" },
  { en: "Jubail", ar: "الجبيل" },
  { en: "Hofuf", ar: "الهفوف" },
  { en: "Qatif", ar: "القطيف" },
  { en: "Hafar Al Batin", ar: "حفر الباطن" },
  { en: "Taif", ar: "الطائف" },
  { en: "Yanbu", ar: "ينبع" },
  { en: "Buraydah", ar: "بريدة" },
  { en: "Unaizah", ar: "عنيزة" },
  { en: "Hail", ar: "حائل" },
  { en: "Tabuk", ar: "تبوك" },
  { en: "Abha", ar: "أبها" },
  { en: "Khamis Mushait", ar: "خميس مشيط" },
  { en: "Jazan", ar: "جازان" },
  { en: "Najran", ar: "نجران" },
  { en: "Al Bahah", ar: "الباحة" },
  { en: "Arar", ar: "عرعر" },
  { en: "Sakaka", ar: "سكاكا" },
];

/** A city as overrides compare it: its placeKey, or the English key of the main city it names. */
let mainKeys: Map<string, string> | null = null;
function cityKey(city: string): string {
  if (!mainKeys) {
    mainKeys = new Map();
    for (const c of MAIN_CITIES) {
      mainKeys.set(placeKey(c.en), placeKey(c.en));
      mainKeys.set(placeKey(c.ar), placeKey(c.en));
    }
  }
  const key = placeKey(city);
  return mainKeys.get(key) ?? key;
}

/** The lead time of a city and where it came from. */
export function leadDaysOf(
  settings: Pick<DeliveryPromiseSettings, "lead_days" | "zones" | "cities">,
  zones: readonly PromiseZone[],
  city: string | null | undefined,
): { days: number; basis: DeliveryPromise["basis"] } {
  if (city) {
    const key = cityKey(city);
    const own = key ? settings.cities.find((c) => cityKey(c.city) === key) : undefined;
    if (own) return { days: own.days, basis: "city" };
    const region = regionOfCity(city);
    const zone = region ? zones.find((z) => z.regions.includes(region)) : undefined;
    const days = zone ? settings.zones.find((z) => z.zone === zone.name_en)?.days : undefined;
    if (days !== undefined) return { days, basis: "zone" };
  }
  return { days: settings.lead_days, basis: "rest" };
}

/**
 * The promise for an order placed at `now` to `city` (null or unknown: the rest of the country).
 * A year of holidays in a row cannot make it loop forever: the search stops after 400 days.
 */
export function deliveryPromise(
  now: Date | number,
  city: string | null | undefined,
  settings: DeliveryPromiseSettings,
  zones: readonly PromiseZone[] = [],
): DeliveryPromise {
  const local = (now instanceof Date ? now.getTime() : now) + SHOP_OFFSET_MS;
  const today = Math.floor(local / DAY_MS);
  const minutes = Math.floor((local - today * DAY_MS) / 60_000);
  const [h, m] = CUTOFF_PATTERN.test(settings.cutoff) ? settings.cutoff.split(":").map(Number) : [14, 0];
  const cutoff = h! * 60 + m!;
  const holidays = new Set(settings.holidays);
  const working = (n: number) => !WEEKEND_DAYS.includes(weekday(n)) && !holidays.has(dayOf(n));
  const nextWorking = (n: number) => {
    let d = n;
    for (let i = 0; i < 400 && !working(d); i++) d++;
    return d;
  };
  const leavesToday = working(today) && minutes < cutoff;
  const dispatch = leavesToday ? today : nextWorking(today + 1);
  const { days, basis } = leadDaysOf(settings, zones, city);
  let arrival = dispatch;
  for (let left = days; left > 0; left--) arrival = nextWorking(arrival + 1);
  return {
    arrives_by: dayOf(arrival),
    dispatch_day: dayOf(dispatch),
    lead_days: days,
    leaves_today: leavesToday,
    basis,
    hijri: settings.hijri,
  };
}

/** Whether a delivery on `deliveredAt` (an ISO moment) kept the promise `promisedBy` (a shop day). */
export function deliveredOnTime(deliveredAt: string, promisedBy: string): boolean {
  const t = Date.parse(deliveredAt);
  return Number.isFinite(t) && dayOf(Math.floor((t + SHOP_OFFSET_MS) / DAY_MS)) <= promisedBy;
}

/**
 * Saudi Arabia's official holidays as the private sector keeps them, by Gregorian year: the
 * defaults of the `delivery` section for this year and the next (the operator edits the list).
 * - Founding Day, 22 February (a holiday by Royal Order since 2022), and National Day, 23
 *   September (Implementing Regulations of the Labour Law, article 24).
 * - Eid al-Fitr: four days from the day after 29 Ramadan; Eid al-Adha: four days from the Day of
 *   Arafah, 9 Dhu al-Hijjah (Implementing Regulations of the Labour Law, article 24(2), as the
 *   Ministry of Human Resources and Social Development announces each year).
 * The Eid days are those of the Umm al-Qura calendar (computed with ICU's `islamic-umalqura`,
 * which follows the official table); the announced break follows the moon sighting and can move
 * by a day, so the operator checks the ministry's announcement and edits the list.
 */
export const SAUDI_HOLIDAYS: Readonly<Record<number, readonly string[]>> = {
  2026: [
    "2026-02-22",
    "2026-03-19",
    "2026-03-20",
    "2026-03-21",
    "2026-03-22",
    "2026-05-26",
    "2026-05-27",
    "2026-05-28",
    "2026-05-29",
    "2026-09-23",
  ],
  2027: [
    "2027-02-22",
    "2027-03-09",
    "2027-03-10",
    "2027-03-11",
    "2027-03-12",
    "2027-05-15",
    "2027-05-16",
    "2027-05-17",
    "2027-05-18",
    "2027-09-23",
  ],
  2028: [
    "2028-02-22",
    "2028-02-26",
    "2028-02-27",
    "2028-02-28",
    "2028-02-29",
    "2028-05-04",
    "2028-05-05",
    "2028-05-06",
    "2028-05-07",
    "2028-09-23",
  ],
};

/** The default holidays at `now`: this shop year's and the next's (the fixed days alone for a year not in the table). */
export function defaultHolidays(now: Date | number = Date.now()): string[] {
  const year = new Date((now instanceof Date ? now.getTime() : now) + SHOP_OFFSET_MS).getUTCFullYear();
  return [year, year + 1].flatMap((y) => SAUDI_HOLIDAYS[y] ?? [`${y}-02-22`, `${y}-09-23`]);
}
