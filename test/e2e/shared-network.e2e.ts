// A shopper on a busy shared network (a carrier's address already holding unpaid orders) is asked
// to prove they are a person at checkout, not refused: the widget appears only then, its token
// goes with the retried order, and the order is placed and paid (DESIGN §11 "Shared networks").
import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import arBackend from "../../worker/backend/messages/ar.json" with { type: "json" };
import enBackend from "../../worker/backend/messages/en.json" with { type: "json" };
import {
  fullPageScreenshot,
  hydrated,
  journeyIt,
  launchBrowser,
  LOCALES,
  networkQuiet,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import { fillNewAddress, msg, payWithCard } from "../support/checkout-browser.ts";
import { buyThroughCheckout, builtWorker, visitorIp } from "../support/http.ts";

const base = builtWorker().url;
const BUSY = { en: enBackend.shared.challenge.required, ar: arBackend.shared.challenge.required };
/** Cloudflare's test site key that asks for a click: the journey sees the widget before it passes. */
const INTERACTIVE_SITE_KEY = "3x00000000000000000000FF";
const HOLDS_BEFORE_CHALLENGE = 3;

interface Product {
  id: number;
  slug: string;
  stock: number;
  variant_count?: number;
}

let browser: Browser;
let product: Product;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=48&sort=newest`, {
    headers: { "content-language": "en" },
  });
  const body = (await res.json()) as { data: Product[] };
  product = body.data.find((p) => (p.variant_count ?? 1) === 1 && p.stock >= 20)!;
  expect(product).toBeTruthy();
});
afterAll(async () => {
  await browser?.close();
});

const isWidgetScript = (url: string) =>
  url.includes("/challenge/stand-in/api.js") || url.startsWith("https://challenges.cloudflare.com/");

describe("a busy shared network at checkout", () => {
  for (const locale of LOCALES) {
    journeyIt(locale, "ar")(`${locale}: is challenged, passes the check, and places and pays its order`, async () => {
      // Other shoppers behind the same carrier address already hold unpaid orders.
      const ip = visitorIp();
      for (let i = 0; i < HOLDS_BEFORE_CHALLENGE; i++) await buyThroughCheckout(base, product.id, 1, ip);

      const { context, page, errors } = await newPage(browser);
      await context.setExtraHTTPHeaders({ "cf-connecting-ip": ip });
      const scripts: string[] = [];
      page.on("request", (r) => {
        if (isWidgetScript(r.url())) scripts.push(r.url());
      });
      const tokens: (string | undefined)[] = [];
      // The stand-in passes Cloudflare's default test key at once; the interactive one waits for a
      // click, so the journey (and its screenshot) sees the widget before it passes.
      await page.route("**/backend/checkout", async (route) => {
        tokens.push(route.request().headers()["cf-turnstile-response"]);
        const response = await route.fetch();
        if (response.status() !== 428) return route.fulfill({ response });
        const body = (await response.json()) as { challenge: { site_key: string } };
        body.challenge.site_key = INTERACTIVE_SITE_KEY;
        return route.fulfill({ response, json: body });
      });

      await page.goto(`${base}/${locale}/product-details/${product.slug}`);
      await hydrated(page, ".add-to-cart__button");
      await page.locator(".add-to-cart__button").click();
      await expect.poll(() => page.evaluate(() => sessionStorage.getItem("products"))).toBe("true");
      await page.goto(`${base}/${locale}/checkout`);
      await expect.poll(() => page.locator('input[name="shipping_method"]').count()).toBeGreaterThan(0);
      await fillNewAddress(page, locale, {
        email: `busy-${locale}-${Date.now()}@example.com`,
        name: locale === "ar" ? "سارة أحمد" : "Sara Ahmed",
      });
      await networkQuiet(page);
      // A normal checkout page loads nothing of Turnstile.
      expect(scripts).toEqual([]);

      await page.locator(".checkout__submit").click();
      const checkbox = page.locator(".challenge .turnstile-stand-in input[type=checkbox]");
      await checkbox.waitFor({ timeout: 15_000 });
      await expect.poll(() => page.locator(".form__summary").textContent()).toContain(BUSY[locale]);
      expect(await page.locator(".form__summary-title").textContent()).toBe(msg(locale, "challenge.title"));
      expect(await page.locator(".challenge").getAttribute("aria-label")).toBe(msg(locale, "challenge.title"));
      expect(scripts).toHaveLength(1);
      expect(tokens).toEqual([undefined]);
      // The widget sits in the flow of the page's direction (logical properties): at its start side.
      const [box, aside] = await Promise.all([
        page.locator(".challenge .turnstile-stand-in").boundingBox(),
        page.locator(".checkout__aside").boundingBox(),
      ]);
      if (locale === "ar")
        expect(Math.round(box!.x + box!.width)).toBeLessThanOrEqual(Math.round(aside!.x + aside!.width));
      else expect(Math.round(box!.x)).toBeGreaterThanOrEqual(Math.round(aside!.x));
      await page.locator(".challenge").scrollIntoViewIfNeeded();
      await fullPageScreenshot(page, `${SCREENSHOTS}/shared-network-challenge-${locale}.png`);

      // Solved: the same order goes again with the token, and is placed and paid.
      await checkbox.click();
      await payWithCard(page, "4242 4242 4242 4242");
      expect(tokens).toHaveLength(2);
      expect(tokens[1]).toMatch(/^XXXX\.DUMMY\.TOKEN\.XXXX\./);
      await page.waitForURL(new RegExp(`/${locale}/payment-status\\?`));
      await expect.poll(() => page.locator(".payment-result--paid").count(), { timeout: 15_000 }).toBe(1);
      expect(errors.filter((e) => !/status of 428/.test(e))).toEqual([]);
      await context.close();
    });
  }
});
