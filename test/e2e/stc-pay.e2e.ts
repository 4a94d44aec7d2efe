import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAxeClean } from "../support/axe.ts";
import { fullPageScreenshot, hydrated, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { fillNewAddress, msg, payWithCard } from "../support/checkout-browser.ts";
import { builtWorker } from "../support/http.ts";

// STC Pay in Chromium, in both languages: chosen at checkout, then the wallet's number and the
// code on the shop's own page, against the offline stand-in of Moyasar's API (its published
// sandbox numbers: 0515555555 is refused, code 123456 pays).
const base = builtWorker().url;
type Locale = (typeof LOCALES)[number];

interface Product {
  slug: string;
  stock: number;
  variant_count?: number;
}

let browser: Browser;
let products: Product[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=48&sort=price_desc`, {
    headers: { "content-language": "en" },
  });
  products = ((await res.json()) as { data: Product[] }).data.filter(
    (p) => (p.variant_count ?? 1) === 1 && p.stock >= 5,
  );
  expect(products.length).toBeGreaterThanOrEqual(3);
});
afterAll(async () => {
  await browser?.close();
});

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/** A guest's cart with one product, then the checkout with a new address and STC Pay chosen. */
async function checkoutWithStcPay(page: Page, locale: Locale, product: Product): Promise<void> {
  await page.goto(`${base}/${locale}/product-details/${product.slug}`);
  await hydrated(page, ".add-to-cart__button");
  await page.locator(".add-to-cart__button").click();
  await eventually(() => page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
  await page.goto(`${base}/${locale}/checkout`);
  await eventually(() => page.locator('input[name="payment_method"]').count()).toBeGreaterThan(1);
  await fillNewAddress(page, locale, { email: `stc-${locale}-${Date.now()}@example.com`, name: "Noura" });
  // The method's name is the backend's, "Pay with STC Pay" in either language's words.
  await page.getByRole("radio", { name: /STC Pay/ }).check();
  await page.locator(".checkout__submit").click();
  await page.waitForURL(/\/proceed-payement\?/);
}

describe("STC Pay", () => {
  for (const [index, locale] of LOCALES.entries()) {
    it(
      `(${locale}) a refused number is said with the ways on; then the number and STC Pay's code pay the order`,
      { timeout: 90_000 },
      async () => {
        const { page, context, errors } = await newPage(browser, { viewport: { width: 390, height: 900 } });
        await checkoutWithStcPay(page, locale, products[index]);

        // The order's own number is offered, in STC Pay's form.
        const mobile = page.getByLabel(msg(locale, "payment.stcPay.mobile"));
        await eventually(() => mobile.inputValue()).toBe("0501234567");
        expect(await page.locator(".stc-pay .payment-mark").getAttribute("data-mark")).toBe("stcpay");
        await expectAxeClean(page);
        await fullPageScreenshot(page, `${SCREENSHOTS}/stc-pay-mobile-${locale}.png`);

        // A number STC Pay refuses (its sandbox's unregistered number): its reason, a new start, or the card.
        await mobile.fill("0515555555");
        await page.getByRole("button", { name: msg(locale, "payment.stcPay.sendCode") }).click();
        const refusal = page.locator(".notice--danger");
        await eventually(() => refusal.textContent()).toContain(msg(locale, "payment.stcPay.refused"));
        expect(await refusal.textContent()).toContain("Mobile number is not registered");
        expect(await page.getByRole("link", { name: msg(locale, "payment.payByCard") }).count()).toBe(1);
        await expectAxeClean(page);
        await fullPageScreenshot(page, `${SCREENSHOTS}/stc-pay-refused-${locale}.png`);

        // Try again: a new payment, the form back with the order's number.
        await page.getByRole("button", { name: msg(locale, "payment.retry") }).click();
        await eventually(() => mobile.inputValue()).toBe("0501234567");
        await page.getByRole("button", { name: msg(locale, "payment.stcPay.sendCode") }).click();
        const code = page.getByLabel(msg(locale, "payment.stcPay.code"));
        await eventually(() => code.evaluate((el) => el === document.activeElement)).toBe(true);
        expect(await page.locator(".stc-pay .notice[role=status]").textContent()).toMatch(/05•••••567/);
        await expectAxeClean(page);
        await fullPageScreenshot(page, `${SCREENSHOTS}/stc-pay-code-${locale}.png`);

        // A code in Arabic-Indic digits is the same code.
        await code.fill(locale === "ar" ? "١٢٣٤٥٦" : "123456");
        await Promise.all([
          page.waitForURL(new RegExp(`/${locale}/payment-status\\?`)),
          page.getByRole("button", { name: msg(locale, "payment.stcPay.payNow") }).click(),
        ]);
        await eventually(() => page.locator(".payment-result--paid").count()).toBe(1);
        await fullPageScreenshot(page, `${SCREENSHOTS}/stc-pay-paid-${locale}.png`);
        expect(errors).toEqual([]);
        await context.close();
      },
    );
  }

  it(
    "(en) after STC Pay refuses the number, the shopper pays the same order by card",
    { timeout: 90_000 },
    async () => {
      const { page, context } = await newPage(browser, { viewport: { width: 390, height: 900 } });
      await checkoutWithStcPay(page, "en", products[2]);
      const mobile = page.getByLabel(msg("en", "payment.stcPay.mobile"));
      await eventually(() => mobile.inputValue()).toBe("0501234567");
      await mobile.fill("0515555556");
      await page.getByRole("button", { name: msg("en", "payment.stcPay.sendCode") }).click();
      await page.getByRole("link", { name: msg("en", "payment.payByCard") }).click();
      await payWithCard(page, "4242 4242 4242 4242");
      await page.waitForURL(/\/en\/payment-status\?/);
      await eventually(() => page.locator(".payment-result--paid").count()).toBe(1);
      await context.close();
    },
  );
});
