import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAxeClean } from "../support/axe.ts";
import { fullPageScreenshot, hydrated, launchBrowser, newPage, SCREENSHOTS } from "../support/browser.ts";
import { registerAccount, STAFF_PASSWORD, verifyAccount } from "../support/console-browser.ts";
import { builtWorker } from "../support/http.ts";

/**
 * Comparison: a shopper picks laptops with their Compare buttons on the list, the pick survives a
 * reload, the comparison page aligns their specifications, marks and can keep only the rows that
 * differ, and prints without the shop around it (English, desktop). The same comparison opened
 * from its link by a new visitor on a phone, right to left: one product's column per swipe, the
 * labels fixed at the start of the line (Arabic).
 */
const base = builtWorker().url;
const LAPTOPS = ["dell-xps-13", "macbook-air-13-m3", "hp-spectre-x360-14"];
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

const WAIT = { timeout: 15_000, interval: 100 };
const toggleOf = (page: Page, slug: string) =>
  page
    .locator("article.product-card", { has: page.locator(`a[href$="/product-details/${slug}"]`) })
    .locator(".compare-toggle");
const columns = (page: Page) => page.locator(".compare__table thead th[scope=col]").count();

describe("comparison in Chromium", () => {
  it("(en) picks three laptops from the list, keeps them over a reload, compares, shows differences only and prints", async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto(`${base}/en/products?category=laptops`);
    await hydrated(page, ".compare-toggle");
    for (const slug of LAPTOPS) await toggleOf(page, slug).click();
    for (const slug of LAPTOPS) expect(await toggleOf(page, slug).getAttribute("aria-pressed")).toBe("true");
    const bar = page.locator(".compare-bar a");
    await expect.poll(() => bar.textContent(), WAIT).toBe("Compare (3)");
    // The pick is this browser's: a reload keeps it.
    await page.reload();
    await hydrated(page, ".compare-toggle");
    await expect.poll(() => bar.textContent(), WAIT).toBe("Compare (3)");
    expect(await toggleOf(page, LAPTOPS[1]).getAttribute("aria-pressed")).toBe("true");
    await bar.click();
    await page.waitForURL((u) => u.pathname === "/en/compare" && u.searchParams.get("p") === LAPTOPS.join(","));
    await expect.poll(() => columns(page), WAIT).toBe(3);
    // Aligned by label: the memory row holds each laptop's, and differs.
    const memory = page.locator("tbody tr").filter({ has: page.locator("th[scope=row]", { hasText: /^Memory/ }) });
    expect(await memory.locator("td").allTextContents()).toEqual(["16\u00a0GB", "8\u00a0GB", "16\u00a0GB"]);
    const rows = await page.locator("tbody tr:not(.compare__group)").count();
    const differing = await page.locator("tbody tr.compare__differs").count();
    expect(differing).toBeGreaterThan(0);
    expect(differing).toBeLessThan(rows);
    await expectAxeClean(page);
    await page.getByRole("link", { name: "Show differences only" }).click();
    await page.waitForURL((u) => u.searchParams.get("diff") === "1");
    await expect.poll(() => page.locator("tbody tr:not(.compare__group)").count(), WAIT).toBe(differing);
    expect(await page.locator("tbody tr.compare__differs").count()).toBe(differing);
    await fullPageScreenshot(page, `${SCREENSHOTS}/compare-en.png`);
    // Printed: the table alone, every column, no header, footer, tools or pick bar.
    await hydrated(page, ".compare-page__tools button");
    await page.emulateMedia({ media: "print" });
    for (const hidden of [".site-header", ".site-footer", ".compare-page__tools", ".compare-bar"])
      expect(await page.locator(hidden).first().isVisible(), hidden).toBe(false);
    expect(await page.locator(".compare__table").isVisible()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/compare-print-en.png`, fullPage: true });
    const pdf = await page.pdf({ format: "A4", landscape: true });
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    await page.emulateMedia({ media: "screen" });
    // Removing one on the page removes it from the pick too.
    await page
      .getByRole("link", {
        name: `Remove ${await page.locator(".compare__name").nth(1).textContent()} from the comparison`,
      })
      .click();
    await page.waitForURL((u) => u.searchParams.get("p") === [LAPTOPS[0], LAPTOPS[2]].join(","));
    await expect.poll(() => columns(page), WAIT).toBe(2);
    await expect.poll(() => bar.textContent(), WAIT).toBe("Compare (2)");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("(ar) a shared comparison opens for a new visitor on a phone: right to left, a product per swipe, labels in place", async () => {
    const { context, page, errors } = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await page.goto(`${base}/ar/compare?p=${LAPTOPS.join(",")}`);
    await hydrated(page, ".compare-page__tools button");
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    expect(await columns(page)).toBe(3);
    expect(await page.locator("h1").textContent()).toBe("مقارنة المنتجات");
    expect(await page.locator(".compare__badge").first().textContent()).toBe("مختلف");
    const scroller = page.locator(".compare");
    const { scrollWidth, clientWidth } = await scroller.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
    expect(scrollWidth).toBeGreaterThan(clientWidth * 2);
    expect(await scroller.evaluate((el) => getComputedStyle(el).scrollSnapType)).toContain("x mandatory");
    // A product's column takes most of the screen beside the labels (not a squeezed table).
    const first = await page.locator(".compare__table thead th[scope=col]").first().boundingBox();
    expect(first!.width).toBeGreaterThan(390 * 0.5);
    // The labels sit at the start (the right) and stay there while the products scroll by.
    const label = page.locator("tbody th[scope=row]").first();
    const before = (await label.boundingBox())!;
    expect(before.x + before.width).toBeGreaterThan(390 - 40);
    await scroller.evaluate((el) => el.scrollBy({ left: -400, behavior: "instant" }));
    await expect.poll(() => scroller.evaluate((el) => el.scrollLeft), WAIT).toBeLessThan(0);
    const after = (await label.boundingBox())!;
    expect(Math.abs(after.x - before.x)).toBeLessThan(2);
    await expectAxeClean(page);
    await fullPageScreenshot(page, `${SCREENSHOTS}/compare-ar-phone.png`);
    // The link's products became this browser's pick.
    await expect.poll(() => page.locator(".compare-bar a").textContent(), WAIT).toBe("قارن (3)");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("(en) a fourth product fills the pick; a fifth is refused with the reason; another category starts anew", async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${base}/en/products?category=laptops`);
    await hydrated(page, ".compare-toggle");
    const toggles = page.locator(".compare-toggle");
    for (let i = 0; i < 5; i++) await toggles.nth(i).click();
    await expect.poll(() => page.locator(".compare-bar a").textContent(), WAIT).toBe("Compare (4)");
    expect(await toggles.nth(4).getAttribute("aria-pressed")).toBe("false");
    await expect.poll(() => page.getByText("A comparison holds up to 4 products").count(), WAIT).toBe(1);
    // A product of another category starts a new pick with it, and says so.
    await page.goto(`${base}/en/products?category=cameras`);
    await hydrated(page, ".compare-toggle");
    await toggleOf(page, "nikon-z6-iii").click();
    await expect.poll(() => page.locator(".compare-bar a").textContent(), WAIT).toBe("Compare (1)");
    await expect.poll(() => page.getByText("A new comparison started").count(), WAIT).toBe(1);
    await context.close();
  });

  it("(en) signed in, the pick is kept with the account and follows the shopper to another browser", async () => {
    const email = `compare-${Date.now().toString(36)}@example.com`;
    await registerAccount(base, email, "Compare Shopper");
    await verifyAccount(base, email);
    const signIn = async (page: Page) => {
      await page.goto(`${base}/en/auth/login`);
      await hydrated(page, "form.auth-form");
      await page.locator("input[name=email]").fill(email);
      await page.locator("input[name=password]").fill(STAFF_PASSWORD);
      await page.locator("form.auth-form button[type=submit]").click();
      await page.waitForURL((url) => !url.pathname.endsWith("/auth/login"));
    };
    const laptop = await newPage(browser);
    await signIn(laptop.page);
    await laptop.page.goto(`${base}/en/products?category=cameras`);
    await hydrated(laptop.page, ".compare-toggle");
    const saved = laptop.page.waitForResponse(
      (r) => r.url().endsWith("/client/comparison") && r.request().method() === "PUT" && r.ok(),
    );
    await toggleOf(laptop.page, "sony-alpha-7-iv").click();
    await saved;
    const second = laptop.page.waitForResponse(
      (r) => r.url().endsWith("/client/comparison") && r.request().method() === "PUT" && r.ok(),
    );
    await toggleOf(laptop.page, "nikon-z6-iii").click();
    await second;
    // Another browser, nothing picked in it: signed in, it takes the account's pick.
    const phone = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await signIn(phone.page);
    await phone.page.goto(`${base}/en`);
    await expect.poll(() => phone.page.locator(".compare-bar a").textContent(), WAIT).toBe("Compare (2)");
    await phone.page.locator(".compare-bar a").click();
    await phone.page.waitForURL((u) => u.searchParams.get("p") === "sony-alpha-7-iv,nikon-z6-iii");
    await expect.poll(() => columns(phone.page), WAIT).toBe(2);
    expect(laptop.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
    await laptop.context.close();
    await phone.context.close();
  });
});
