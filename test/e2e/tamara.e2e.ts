import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instalmentPlan, type InstalmentRule } from "../../contract/instalments.ts";
import { expectAxeClean } from "../support/axe.ts";
import { fullPageScreenshot, hydrated, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { fillNewAddress, msg, payWithCard } from "../support/checkout-browser.ts";
import { builtWorker } from "../support/http.ts";

// Tamara in Chromium, in both languages: Tamara's published sandbox number is declined on its
// (stand-in) page; the status page says so in the shopper's language and offers the card, which
// pays the same order.
const base = builtWorker().url;

interface Product {
  slug: string;
  price: number;
  stock: number;
  variant_count?: number;
}

let browser: Browser;
let products: Product[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=48&sort=price_asc`, {
    headers: { "content-language": "en" },
  });
  const all = ((await res.json()) as { data: Product[] }).data;
  const detail = (await (await fetch(`${base}/backend/products/${all[0].slug}`)).json()) as {
    data: { instalments?: InstalmentRule[] };
  };
  const rule = detail.data.instalments!.find((r) => r.provider === "tamara")!;
  // Tamara's limits hold the order's total (shipping included) well inside them.
  products = all.filter(
    (p) => (p.variant_count ?? 1) === 1 && p.stock >= 4 && instalmentPlan(rule, p.price + 10_000) !== null,
  );
  expect(products.length).toBeGreaterThanOrEqual(2);
});
afterAll(async () => {
  await browser?.close();
});

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

describe("Tamara", () => {
  for (const [index, locale] of LOCALES.entries()) {
    it(`(${locale}) declined on Tamara's page, then the same order paid by card`, { timeout: 120_000 }, async () => {
      const { page, context, errors } = await newPage(browser, { viewport: { width: 390, height: 900 } });
      await page.goto(`${base}/${locale}/product-details/${products[index].slug}`);
      await hydrated(page, ".add-to-cart__button");
      await page.locator(".add-to-cart__button").click();
      await eventually(() => page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
      await page.goto(`${base}/${locale}/checkout`);
      await eventually(() => page.locator('input[name="payment_method"][value="tamara"]').count()).toBe(1);
      await fillNewAddress(page, locale, { email: `tamara-${locale}-${Date.now()}@example.com`, name: "Huda" });
      // Tamara's published sandbox number that its checkout declines.
      await page.locator("#co-phone").fill("526422337");
      await page.locator('input[name="payment_method"][value="tamara"]').check();
      expect(await page.locator('.choice:has(input[value="tamara"]) .instalments').count()).toBe(1);
      await page.locator(".checkout__submit").click();

      await page.waitForURL(/\/backend\/payments\/stand-in\/tamara\//);
      expect(await page.getAttribute("html", "dir")).toBe(locale === "ar" ? "rtl" : "ltr");
      await expectAxeClean(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/tamara-page-${locale}.png`);
      const code = /\b(\d{4})\b/.exec((await page.locator(".note").textContent()) ?? "")![1];
      await page.locator("#tamara-code").fill(code);
      await Promise.all([
        page.waitForURL(new RegExp(`/${locale}/payment-status\\?`)),
        page.locator('button[name="action"][value="pay"]').click(),
      ]);
      await eventually(() => page.locator(".payment-result--failed").count()).toBe(1);
      expect(await page.locator(".payment-result--failed").textContent()).toContain(
        locale === "ar" ? "لم توافق تمارا على هذه الدفعة" : "Tamara did not approve this payment",
      );
      await expectAxeClean(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/tamara-declined-${locale}.png`);

      await page.getByRole("link", { name: msg(locale, "payment.payByCard") }).click();
      await payWithCard(page, "4242 4242 4242 4242");
      await page.waitForURL(new RegExp(`/${locale}/payment-status\\?`));
      await eventually(() => page.locator(".payment-result--paid").count()).toBe(1);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
