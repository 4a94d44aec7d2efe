import { describe, expect, it } from "vitest";
import {
  fromShopLocalInput,
  shopDay,
  shopIsoDay,
  shopLongDay,
  shopArrivesBy,
  shopMoment,
  SHOP_TIME_LABEL,
  toShopLocalInput,
} from "../../contract/shop-time";
import { formatDate } from "../../app/lib/orders";
import { consoleFormat } from "../../app/lib/console-format";
import { SHOP_TIME_CASES } from "../support/shop-time-cases";

describe("dates and times on the shop's clock, as the server writes them", () => {
  for (const c of SHOP_TIME_CASES) {
    it(`writes ${c.iso} in Riyadh time, the zone named after a time of day (${c.locale})`, () => {
      expect(shopDay(c.iso, c.locale)).toBe(c.day);
      expect(shopLongDay(c.iso, c.locale)).toBe(c.longDay);
      expect(shopMoment(c.iso, c.locale)).toBe(c.moment);
      expect(shopMoment(c.iso, c.locale)).toContain(SHOP_TIME_LABEL[c.locale]);
      expect(shopIsoDay(c.iso)).toBe(c.isoDay);
    });

    it(`the storefront's and the console's dates are the same formatter's (${c.locale})`, () => {
      expect(formatDate(c.iso, c.locale)).toBe(c.day);
      expect(formatDate(c.iso, c.locale, true)).toBe(c.moment);
      expect(consoleFormat(c.locale).moment(c.iso)).toBe(c.moment);
      expect(consoleFormat(c.locale).day(c.iso)).toBe(c.day);
    });
  }

  it("names the zone in both languages", () => {
    expect(SHOP_TIME_LABEL).toEqual({ en: "Riyadh time", ar: "بتوقيت الرياض" });
  });

  it("shows what it was given when it is not a date", () => {
    expect(shopMoment("soon", "en")).toBe("soon");
    expect(formatDate("", "ar")).toBe("");
  });

  it("turns a moment into the shop's wall time for a datetime-local input and back", () => {
    expect(toShopLocalInput("2026-12-04T13:23:00Z")).toBe("2026-12-04T16:23");
    expect(fromShopLocalInput("2026-12-04T16:23")).toBe("2026-12-04T16:23+03:00");
    expect(new Date(fromShopLocalInput(toShopLocalInput("2026-12-04T13:23:00.000Z"))!).toISOString()).toBe(
      "2026-12-04T13:23:00.000Z",
    );
    expect(toShopLocalInput(null)).toBe("");
    expect(fromShopLocalInput("  ")).toBeNull();
  });
});

describe("the delivery promise's words, as the backend writes them in the Workers runtime", () => {
  it("writes the same text as Node: Gregorian with Latin digits, and the Umm al-Qura date when chosen", () => {
    expect(shopArrivesBy("2026-12-08", "en")).toBe("Arrives by Tuesday 8 December");
    expect(shopArrivesBy("2026-12-08", "ar")).toBe("يصل بحلول الثلاثاء 8 ديسمبر");
    expect(shopArrivesBy("2026-12-08", "ar", true)).toBe("يصل بحلول الثلاثاء 8 ديسمبر (28 جمادى الآخرة 1448 هـ)");
  });
});
