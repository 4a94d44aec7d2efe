import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import ar from "../../locales/ar.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import { expectAxeClean } from "../support/axe.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyIt,
  launchBrowser,
  LOCALES,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import { buyThroughCheckout, builtWorker } from "../support/http.ts";

// Stock freshness in the cart: when stock is sold from under a cart line, the line says how many
// are left and its stepper offers no more; when none are left, it says so and can only be removed.
const base = builtWorker().url;

interface Product {
  id: number;
  slug: string;
  brand: { slug: string } | null;
  category: { slug: string };
  stock: number;
  /** Several: a product whose variants are chosen on its page (these fixtures take one of one). */
  variant_count?: number;
  max_per_order: number;
  is_featured: boolean;
  is_new: boolean;
}

let browser: Browser;
let candidates: Product[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Products no other suite leans on, taken from the end of the list (the stock-freshness test
  // takes its from the start), with 3 or 4 in stock that one order may take.
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=48&sort=name`, {
    headers: { "content-language": "en" },
  });
  const all = ((await res.json()) as { data: Product[] }).data;
  candidates = all
    .filter(
      (p) =>
        !p.is_featured &&
        !p.is_new &&
        p.category.slug !== "phones" &&
        p.brand?.slug !== "apple" &&
        (p.variant_count ?? 1) === 1 &&
        p.stock >= 3 &&
        p.stock <= 4 &&
        p.stock <= p.max_per_order,
    )
    .reverse();
  expect(candidates.length).toBeGreaterThanOrEqual(LOCALES.length);
});

afterAll(async () => {
  await browser?.close();
});

describe("cart lines after stock is sold elsewhere", () => {
  LOCALES.forEach((locale, index) => {
    journeyIt(locale, "ar")(
      `${locale}: a line above what is left says how many remain; a sold-out line says so and offers no quantity`,
      async () => {
        const messages = locale === "ar" ? ar : en;
        const product = candidates[index];
        const { context, page } = await newPage(browser);
        const holds: { decline: () => Promise<void> }[] = [];
        try {
          // The shopper puts 2 in the cart.
          await page.goto(`${base}/${locale}/product-details/${product.slug}`);
          await hydrated(page, ".add-to-cart__button");
          await page.getByRole("button", { name: messages.product.increase, exact: true }).click();
          expect(await page.locator("#quantity").inputValue()).toBe("2");
          await page.locator(".add-to-cart__button").click();
          await expect
            .poll(() => page.locator(`#cart-drawer [data-product-id="${product.id}"]`).count(), { timeout: 15_000 })
            .toBe(1);

          // Others buy all but one.
          holds.push(await buyThroughCheckout(base, product.id, product.stock - 1, `198.51.100.${10 + index}`));
          await page.goto(`${base}/${locale}/shopping-cart`);
          const line = page.locator(`main .cart-line[data-product-id="${product.id}"]`);
          await expect
            .poll(() => line.locator(".cart-line__error").textContent(), { timeout: 15_000 })
            .toBe(messages.cart.onlyAvailable.replace("{{count}}", "1"));
          // It can only go down: more is not offered.
          expect(await line.locator(".stepper__button").last().isDisabled()).toBe(true);
          expect(await line.locator(".stepper__button").first().isEnabled()).toBe(true);
          await fullPageScreenshot(page, `${SCREENSHOTS}/cart-only-left-${locale}.png`);
          await expectAxeClean(page);

          // And the last one.
          holds.push(await buyThroughCheckout(base, product.id, 1, `198.51.100.${20 + index}`));
          await page.goto(`${base}/${locale}/shopping-cart`);
          await expect
            .poll(() => line.locator(".cart-line__error").textContent(), { timeout: 15_000 })
            .toBe(messages.cart.soldOut);
          expect(await line.locator(".stepper__input").isDisabled()).toBe(true);
          expect(await line.locator(".cart-line__remove").isEnabled()).toBe(true);
          await fullPageScreenshot(page, `${SCREENSHOTS}/cart-sold-out-${locale}.png`);
        } finally {
          // The buyers' cards are declined: the stock goes back for the other suites.
          for (const hold of holds) await hold.decline();
          await context.close();
        }
      },
    );
  });
});
