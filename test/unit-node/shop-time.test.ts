import { afterEach, describe, expect, it } from "vitest";
import { shopDay, shopIsoDay, shopLongDay, shopMoment } from "../../contract/shop-time.ts";
import { SHOP_TIME_CASES } from "../support/shop-time-cases.ts";

/**
 * A browser renders the same page again when it hydrates, on its own clock. Node stands in for it
 * here, its host zone switched: whatever the zone, the text is the server's
 * (test/unit/shop-time.test.ts checks the same cases in the Workers runtime).
 */
const hostZone = process.env.TZ;
afterEach(() => {
  if (hostZone === undefined) delete process.env.TZ;
  else process.env.TZ = hostZone;
});

describe("dates and times on the shop's clock, as a browser anywhere writes them", () => {
  for (const zone of ["UTC", "Asia/Riyadh", "America/Los_Angeles", "Pacific/Kiritimati"]) {
    it(`a browser in ${zone} writes what the server wrote`, () => {
      process.env.TZ = zone;
      expect(new Date("2026-12-04T13:23:00Z").getTimezoneOffset()).toBe(
        { UTC: 0, "Asia/Riyadh": -180, "America/Los_Angeles": 480, "Pacific/Kiritimati": -840 }[zone],
      );
      for (const c of SHOP_TIME_CASES) {
        expect(shopDay(c.iso, c.locale)).toBe(c.day);
        expect(shopLongDay(c.iso, c.locale)).toBe(c.longDay);
        expect(shopMoment(c.iso, c.locale)).toBe(c.moment);
        expect(shopIsoDay(c.iso)).toBe(c.isoDay);
      }
    });
  }
});
