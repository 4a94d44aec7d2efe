import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ar from "../../locales/ar.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import type { RunningWorker } from "../../scripts/lib/worker.ts";
import { expectAxeClean } from "../support/axe.ts";
import { fullPageScreenshot, hydrated, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { startProductionWorker } from "../support/http.ts";

// No payment provider, as a shopper meets it: a production shop with no payment provider says so on the
// checkout page, before the form is filled, and offers no way to place an order it cannot charge.

let production: RunningWorker;
let stop: (() => void) | undefined;
let browser: Browser;
let slug = "";

beforeAll(async () => {
  ({ worker: production, stop } = await startProductionWorker());
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const list = (await (await fetch(`${production.url}/backend/products?in_stock=1&per_page=12`)).json()) as {
    data: { slug: string; stock: number }[];
  };
  slug = list.data.find((p) => p.stock >= 3)!.slug;
});

afterAll(async () => {
  await browser?.close();
  stop?.();
});

describe("checkout on a production shop with no payment provider", () => {
  for (const locale of LOCALES) {
    it(`${locale}: the checkout page says payment is unavailable and cannot place the order`, async () => {
      const { context, page } = await newPage(browser);
      try {
        await page.goto(`${production.url}/${locale}/product-details/${slug}`);
        await hydrated(page, ".add-to-cart__button");
        await page.locator(".add-to-cart__button").click();
        await expect.poll(() => page.locator("#cart-drawer [data-product-id]").count(), { timeout: 15_000 }).toBe(1);
        await page.goto(`${production.url}/${locale}/checkout`);
        const notice = page
          .getByRole("alert")
          .filter({ hasText: (locale === "ar" ? ar : en).checkout.paymentsUnavailable });
        await expect.poll(() => notice.count(), { timeout: 15_000 }).toBe(1);
        expect(await page.locator(".checkout__submit").isDisabled()).toBe(true);
        expect(await page.locator('input[name="payment_method"]').count()).toBe(0);
        await fullPageScreenshot(page, `${SCREENSHOTS}/checkout-no-provider-${locale}.png`);
        await expectAxeClean(page);
      } finally {
        await context.close();
      }
    });
  }
});
