import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAxeClean } from "../support/axe.ts";
import { fullPageScreenshot, hydrated, launchBrowser, newPage, SCREENSHOTS } from "../support/browser.ts";
import { builtWorker } from "../support/http.ts";

/**
 * Attribute filters on the product list: a category's typed attributes as checkboxes counted
 * with every other filter applied; ticking one shows exactly as many products as it promised, the
 * URL carries it, and without JavaScript the form's Apply button submits the same. Laptops by
 * memory in English, TVs by screen size in Arabic (digits and direction are the point there).
 */
const base = builtWorker().url;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

const WAIT = { timeout: 15_000, interval: 100 };
const cards = (page: Page) => page.locator("article.product-card").count();
/** The count a filter's label ends with: "16 GB (4)" gives 4. */
const countIn = (text: string | null) => Number((text ?? "").match(/\((\d+)\)\s*$/)?.[1] ?? -1);
/** A value's checkbox and its label, by the attribute's code and the value. */
const valueOf = (page: Page, code: string, value: string) =>
  page.locator(".filters__check", { has: page.locator(`input[name="filter.${code}"][value="${value}"]`) });

describe("attribute filters in Chromium", () => {
  it("(en) laptops by memory: each tick shows as many laptops as its count, the URL keeps them, back undoes", async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto(`${base}/en/products?category=laptops`);
    await hydrated(page, 'input[name="filter.ram"]');
    const all = await cards(page);
    const memory = page.locator("details.filters__attribute", { hasText: "Memory (GB)" });
    await memory.locator("summary").click();
    const sixteen = countIn(await valueOf(page, "ram", "16").textContent());
    expect(sixteen).toBeGreaterThan(0);
    expect(sixteen).toBeLessThan(all);
    await valueOf(page, "ram", "16").locator("input").check();
    await page.waitForURL((u) => u.searchParams.get("filter.ram") === "16");
    await expect.poll(() => cards(page), WAIT).toBe(sixteen);
    expect(await page.locator(".catalogue__count").textContent()).toContain(`${sixteen} product`);
    // Under the memory filter its own values still count as if it were not there: ticking a
    // second adds exactly its count.
    const thirtyTwo = countIn(await valueOf(page, "ram", "32").textContent());
    await valueOf(page, "ram", "32").locator("input").check();
    await page.waitForURL((u) => u.searchParams.get("filter.ram") === "16,32");
    await expect.poll(() => cards(page), WAIT).toBe(sixteen + thirtyTwo);
    // Every other attribute's count is of these laptops: an operating system's is what it shows.
    const windows = countIn(await valueOf(page, "os", "windows").textContent());
    await page.locator("details.filters__attribute", { hasText: "Operating system" }).locator("summary").click();
    await valueOf(page, "os", "windows").locator("input").check();
    await page.waitForURL((u) => u.searchParams.get("filter.os") === "windows");
    await expect.poll(() => cards(page), WAIT).toBe(windows);
    await expectAxeClean(page);
    await fullPageScreenshot(page, `${SCREENSHOTS}/attribute-filters-en.png`);
    await page.goBack();
    await page.waitForURL((u) => !u.searchParams.has("filter.os"));
    await expect.poll(() => cards(page), WAIT).toBe(sixteen + thirtyTwo);
    expect(await valueOf(page, "ram", "32").locator("input").isChecked()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("(ar) TVs by screen size, right to left: the counts are the results; a shared link opens the same view", async () => {
    const { context, page, errors } = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await page.goto(`${base}/ar/products?category=tvs`);
    await hydrated(page, 'input[name="filter.screen_size"]');
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    const size = page.locator("details.filters__attribute", { hasText: "حجم الشاشة (بوصة)" });
    await size.locator("summary").click();
    // Sizes are written with the unit in Arabic.
    expect(await valueOf(page, "screen_size", "65").textContent()).toMatch(/^65\u00a0بوصة \(\d+\)$/);
    const [fiftyFive, sixtyFive] = [
      countIn(await valueOf(page, "screen_size", "55").textContent()),
      countIn(await valueOf(page, "screen_size", "65").textContent()),
    ];
    await valueOf(page, "screen_size", "65").locator("input").check();
    await page.waitForURL((u) => u.searchParams.get("filter.screen_size") === "65");
    await expect.poll(() => cards(page), WAIT).toBe(sixtyFive);
    await valueOf(page, "screen_size", "55").locator("input").check();
    await page.waitForURL((u) => u.searchParams.get("filter.screen_size") === "55,65");
    // Either size: a TV sold in both (its variants) is counted under each, and shown once.
    const either = (
      (await (await fetch(`${base}/backend/products?category=tvs&filter.screen_size=55,65`)).json()) as {
        meta: { total: number };
      }
    ).meta.total;
    expect(either).toBeLessThan(fiftyFive + sixtyFive);
    await expect.poll(() => cards(page), WAIT).toBe(either);
    // The values go in the order the filter lists them. A new visitor of the link sees the same
    // view, the chosen attribute's disclosure open.
    const shared = page.url();
    const visitor = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await visitor.page.goto(shared);
    expect(await visitor.page.locator("article.product-card").count()).toBe(either);
    expect(await visitor.page.locator("details.filters__attribute[open]").count()).toBe(1);
    await visitor.context.close();
    await expectAxeClean(page);
    await fullPageScreenshot(page, `${SCREENSHOTS}/attribute-filters-ar-phone.png`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("(ar) without JavaScript, ticking values and Apply submits the same filters", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/ar/products?category=laptops`);
    const memory = page.locator("details.filters__attribute", { hasText: "الذاكرة العشوائية" });
    await memory.locator("summary").click();
    const [eight, sixteen] = [
      countIn(await valueOf(page, "ram", "8").textContent()),
      countIn(await valueOf(page, "ram", "16").textContent()),
    ];
    await valueOf(page, "ram", "8").locator("input").check();
    await valueOf(page, "ram", "16").locator("input").check();
    await page.getByRole("button", { name: "تطبيق" }).click();
    await page.waitForURL((u) => u.searchParams.getAll("filter.ram").join(",") === "8,16");
    expect(await cards(page)).toBe(eight + sixteen);
    await context.close();
  });
});
