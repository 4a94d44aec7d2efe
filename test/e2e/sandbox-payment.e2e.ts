import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAxeClean } from "../support/axe.ts";
import { LOCALES, launchBrowser, newPage, SCREENSHOTS, fullPageScreenshot } from "../support/browser.ts";
import { visitorIp, backendJson, builtWorker } from "../support/http.ts";

// The sandbox provider's hosted card page, as a shopper's browser sees it: keyboard-operable,
// labelled, free of serious axe violations in both languages, through the 3-D Secure step.
const base = builtWorker().url;

const api = (path: string, headers: Record<string, string>, body?: unknown) => backendJson(base, path, headers, body);

/** A guest's fresh order, started for payment: answers the card page's URL and the payment id. */
async function startedPayment(locale: string) {
  // A guest of a network of its own: unpaid orders are held per network.
  const ip = { "cf-connecting-ip": visitorIp() };
  const { guestId } = (await (await fetch(`${base}/api/cart/generate-guest-id`, { headers: ip })).json()) as {
    guestId: string;
  };
  const guest = { ...ip, "guest-id": guestId, "content-language": locale };
  const list = (await api("/backend/products?in_stock=1&per_page=48", guest)).data as unknown as {
    id: number;
    stock: number;
    /** Several: a product whose variants are chosen on its page (these fixtures take one of one). */
    variant_count?: number;
  }[];
  const product = list.find((p) => (p.variant_count ?? 1) === 1 && p.stock >= 3)!;
  await api("/backend/cart/add-product", guest, { product_id: product.id, quantity: 1 });
  const order = (
    await api("/backend/checkout", guest, {
      idempotency_key: crypto.randomUUID(),
      email: `sandbox-${locale}@example.com`,
      address: { name: "Sandbox", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
      shipping_method: "standard",
      payment_method: "card",
    })
  ).data;
  const started = (
    await api(`/backend/payments/${order.number}/start`, guest, { return_url: `/${locale}/payment-status` })
  ).data;
  return { url: `${base}${started.redirect_url}`, paymentId: String(started.payment_id), number: String(order.number) };
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("the sandbox card page", () => {
  for (const locale of LOCALES) {
    it(`(${locale}) is labelled, accessible, and pays through the 3-D Secure step`, async () => {
      const { url, paymentId, number } = await startedPayment(locale);
      const { page, context, errors } = await newPage(browser, { viewport: { width: 390, height: 900 } });
      await page.goto(url);
      expect(await page.getAttribute("html", "dir")).toBe(locale === "ar" ? "rtl" : "ltr");
      await expectAxeClean(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/sandbox-card-${locale}.png`);

      // A wrong card shows the errors next to the fields, still accessible.
      await page.getByLabel(locale === "ar" ? "رقم البطاقة" : "Card number").fill("1234");
      await page.locator("button[value=pay]").click();
      await expect.poll(() => page.locator("#card-number-error").count()).toBe(1);
      expect(await page.getAttribute("#card-number", "aria-invalid")).toBe("true");
      await expectAxeClean(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/sandbox-card-errors-${locale}.png`);

      await page.fill("#card-number", "4000 0000 0000 3220");
      await page.fill("#card-expiry", "12/39");
      await page.fill("#card-cvc", "123");
      await page.keyboard.press("Enter");
      await page.waitForSelector("#otp-code");
      await expectAxeClean(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/sandbox-3ds-${locale}.png`);
      await page.fill("#otp-code", "123456");
      await Promise.all([page.waitForURL(/payment-status/), page.keyboard.press("Enter")]);
      const back = new URL(page.url());
      expect(back.pathname).toBe(`/${locale}/payment-status`);
      expect(back.searchParams.get("payment_id")).toBe(paymentId);
      expect(back.searchParams.get("order")).toBe(number);
      expect(errors.filter((e: string) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
      await context.close();
    });
  }
});
