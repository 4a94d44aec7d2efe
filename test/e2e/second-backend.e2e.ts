// The backend swap in a real browser: a storefront worker with an empty
// database of its own and BACKEND_URL pointing at another worker process serving the reference
// backend. A shopper browses, fills a cart, checks out and pays, in both languages, with no
// request refused by the CSP and every request on the shop's own origin.
import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import type { RunningWorker } from "../../scripts/lib/worker.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyIt,
  launchBrowser,
  LOCALES,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import { startStorefrontOf, builtWorker } from "../support/http.ts";

const backendWorker = builtWorker().url;
let shop: RunningWorker;
let stop: (() => void) | undefined;
let browser: Browser;

interface Product {
  id: number;
  slug: string;
  stock: number;
}
let products: Product[] = [];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  ({ worker: shop, stop } = await startStorefrontOf(`${backendWorker}/backend`));
  browser = await launchBrowser();
  const res = await fetch(`${backendWorker}/backend/products?in_stock=1&per_page=48&sort=price_asc`);
  products = ((await res.json()) as { data: Product[] }).data.filter((p) => p.stock >= 10);
  expect(products.length).toBeGreaterThanOrEqual(2);
});

afterAll(async () => {
  await browser?.close();
  stop?.();
});

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 });

describe("a storefront whose backend is another worker", () => {
  LOCALES.forEach((locale, index) => {
    journeyIt(locale, "en")(
      `${locale}: browse, add to cart, check out and pay, all through the shop's origin`,
      async () => {
        const product = products[index];
        const { context, page, errors } = await newPage(browser);
        const elsewhere: string[] = [];
        page.on("request", (r) => {
          if (!r.url().startsWith(shop.url) && !r.url().startsWith("data:")) elsewhere.push(r.url());
        });

        // Browse: the list's product art comes from the other backend and is drawn.
        await page.goto(`${shop.url}/${locale}/products`);
        const firstImage = page.locator(".product-card img").first();
        await eventually(() => firstImage.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
        await fullPageScreenshot(page, `${SCREENSHOTS}/second-backend-products-${locale}.png`);

        // Cart: from the product page, the drawer opens with the product.
        await page.goto(`${shop.url}/${locale}/product-details/${product.slug}`);
        await hydrated(page, ".add-to-cart__button");
        await page.locator(".add-to-cart__button").click();
        await eventually(() => page.locator(`#cart-drawer [data-product-id="${product.id}"]`).count()).toBe(1);
        const guestId = await page.evaluate(() => sessionStorage.getItem("guestId"));
        expect(guestId).toMatch(/.{8,}/);

        // Checkout: a new address, then the sandbox card page (the other backend's, on our origin).
        await page.goto(`${shop.url}/${locale}/checkout`);
        await hydrated(page, ".checkout__submit");
        await eventually(() => page.locator('input[name="shipping_method"]').count()).toBeGreaterThan(0);
        await page.locator("#co-email").fill(`swap-${locale}-${Date.now()}@example.com`);
        await page.locator("#co-name").fill(locale === "ar" ? "سارة أحمد" : "Sara Ahmed");
        await page.locator("#co-phone").fill("501234567");
        await page.locator("#co-city").fill(locale === "ar" ? "الرياض" : "Riyadh");
        await page.locator("#co-district").fill(locale === "ar" ? "العليا" : "Al Olaya");
        await page.locator("#co-street").fill(locale === "ar" ? "طريق الملك فهد" : "King Fahd Road");
        await page.locator(".checkout__submit").click();
        await page.waitForURL(new RegExp(`^${shop.url}/backend/payments/sandbox/`));
        await page.locator("#card-number").fill("4242 4242 4242 4242");
        await page.locator("#card-expiry").fill("12/30");
        await page.locator("#card-cvc").fill("123");
        await page.locator('button[name="action"][value="pay"]').click();
        await page.waitForURL(new RegExp(`^${shop.url}/${locale}/payment-status\\?`));
        await eventually(() => page.locator(".payment-result--paid").count()).toBe(1);
        await fullPageScreenshot(page, `${SCREENSHOTS}/second-backend-paid-${locale}.png`);

        // The order is the other backend's, paid, for this guest.
        const number = new URL(page.url()).searchParams.get("order") ?? "";
        expect(number).toMatch(/^SQ-/);
        const order = await fetch(`${backendWorker}/backend/orders/${number}`, {
          headers: { accept: "application/json", "guest-id": guestId ?? "" },
        });
        expect(order.status).toBe(200);
        expect(((await order.json()) as { data: { status: string } }).data.status).toBe("paid");

        expect(errors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
        expect(elsewhere).toEqual([]);
        await context.close();
      },
    );
  });
});
