// Field data in a real browser: a worker of its own with RUM_SAMPLE_RATE=1 (every visit
// in the sample), Chromium loads pages in both locales, clicks (an interaction, for INP), and leaves
// each page by loading another document, which hides it: web-vitals reports, the shop's beacon
// goes out with navigator.sendBeacon, and the figures are read back from the console's endpoint.
// A visit outside the sample (the suite's worker samples none, RUM_SAMPLE_RATE 0) loads neither
// web-vitals nor sends anything.
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FieldData, RumPageType } from "../../contract/rum.ts";
import { pageTypeOf } from "../../app/client/rum-page.ts";
import { measureRoutes, readBudgets } from "../../scripts/lib/bundles.ts";
import { buildDir, type RunningWorker } from "../../scripts/lib/worker.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyLocales,
  launchBrowser,
  LOCALES,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import { expectAxeClean } from "../support/axe.ts";
import { consoleHttpSession, newStaffAccounts, signInToConsole } from "../support/console-browser.ts";
import { say } from "../support/messages.ts";
import { startExtraWorker, TEST_VARS, builtWorker } from "../support/http.ts";

let shop: RunningWorker;
let persistDir: string;
let stop: (() => void) | undefined;
let browser: Browser;
let slug: string;
/** Each test's own support staff member of this worker's database, by its label. */
let accounts: Record<string, string>;
/** A web-vitals chunk (client/rum.ts), not the small start-up one (client/rum-start.ts). */
const RUM_CHUNK = /\/assets\/rum-(?!start)[\w-]+\.js$/;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  ({
    worker: shop,
    stop,
    persistDir,
  } = await startExtraWorker({ ...TEST_VARS, RUM_SAMPLE_RATE: "1" }, { database: "seeded" }));
  browser = await launchBrowser();
  const res = await fetch(`${shop.url}/backend/products?per_page=1`);
  slug = ((await res.json()) as { data: { slug: string }[] }).data[0].slug;
  accounts = await newStaffAccounts(
    shop.url,
    { "rum-beacons": "support", "rum-en": "support", "rum-ar": "support", "rum-tab": "support" },
    persistDir,
  );
});

afterAll(async () => {
  await browser?.close();
  stop?.();
});

/**
 * Playwright does not report a beacon sent while its document unloads: each page of the context
 * counts its own in the tab's sessionStorage (kept across the tab's documents of one origin).
 */
async function countBeacons(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const send = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      const sent = JSON.parse(sessionStorage.getItem("test-beacons") ?? "[]") as unknown[];
      sent.push({ url: String(url), size: data instanceof Blob ? data.size : -1 });
      sessionStorage.setItem("test-beacons", JSON.stringify(sent));
      return send(url, data);
    };
  });
}

const beaconsSent = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem("test-beacons") ?? "[]") as unknown);

/** Waits until the page has loaded web-vitals (after hydration, once idle), then interacts. */
async function visitAndInteract(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page, "#main");
  await page.waitForFunction(
    (pattern) => performance.getEntriesByType("resource").some((e) => new RegExp(pattern).test(e.name)),
    RUM_CHUNK.source,
    { timeout: 20_000 },
  );
  // Loaded is not yet run: web-vitals listens for the first trusted click (which finalises LCP)
  // only once the module has run, a task or two later on a busy machine. Two idle periods pass first.
  await page.evaluate(
    () =>
      new Promise<void>((r) =>
        requestIdleCallback(() => requestIdleCallback(() => r(), { timeout: 2000 }), { timeout: 2000 }),
      ),
  );
  // A click on the page's heading: an interaction (INP) that changes nothing.
  await page.locator("main h1").first().click();
  // The interaction's event-timing entry is dispatched after the next paint.
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 200))));
}

