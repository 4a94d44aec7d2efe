import { describe, expect, it } from "vitest";
import {
  defaultHolidays,
  deliveredOnTime,
  deliveryPromise,
  isIsoDay,
  SAUDI_HOLIDAYS,
  type DeliveryPromiseSettings,
} from "../../contract/delivery-promise";
import { shopArrivalDay, shopArrivesBy } from "../../contract/shop-time";

/**
 * The delivery promise (contract/delivery-promise.ts) on a fixed clock: Sunday 6 December 2026 is
 * a working day in Riyadh, Friday 11 and Saturday 12 the weekend.
 */

/** A moment given in Riyadh's wall time (UTC+3). */
const riyadh = (wall: string) => new Date(`${wall}+03:00`);

const settings: DeliveryPromiseSettings = {
  cutoff: "14:00",
  lead_days: 3,
  zones: [{ zone: "West", days: 2 }],
  cities: [
    { city: "Riyadh", days: 1 },
    { city: "Al-Khobar", days: 4 },
  ],
  holidays: [],
  hijri: false,
};
const zones = [{ name_en: "West", regions: ["makkah"] as const }];

describe("the delivery promise", () => {
  it("changes with the time of day: before the cut-off it leaves today, from the cut-off on the next working day", () => {
    const morning = deliveryPromise(riyadh("2026-12-06T10:00"), "Riyadh", settings, zones);
    expect(morning).toMatchObject({ dispatch_day: "2026-12-06", arrives_by: "2026-12-07", leaves_today: true });
    const lastMinute = deliveryPromise(riyadh("2026-12-06T13:59"), "Riyadh", settings, zones);
    expect(lastMinute.arrives_by).toBe("2026-12-07");
    const atCutoff = deliveryPromise(riyadh("2026-12-06T14:00"), "Riyadh", settings, zones);
    expect(atCutoff).toMatchObject({ dispatch_day: "2026-12-07", arrives_by: "2026-12-08", leaves_today: false });
    // Riyadh's midnight, not UTC's: 23:30 on Sunday in Riyadh is still Sunday there (20:30 UTC).
    const late = deliveryPromise(new Date("2026-12-06T20:30:00Z"), "Riyadh", settings, zones);
    expect(late.dispatch_day).toBe("2026-12-07");
    // 00:30 on Monday in Riyadh is Sunday 21:30 UTC: Monday's order, before Monday's cut-off.
    const earlyMonday = deliveryPromise(new Date("2026-12-06T21:30:00Z"), "Riyadh", settings, zones);
    expect(earlyMonday).toMatchObject({ dispatch_day: "2026-12-07", leaves_today: true, arrives_by: "2026-12-08" });
  });

  it("changes with the city: a city of its own, the city's shipping zone, the rest of the country", () => {
    const now = riyadh("2026-12-06T10:00");
    expect(deliveryPromise(now, "Riyadh", settings, zones)).toMatchObject({ basis: "city", arrives_by: "2026-12-07" });
    // Jeddah is in Makkah region, the West zone: two working days.
    expect(deliveryPromise(now, "Jeddah", settings, zones)).toMatchObject({ basis: "zone", arrives_by: "2026-12-08" });
    expect(deliveryPromise(now, "جدة", settings, zones).arrives_by).toBe("2026-12-08");
    // Tabuk is in no zone: the rest of the country's three.
    expect(deliveryPromise(now, "Tabuk", settings, zones)).toMatchObject({ basis: "rest", arrives_by: "2026-12-09" });
    expect(deliveryPromise(now, "Nowhere", settings, zones).arrives_by).toBe("2026-12-09");
    expect(deliveryPromise(now, null, settings, zones).arrives_by).toBe("2026-12-09");
    // Overrides match as placeKey reads names: "al khobar" is "Al-Khobar".
    expect(deliveryPromise(now, "al khobar", settings, zones)).toMatchObject({ basis: "city", lead_days: 4 });
    // The main cities match across languages: the override for "Riyadh" holds for "الرياض".
    expect(deliveryPromise(now, "الرياض", settings, zones)).toMatchObject({ basis: "city", lead_days: 1 });
    expect(deliveryPromise(now, "الخبر", settings, zones)).toMatchObject({ basis: "city", lead_days: 4 });
    // A zone without a lead time of its own: the rest of the country's.
    expect(deliveryPromise(now, "Jeddah", { ...settings, zones: [] }, zones).basis).toBe("rest");
  });

  it("skips the weekend, Friday and Saturday, when leaving and when counting", () => {
    // Thursday after the cut-off: leaves Sunday, arrives Monday.
    const thursday = deliveryPromise(riyadh("2026-12-10T15:00"), "Riyadh", settings, zones);
    expect(thursday).toMatchObject({ dispatch_day: "2026-12-13", arrives_by: "2026-12-14" });
    // Thursday morning, three days: Sunday, Monday, Tuesday.
    expect(deliveryPromise(riyadh("2026-12-10T09:00"), "Tabuk", settings, zones).arrives_by).toBe("2026-12-15");
    // Friday and Saturday morning are not working days: before the cut-off changes nothing.
    for (const day of ["2026-12-11", "2026-12-12"]) {
      const weekend = deliveryPromise(riyadh(`${day}T09:00`), "Riyadh", settings, zones);
      expect(weekend).toMatchObject({ dispatch_day: "2026-12-13", arrives_by: "2026-12-14", leaves_today: false });
    }
  });

  it("skips public holidays: no dispatch and no delivery on them", () => {
    const withHolidays = { ...settings, holidays: SAUDI_HOLIDAYS[2027]! as string[] };
    // National Day 2027 is Thursday 23 September: Wednesday's Riyadh order arrives on Sunday 26.
    const before = deliveryPromise(riyadh("2027-09-22T10:00"), "Riyadh", withHolidays, zones);
    expect(before).toMatchObject({ dispatch_day: "2027-09-22", arrives_by: "2027-09-26" });
    expect(deliveryPromise(riyadh("2027-09-22T10:00"), "Riyadh", settings, zones).arrives_by).toBe("2027-09-23");
    // Ordered on the holiday itself, before the cut-off: it leaves on Sunday.
    const on = deliveryPromise(riyadh("2027-09-23T09:00"), "Riyadh", withHolidays, zones);
    expect(on).toMatchObject({ dispatch_day: "2027-09-26", arrives_by: "2027-09-27", leaves_today: false });
    // Eid al-Fitr 1448 (9 to 12 March 2027, Tuesday to Friday) then the weekend: Monday's order
    // after the cut-off leaves on Sunday 14 March.
    const eid = deliveryPromise(riyadh("2027-03-08T16:00"), "Tabuk", withHolidays, zones);
    expect(eid).toMatchObject({ dispatch_day: "2027-03-14", arrives_by: "2027-03-17" });
  });

  it("lead time 0 arrives on the day it leaves; a wrong cut-off reads as 14:00", () => {
    const same = { ...settings, cities: [{ city: "Riyadh", days: 0 }] };
    expect(deliveryPromise(riyadh("2026-12-06T10:00"), "Riyadh", same, zones).arrives_by).toBe("2026-12-06");
    const broken = { ...settings, cutoff: "25:00" };
    expect(deliveryPromise(riyadh("2026-12-06T13:00"), "Riyadh", broken, zones).leaves_today).toBe(true);
    expect(deliveryPromise(riyadh("2026-12-06T14:30"), "Riyadh", broken, zones).leaves_today).toBe(false);
  });

  it("defaults to this year's and next year's official holidays", () => {
    const days = defaultHolidays(riyadh("2026-12-06T10:00"));
    expect(days).toEqual([...SAUDI_HOLIDAYS[2026]!, ...SAUDI_HOLIDAYS[2027]!]);
    for (const year of [2026, 2027, 2028])
      expect(SAUDI_HOLIDAYS[year]).toEqual(expect.arrayContaining([`${year}-02-22`, `${year}-09-23`]));
    // Riyadh's new year comes three hours before UTC's.
    expect(defaultHolidays(new Date("2026-12-31T21:30:00Z"))[0]).toBe("2027-02-22");
    expect(defaultHolidays(new Date("2030-06-01T00:00:00Z"))).toEqual([
      "2030-02-22",
      "2030-09-23",
      "2031-02-22",
      "2031-09-23",
    ]);
  });

  it("the Eid days of the table are the Umm al-Qura calendar's: the day after 29 Ramadan, and the Day of Arafah", () => {
    const hijri = new Intl.DateTimeFormat("en-u-ca-islamic-umalqura-nu-latn", {
      timeZone: "UTC",
      day: "numeric",
      month: "numeric",
    });
    const dm = (day: string) => hijri.format(new Date(`${day}T12:00:00Z`));
    for (const year of [2026, 2027, 2028]) {
      const eids = SAUDI_HOLIDAYS[year]!.filter((d) => !d.endsWith("-02-22") && !d.endsWith("-09-23"));
      expect(eids).toHaveLength(8);
      // Eid al-Fitr's break starts the day after 29 Ramadan (30 Ramadan or 1 Shawwal) …
      expect(["9/30", "10/1"]).toContain(dm(eids[0]!));
      // … and Eid al-Adha's on the Day of Arafah, 9 Dhu al-Hijjah.
      expect(dm(eids[4]!)).toBe("12/9");
    }
  });

  it("tells whether a delivery kept its promise, by the shop's day of delivered_at", () => {
    expect(deliveredOnTime("2026-12-08T20:59:00Z", "2026-12-08")).toBe(true);
    // 21:00 UTC is midnight in Riyadh: the next shop day, one day late.
    expect(deliveredOnTime("2026-12-08T21:00:00Z", "2026-12-08")).toBe(false);
    expect(deliveredOnTime("2026-12-05T10:00:00Z", "2026-12-08")).toBe(true);
  });

  it("reads only real calendar days as holidays", () => {
    expect(isIsoDay("2028-02-29")).toBe(true);
    expect(isIsoDay("2027-02-29")).toBe(false);
    expect(isIsoDay("2026-13-01")).toBe(false);
    expect(isIsoDay("26-12-01")).toBe(false);
  });
});

describe("the promise in words", () => {
  it("writes the day with its weekday, Gregorian with Latin digits in both languages", () => {
    expect(shopArrivesBy("2026-12-08", "en")).toBe("Arrives by Tuesday 8 December");
    expect(shopArrivesBy("2026-12-08", "ar")).toBe("يصل بحلول الثلاثاء 8 ديسمبر");
    expect(shopArrivalDay("2027-01-03", "en")).toBe("Sunday 3 January");
  });

  it("adds the Umm al-Qura date in Arabic when the owner chose it, never in English", () => {
    expect(shopArrivesBy("2026-12-08", "ar", true)).toBe("يصل بحلول الثلاثاء 8 ديسمبر (28 جمادى الآخرة 1448 هـ)");
    expect(shopArrivesBy("2027-03-09", "ar", true)).toBe("يصل بحلول الثلاثاء 9 مارس (1 شوال 1448 هـ)");
    expect(shopArrivesBy("2026-12-08", "en", true)).toBe("Arrives by Tuesday 8 December");
    expect(shopArrivesBy("2026-12-08", "ar", true)).not.toMatch(/[\u0660-\u0669]/);
  });
});
