import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { DeliveryPromiseAnswer } from "../../contract/delivery-promise.ts";
import { expectAxeClean } from "../support/axe.ts";
import { hydrated, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { msg } from "../support/checkout-browser.ts";
import { builtWorker, visitorIp } from "../support/http.ts";

/**
 * The delivery promise on the product page, in Chromium and in both languages (the locale is the
 * point: the date's words and the mirrored layout): a shopper with no city is asked for one once,
 * picks Riyadh and reads "Arrives by …", changes to Tabuk and reads a later day, and finds Tabuk
 * remembered on the next visit (cookie); at checkout the promise follows the city as it is typed.
 * The page's HTML, which is cached for every anonymous visitor, carries no promise: the line is
 * filled in the browser from GET /backend/delivery/promise.
 * With the shop's default settings Riyadh is one working day away and the rest of the country three.
 */
const base = builtWorker().url;
let browser: Browser;
let slug: string;

beforeAll(async () => {
  browser = await launchBrowser();
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=24`, { headers: { "content-language": "en" } });
  const products = ((await res.json()) as { data: { slug: string; stock: number; variant_count?: number }[] }).data;
  slug = products.find((p) => (p.variant_count ?? 1) === 1 && p.stock > 0)!.slug;
});
afterAll(async () => {
  await browser?.close();
});

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/** The backend's promise for a city, in a language: what the page must show. */
async function promiseOf(city: string, locale: string): Promise<string> {
  const res = await fetch(`${base}/backend/delivery/promise?city=${encodeURIComponent(city)}`, {
    headers: { "content-language": locale, "cf-connecting-ip": visitorIp() },
  });
  expect(res.headers.get("cache-control")).toBe("no-store");
  return ((await res.json()) as { data: DeliveryPromiseAnswer }).data.promise!.text;
}

describe("the delivery promise on the product page", () => {
  for (const locale of LOCALES) {
    it(`follows the city the shopper picks, and remembers it (${locale})`, async () => {
      // The page as the cache keeps it: no promise in it, only the empty line.
      const html = await (
        await fetch(`${base}/${locale}/product-details/${slug}`, { headers: { "cf-connecting-ip": visitorIp() } })
      ).text();
      expect(html).not.toContain(locale === "en" ? "Arrives by" : "يصل بحلول");

      const { context, page, errors } = await newPage(browser);
      await page.goto(`${base}/${locale}/product-details/${slug}`);
      await hydrated(page, ".add-to-cart__button");
      const promise = page.locator(".delivery-promise");
      const line = promise.locator(".delivery-promise__text");
      // No city yet: the shop asks for one.
      await eventually(() => promise.textContent()).toContain(msg(locale, "deliveryPromise.chooseCity"));
      await page.getByRole("button", { name: msg(locale, "deliveryPromise.pick") }).click();
      const chooser = page.getByLabel(msg(locale, "deliveryPromise.cityLabel"));
      await eventually(() => page.evaluate(() => document.activeElement?.tagName)).toBe("SELECT");
      await expectAxeClean(page, `delivery promise, city chooser ${locale}`);
      await page.locator(".product__buy").screenshot({ path: `${SCREENSHOTS}/delivery-promise-chooser-${locale}.png` });
      await chooser.selectOption("Riyadh");
      await page.getByRole("button", { name: msg(locale, "deliveryPromise.show") }).click();
      const riyadh = await promiseOf("Riyadh", locale);
      await eventually(() => line.textContent()).toBe(riyadh);
      expect(await promise.textContent()).toContain(locale === "en" ? "Riyadh" : "الرياض");
      await expectAxeClean(page, `delivery promise ${locale}`);
      await page.locator(".product__buy").screenshot({ path: `${SCREENSHOTS}/delivery-promise-riyadh-${locale}.png` });

      // Another city: another day, with the chooser reached from the line itself.
      await page.getByRole("button", { name: msg(locale, "deliveryPromise.change") }).click();
      await eventually(() => page.evaluate(() => document.activeElement?.tagName)).toBe("SELECT");
      await chooser.selectOption("Tabuk");
      await page.getByRole("button", { name: msg(locale, "deliveryPromise.show") }).click();
      const tabuk = await promiseOf("Tabuk", locale);
      expect(tabuk).not.toBe(riyadh);
      await eventually(() => line.textContent()).toBe(tabuk);
      await expectAxeClean(page, `delivery promise, another city ${locale}`);
      await page.locator(".product__buy").screenshot({ path: `${SCREENSHOTS}/delivery-promise-tabuk-${locale}.png` });

      // The next visit remembers the city: no question, the promise for Tabuk.
      await page.reload();
      await eventually(() => line.textContent()).toBe(tabuk);
      expect(await promise.getAttribute("data-city")).toBe("Tabuk");
      expect((await context.cookies()).find((c) => c.name === "city")?.value).toBe("Tabuk");
      await page.screenshot({ path: `${SCREENSHOTS}/delivery-promise-page-${locale}.png` });

      // At checkout the promise follows the delivery city as it is typed, in either language.
      await page.locator(".add-to-cart__button").click();
      await eventually(() => page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
      await page.goto(`${base}/${locale}/checkout`);
      await eventually(() => page.locator('input[name="shipping_method"]').count()).toBeGreaterThan(0);
      const atCheckout = page.locator(".checkout__promise");
      await page.locator("#co-city").fill(locale === "ar" ? "الرياض" : "Riyadh");
      await eventually(() => atCheckout.textContent()).toBe(riyadh);
      await page.locator("#co-city").fill(locale === "ar" ? "تبوك" : "Tabuk");
      await eventually(() => atCheckout.textContent()).toBe(tabuk);
      await page
        .locator(".checkout__main")
        .screenshot({ path: `${SCREENSHOTS}/delivery-promise-checkout-${locale}.png` });
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
