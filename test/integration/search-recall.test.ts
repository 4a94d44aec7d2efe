import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductSummary } from "../../contract/catalogue";
import { seedCatalogue } from "../support/catalogue";

// The specification of search: everyday queries as shoppers type them, in both
// languages (with and without the article, singular and plural, both spellings of a brand, one
// typo each for five brands), and the products each must find in the demo catalogue. Recall is
// the share of those products on the first result page (48). Over the suite it must be at least
// 95 %, and no query may fall under 80 %.

const TVS = [
  "lg-oled-c3-65",
  "samsung-neo-qled-qn90c-55",
  "sony-bravia-7-65",
  "samsung-crystal-uhd-50",
  "lg-qned81-75",
  "xiaomi-tv-a-pro-43",
];
const PHONES = [
  "iphone-16-pro",
  "iphone-15-pro-max",
  "iphone-15-pro",
  "iphone-15",
  "iphone-14",
  "galaxy-s24-ultra",
  "galaxy-s24",
  "galaxy-a55",
  "galaxy-z-fold6",
  "pixel-9-pro",
  "xiaomi-14-ultra",
  "huawei-pura-70-pro",
];
const IPHONES = PHONES.slice(0, 5);
const LAPTOPS = [
  "macbook-air-13-m3",
  "macbook-air-15-m3",
  "macbook-pro-14-m3-pro",
  "dell-xps-13",
  "hp-spectre-x360-14",
  "lenovo-thinkpad-x1-carbon",
  "lenovo-legion-5",
  "hp-victus-15",
];
const HEADPHONES = [
  "airpods-pro-2",
  "sony-wh-1000xm5",
  "bose-quietcomfort-ultra",
  "galaxy-buds3-pro",
  "jbl-tune-770nc",
];
const CAMERAS = [
  "canon-eos-r6-mark-ii",
  "canon-eos-r50-kit",
  "sony-alpha-7-iv",
  "sony-zv-e10",
  "nikon-z6-iii",
  "sony-rx100-vii",
];
const GAMING = [
  "playstation-5-slim",
  "xbox-series-x",
  "nintendo-switch-oled",
  "playstation-portal",
  "dualsense-edge",
  "xbox-wireless-controller",
];
const TABLETS = [
  "ipad-pro-11-m4",
  "ipad-air-11-m2",
  "ipad-10th-gen",
  "galaxy-tab-s9",
  "galaxy-tab-a9-plus",
  "xiaomi-pad-6",
];
const WATCHES = ["apple-watch-series-9-45", "apple-watch-ultra-2", "galaxy-watch6-classic-47", "huawei-watch-gt4-46"];
const CHARGERS = ["anker-737-power-bank", "anker-nano-65w-charger", "samsung-45w-charger"];
const SAMSUNG = [
  "galaxy-s24-ultra",
  "galaxy-s24",
  "galaxy-a55",
  "galaxy-z-fold6",
  "galaxy-tab-s9",
  "galaxy-tab-a9-plus",
  "samsung-neo-qled-qn90c-55",
  "samsung-crystal-uhd-50",
  "galaxy-buds3-pro",
  "galaxy-watch6-classic-47",
  "samsung-45w-charger",
  "galaxy-s24-ultra-clear-case",
];
const SONY = [
  "sony-bravia-7-65",
  "sony-wh-1000xm5",
  "sony-ult-field-1",
  "sony-alpha-7-iv",
  "sony-zv-e10",
  "sony-rx100-vii",
  "playstation-5-slim",
  "playstation-portal",
  "dualsense-edge",
];
const LENOVO = ["lenovo-thinkpad-x1-carbon", "lenovo-legion-5"];
const XIAOMI = [
  "xiaomi-14-ultra",
  "xiaomi-pad-6",
  "xiaomi-tv-a-pro-43",
  "xiaomi-smart-band-8",
  "xiaomi-robot-vacuum-s10-plus",
];
const HUAWEI = ["huawei-pura-70-pro", "huawei-watch-gt4-46"];

