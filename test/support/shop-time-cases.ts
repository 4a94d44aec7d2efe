// What the shop's one date formatter (contract/shop-time.ts) must write, checked in the Workers
// runtime (the server that renders pages: test/unit/shop-time.test.ts) and in Node under several
// host zones (a browser anywhere: test/unit-node/shop-time.test.ts), so both write the same.
import type { Locale } from "../../contract/locale.ts";

export interface ShopTimeCase {
  iso: string;
  locale: Locale;
  day: string;
  longDay: string;
  moment: string;
  isoDay: string;
}

export const SHOP_TIME_CASES: ShopTimeCase[] = [
  // 13:23 UTC is 4:23 PM in Riyadh (the trial's order: 1:23 from the server, 4:23 in the browser).
  {
    iso: "2026-12-04T13:23:00Z",
    locale: "en",
    day: "Dec 4, 2026",
    longDay: "December 4, 2026",
    moment: "Dec 4, 2026, 4:23 PM (Riyadh time)",
    isoDay: "2026-12-04",
  },
  {
    iso: "2026-12-04T13:23:00Z",
    locale: "ar",
    day: "04\u200f/12\u200f/2026",
    longDay: "4 ديسمبر 2026",
    moment: "04\u200f/12\u200f/2026، 4:23 م (بتوقيت الرياض)",
    isoDay: "2026-12-04",
  },
  // 22:30 UTC on Saturday 7 March is already Sunday 8 March in Riyadh: the day moves too.
  {
    iso: "2026-03-07T22:30:00Z",
    locale: "en",
    day: "Mar 8, 2026",
    longDay: "March 8, 2026",
    moment: "Mar 8, 2026, 1:30 AM (Riyadh time)",
    isoDay: "2026-03-08",
  },
  {
    iso: "2026-03-07T22:30:00Z",
    locale: "ar",
    day: "08\u200f/03\u200f/2026",
    longDay: "8 مارس 2026",
    moment: "08\u200f/03\u200f/2026، 1:30 ص (بتوقيت الرياض)",
    isoDay: "2026-03-08",
  },
];
