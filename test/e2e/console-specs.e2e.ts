import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAxeClean } from "../support/axe.ts";
import { hydrated, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { builtWorker } from "../support/http.ts";

/**
 * A product's typed specifications in the console: a field per attribute of its category, of its
 * type, with its unit in the page's language; saved, they show on the shop's product page; a
 * refused value is told beside its field. The journey runs in Arabic (Arabic-Indic digits are
 * numbers); both locales get the axe check and a screenshot.
 */
const base = builtWorker().url;
const SLUG = "lenovo-legion-5";
let browser: Browser;
let staff: Record<string, string>;
let productId = 0;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  // A console sign-in per account: each test has its own.
  staff = await newStaffAccounts(base, {
    ...Object.fromEntries(LOCALES.map((l) => [`specs-${l}`, "manager"] as const)),
    "specs-journey": "manager",
  });
  const res = await fetch(`${base}/backend/products/${SLUG}`);
  productId = ((await res.json()) as { data: { id: number } }).data.id;
});
afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  en: { ram: "Memory (GB)", save: "Save specifications", storages: "128 GB · 256 GB · 512 GB · 1 TB" },
  ar: {
    ram: "الذاكرة العشوائية (جيجابايت)",
    save: "حفظ المواصفات",
    storages: "128 جيجابايت · 256 جيجابايت · 512 جيجابايت · 1 تيرابايت",
  },
};

describe("typed specifications in the console", () => {
  for (const locale of LOCALES)
    it(`(${locale}) labels each field in the page's language with its unit, and has no serious accessibility issue`, async () => {
      const { context, page, errors } = await newPage(browser);
      await openConsole(page, base, locale, staff[`specs-${locale}`]);
      await page.goto(`${base}/${locale}/admin/products/${productId}`);
      await hydrated(page, "#spec-ram");
      expect((await page.locator('label[for="spec-ram"]').textContent())?.trim()).toBe(TEXT[locale].ram);
      expect(await page.locator("#spec-storage option").count()).toBe(6);
      await expectAxeClean(page);
      await page.locator('section[aria-labelledby="product-specs-title"]').screenshot({
        path: `${SCREENSHOTS}/console-specs-${locale}.png`,
      });

      // A phone whose variants give its storage shows each size it is sold in, with no field to set it.
      const phone = (await (await fetch(`${base}/backend/products/iphone-16-pro`)).json()) as { data: { id: number } };
      await page.goto(`${base}/${locale}/admin/products/${phone.data.id}`);
      await hydrated(page, "#spec-ram");
      expect(await page.locator("select#spec-storage").count()).toBe(0);
      expect(await page.locator('[data-from-variants="storage"] bdi').textContent()).toBe(TEXT[locale].storages);
      await expectAxeClean(page);
      await page.locator('section[aria-labelledby="product-specs-title"]').screenshot({
        path: `${SCREENSHOTS}/console-specs-variants-${locale}.png`,
      });
      expect(errors).toEqual([]);
      await context.close();
    });

  it("(ar) saves Arabic-Indic digits as a number, shows it on the shop's page, and tells a refused value beside its field", async () => {
    const { context, page, errors } = await newPage(browser);
    await openConsole(page, base, "ar", staff["specs-journey"]);
    await page.goto(`${base}/ar/admin/products/${productId}`);
    await hydrated(page, "#spec-ram");
    await page.locator("#spec-ram").fill("٣٢");
    await page.locator("#spec-storage").selectOption("512gb");
    await page.getByRole("button", { name: TEXT.ar.save }).click();
    await expect.poll(() => page.locator("[data-sonner-toast]").allTextContents()).toContain("تم حفظ المواصفات.");
    await expect.poll(() => page.locator("#spec-ram").inputValue()).toBe("32");

    const shop = await context.newPage();
    await expect
      .poll(async () => {
        await shop.goto(`${base}/ar/product-details/${SLUG}`);
        return shop.locator(".specs tr").allTextContents();
      })
      .toEqual(expect.arrayContaining(["الذاكرة العشوائية32\u00a0جيجابايت", "السعة التخزينية512 جيجابايت"]));

    await page.locator("#spec-refresh_rate").fill("-5");
    await page.getByRole("button", { name: TEXT.ar.save }).click();
    const error = page.locator("#spec-refresh_rate-error");
    await expect.poll(() => error.textContent()).toContain("أدخل رقمًا من 0 إلى");
    expect(await page.locator("#spec-refresh_rate").getAttribute("aria-invalid")).toBe("true");
    // The refusal's own answer is the only error the browser logs.
    expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
    await context.close();
  });
});