/** [what the shopper types, the language of the page, the products it must find] */
const SUITE: [query: string, lang: "en" | "ar", expected: string[]][] = [
  // Televisions: plural, singular, with the article, a word for the screen, English.
  ["تلفزيونات", "ar", TVS],
  ["التلفزيونات", "ar", TVS],
  ["تلفزيون", "ar", TVS],
  ["شاشة", "ar", TVS],
  ["tv", "en", TVS],
  ["television", "en", TVS],
  ["televisions", "en", TVS],
  // Phones: the Gulf and the Levant words, plurals, English.
  ["هواتف", "ar", PHONES],
  ["الهواتف", "ar", PHONES],
  ["هاتف", "ar", PHONES],
  ["جوالات", "ar", PHONES],
  ["جوال", "ar", PHONES],
  ["موبايل", "ar", PHONES],
  ["mobile", "en", PHONES],
  ["phones", "en", PHONES],
  ["ايفون", "ar", IPHONES],
  ["آيفون", "ar", IPHONES],
  ["iphone", "en", IPHONES],
  // Laptops: the loanword, its plural, the Arabic words (one of two words), English.
  ["لابتوب", "ar", LAPTOPS],
  ["لابتوبات", "ar", LAPTOPS],
  ["حواسيب", "ar", LAPTOPS],
  ["حاسوب محمول", "ar", LAPTOPS],
  ["laptops", "en", LAPTOPS],
  ["notebook", "en", LAPTOPS],
  // Headphones, cameras, gaming, tablets, watches, chargers.
  ["سماعات", "ar", HEADPHONES],
  ["سماعة", "ar", HEADPHONES],
  ["headphones", "en", HEADPHONES],
  ["كاميرات", "ar", CAMERAS],
  ["كاميرا", "ar", CAMERAS],
  ["cameras", "en", CAMERAS],
  ["ألعاب", "ar", GAMING],
  ["الألعاب", "ar", GAMING],
  ["games", "en", GAMING],
  ["gaming", "en", GAMING],
  ["تابلت", "ar", TABLETS],
  ["tablets", "en", TABLETS],
  ["ساعات ذكية", "ar", WATCHES],
  ["smartwatch", "en", WATCHES],
  ["شواحن", "ar", CHARGERS],
  ["chargers", "en", CHARGERS],
  // Brands, both spellings.
  ["سامسونج", "ar", SAMSUNG],
  ["سامسونغ", "ar", SAMSUNG],
  ["samsung", "en", SAMSUNG],
  ["سوني", "ar", SONY],
  ["شاومي", "ar", XIAOMI],
  // One typo each for five brands.
  ["samsng", "en", SAMSUNG],
  ["sonny", "en", SONY],
  ["lenvo", "en", LENOVO],
  ["xiaomy", "en", XIAOMI],
  ["هواوى", "ar", HUAWEI],
  ["سامسنج", "ar", SAMSUNG],
];

async function search(q: string, lang: "en" | "ar"): Promise<ProductSummary[]> {
  const res = await SELF.fetch(`https://shop.test/backend/products?per_page=48&q=${encodeURIComponent(q)}`, {
    headers: { "content-language": lang },
  });
  expect(res.status, q).toBe(200);
  return ((await res.json()) as { data: ProductSummary[] }).data;
}

const recalls: { query: string; found: number; expected: number; missing: string[] }[] = [];

beforeAll(async () => {
  await seedCatalogue(env.DB);
});

afterAll(() => {
  const found = recalls.reduce((n, r) => n + r.found, 0);
  const expected = recalls.reduce((n, r) => n + r.expected, 0);
  console.log(
    JSON.stringify({
      event: "search-recall",
      queries: recalls.length,
      recall: Number((found / expected).toFixed(3)),
      below_100: recalls.filter((r) => r.found < r.expected),
    }),
  );
});

describe("search finds what shoppers mean (the recall suite)", () => {
  it(`has at least 40 queries in both languages`, () => {
    expect(SUITE.length).toBeGreaterThanOrEqual(40);
    expect(SUITE.filter(([, lang]) => lang === "ar").length).toBeGreaterThanOrEqual(15);
    expect(SUITE.filter(([, lang]) => lang === "en").length).toBeGreaterThanOrEqual(15);
  });

  it.each(SUITE)("%s (%s) finds its products", async (query, lang, expected) => {
    const slugs = new Set((await search(query, lang)).map((p) => p.slug));
    const missing = expected.filter((slug) => !slugs.has(slug));
    recalls.push({ query, found: expected.length - missing.length, expected: expected.length, missing });
    expect(
      (expected.length - missing.length) / expected.length,
      `${query} misses ${missing.join(", ")}`,
    ).toBeGreaterThanOrEqual(0.8);
  });

  it("finds at least 95 % of the expected products over the whole suite", () => {
    expect(recalls).toHaveLength(SUITE.length);
    const found = recalls.reduce((n, r) => n + r.found, 0);
    const expected = recalls.reduce((n, r) => n + r.expected, 0);
    expect(found / expected).toBeGreaterThanOrEqual(0.95);
  });
});