describe("field data from Chromium", () => {
  it("maps every storefront route to a page type, and the console's to none", () => {
    const ids = measureRoutes(buildDir, readBudgets()).map((r) => r.routeId);
    expect(ids.length).toBeGreaterThan(30);
    for (const id of ids) {
      const type = pageTypeOf(id, "");
      if (id.startsWith("routes/admin/") || id.startsWith("admin-")) expect(type, id).toBeNull();
      else expect(type, id).not.toBeNull();
    }
    const known: [string, string, RumPageType][] = [
      ["routes/home", "", "home"],
      ["home-default", "", "home"],
      ["routes/products", "?category=phones", "list"],
      ["routes/products", "?q=phone", "search"],
      ["routes/product-details.$slug", "", "product"],
      ["routes/shopping-cart", "", "cart"],
      ["routes/checkout", "", "checkout"],
      ["routes/profile/edit", "", "account"],
      ["routes/auth.login", "", "account"],
      ["routes/page.$slug", "", "content"],
      ["routes/not-found", "", "other"],
    ];
    for (const [id, search, type] of known) expect(pageTypeOf(id, search), `${id}${search}`).toBe(type);
  });

  it("pages hidden in both locales send their Core Web Vitals, one beacon each, which the console's endpoint reads back per page type and locale", async () => {
    // Each tab stays open until the figures are read: the last page's beacon leaves as its tab
    // navigates away, and closing the browser context at once could cancel it on the way.
    const contexts: BrowserContext[] = [];
    for (const locale of LOCALES) {
      const { context, page, errors } = await newPage(browser);
      contexts.push(context);
      await countBeacons(context);
      await visitAndInteract(page, `${shop.url}/${locale}`);
      // Loading another document hides this one: visibilitychange to hidden, then pagehide.
      await visitAndInteract(page, `${shop.url}/${locale}/product-details/${slug}`);
      await visitAndInteract(page, `${shop.url}/${locale}/about-us`);
      const sent = await beaconsSent(page);
      expect(sent, `${locale}: one beacon for each page left, a few hundred bytes`).toEqual([
        { url: "/api/rum", size: expect.toSatisfy((n: number) => n > 100 && n < 1024) },
        { url: "/api/rum", size: expect.toSatisfy((n: number) => n > 100 && n < 1024) },
      ]);
      await page.goto("about:blank");
      expect(errors, `${locale}: console errors (a CSP refusal would be one)`).toEqual([]);
    }

    const { token } = await consoleHttpSession(shop.url, accounts["rum-beacons"]);
    const read = async () => {
      const res = await fetch(`${shop.url}/backend/admin/rum`, {
        headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: FieldData }).data;
    };
    await expect
      .poll(async () => (await read()).rows.map((r) => `${r.page_type}/${r.locale}`).sort(), { timeout: 15_000 })
      .toEqual(["content/ar", "content/en", "home/ar", "home/en", "product/ar", "product/en"]);
    for (const context of contexts) await context.close();
    // The store refuses a beacon with any field the contract does not name (a URL, a slug, an id):
    // that every page's figures arrived shows the beacons carried nothing else.
    const data = await read();
    for (const row of data.rows) {
      const where = `${row.page_type}/${row.locale}`;
      // One visit each: every metric counted once (one beacon per page, no figure twice).
      for (const metric of ["LCP", "INP", "CLS", "TTFB", "FCP"] as const)
        expect(row.metrics[metric].samples, `${where} ${metric}`).toBe(1);
      expect(row.metrics.LCP.p75, where).toBeGreaterThan(0);
      expect(row.metrics.TTFB.p75, where).toBeGreaterThan(0);
      expect(row.metrics.LCP.p75!, where).toBeGreaterThanOrEqual(row.metrics.FCP.p75! * (1 - 2 * data.precision));
      expect(row.metrics.CLS.p75, where).toBeGreaterThanOrEqual(0);
    }
  });

  for (const locale of journeyLocales("en"))
    it(`${locale}: the console's field-data page shows p75 per page type and locale, in the console's nav`, async () => {
      const { context, page, errors } = await newPage(browser);
      await signInToConsole(page, shop.url, locale, accounts[`rum-${locale}`]);
      await page.getByRole("link", { name: say(locale, "console.nav.fieldData"), exact: true }).click();
      await page.waitForURL(`${shop.url}/${locale}/admin/field-data`);
      expect(await page.locator("html").getAttribute("dir")).toBe(locale === "ar" ? "rtl" : "ltr");
      // The six pages of the beacons' test, and the sign-in pages this very test went through.
      await expect.poll(() => page.locator(".console-table tbody tr").count()).toBeGreaterThanOrEqual(6);
      const table = (await page.locator(".console-table tbody").textContent()) ?? "";
      for (const type of ["home", "product", "content", "account"])
        expect(table).toContain(say(locale, `console.fieldData.pageTypes.${type}`));
      // The six pages of the beacons' test have all four figures, each a p75 with a rating.
      expect(await page.locator(".console-table tbody .field-data").count()).toBeGreaterThanOrEqual(6 * 4);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-field-data-${locale}.png`);
      await expectAxeClean(page);
      expect(errors).toEqual([]);
      await context.close();
    });

  it("a tab switched away from (hidden, not left) sends its figures once; hidden again with nothing new, nothing more", async () => {
    const { context, page, errors } = await newPage(browser);
    await countBeacons(context);
    await visitAndInteract(page, `${shop.url}/ar/products?q=${encodeURIComponent("سماعة")}`);
    // Headless Chromium keeps every tab visible: the switch is the document's own visibility
    // change, as the browser would fire it.
    const setVisibility = (state: "hidden" | "visible") =>
      page.evaluate((to) => {
        Object.defineProperty(document, "visibilityState", { value: to, configurable: true });
        Object.defineProperty(document, "hidden", { value: to === "hidden", configurable: true });
        document.dispatchEvent(new Event("visibilitychange"));
      }, state);
    await setVisibility("hidden");
    await setVisibility("visible");
    await setVisibility("hidden");
    expect(await beaconsSent(page)).toEqual([{ url: "/api/rum", size: expect.any(Number) }]);

    const { token } = await consoleHttpSession(shop.url, accounts["rum-tab"]);
    const searchRow = async () => {
      const res = await fetch(`${shop.url}/backend/admin/rum`, { headers: { authorization: `Bearer ${token}` } });
      return ((await res.json()) as { data: FieldData }).data.rows.find(
        (r) => r.page_type === "search" && r.locale === "ar",
      );
    };
    await expect.poll(async () => (await searchRow())?.metrics.INP.samples, { timeout: 15_000 }).toBe(1);
    const row = (await searchRow())!;
    for (const metric of ["LCP", "CLS", "TTFB", "FCP"] as const) expect(row.metrics[metric].samples, metric).toBe(1);
    await context.close();
    expect(errors).toEqual([]);
  });

  it("a visit outside the sample loads neither web-vitals nor sends a beacon", async () => {
    // The suite's worker samples no visit (RUM_SAMPLE_RATE 0, test/support/http.ts).
    const base = builtWorker().url;
    const { context, page, errors } = await newPage(browser);
    await countBeacons(context);
    const loaded: string[] = [];
    page.on("request", (r) => {
      if (RUM_CHUNK.test(new URL(r.url()).pathname)) loaded.push(r.url());
    });
    await page.goto(`${base}/en`);
    await hydrated(page, "#main");
    // The start-up chunk has run its idle job by the time it is loaded and two idle periods pass.
    await page.waitForFunction(() =>
      performance.getEntriesByType("resource").some((e) => /\/assets\/after-hydration-[\w-]+\.js$/.test(e.name)),
    );
    await page.evaluate(
      () =>
        new Promise<void>((r) =>
          requestIdleCallback(() => requestIdleCallback(() => r(), { timeout: 2000 }), { timeout: 2000 }),
        ),
    );
    await page.locator("main h1").first().click();
    // Another page of the shop hides the first; it would have sent its beacon by now.
    await page.goto(`${base}/en/about-us`);
    await hydrated(page, "#main");
    expect(await beaconsSent(page)).toEqual([]);
    expect(loaded).toEqual([]);
    await context.close();
    expect(errors).toEqual([]);
  });
});
