import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fullPageScreenshot,
  hydrated,
  journeyLocales,
  launchBrowser,
  LOCALES,
  newPage,
  SCREENSHOTS,
  toastSays,
} from "../support/browser.ts";
import { newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { jsonApi, visitorIp, builtWorker } from "../support/http.ts";
import { say } from "../support/messages.ts";

/**
 * A shopper presses "Cancel and return to the shop" on the sandbox card page, in both languages:
 * the order is an ordinary unpaid order afterwards, so its page offers the cancel button and the
 * console's timeline says why the payment failed in the reader's language.
 */
const base = builtWorker().url;
let browser: Browser;
let accounts: Record<string, string>;

/** What the sandbox card page's cancel button says (its own page, not the shop's locales). */
const CANCEL_ON_CARD_PAGE = { en: "Cancel and return to the shop", ar: "إلغاء والعودة إلى المتجر" };
const CANCELLED_PAYMENT = { en: "The payment was cancelled.", ar: "أُلغيت عملية الدفع." };

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  accounts = await newStaffAccounts(
    base,
    Object.fromEntries(LOCALES.map((l) => [`card-cancel-${l}`, "manager"] as const)),
  );
});
afterAll(async () => {
  await browser?.close();
});

/** A guest of a network of its own places an order and starts paying it: the card page's URL. */
async function startedOrder(locale: (typeof LOCALES)[number]) {
  const api = jsonApi(base, { "cf-connecting-ip": visitorIp() });
  const { guestId } = (await api("/api/cart/generate-guest-id")).body as { guestId: string };
  const guest = { "guest-id": guestId, "content-language": locale };
  const list = (await api("/backend/products?in_stock=1&per_page=48", { headers: guest })).body.data as {
    id: number;
    stock: number;
    /** Several: a product whose variants are chosen on its page (these fixtures take one of one). */
    variant_count?: number;
  }[];
  const product = list.find((p) => (p.variant_count ?? 1) === 1 && p.stock >= 5)!;
  expect(
    (
      await api("/backend/cart/add-product", {
        method: "POST",
        headers: guest,
        body: { product_id: product.id, quantity: 1 },
      })
    ).status,
  ).toBe(200);
  const placed = await api("/backend/checkout", {
    method: "POST",
    headers: guest,
    body: {
      idempotency_key: crypto.randomUUID(),
      email: `card-cancel-${locale}-${Date.now().toString(36)}@example.com`,
      address: { name: "John Buyer", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
      shipping_method: "standard",
      payment_method: "card",
    },
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const number = String(placed.body.data.number);
  const started = await api(`/backend/payments/${number}/start`, {
    method: "POST",
    headers: guest,
    body: { return_url: `/${locale}/payment-status` },
  });
  expect(started.status).toBe(200);
  return { guestId, number, cardPage: `${base}${started.body.data.redirect_url}` };
}

for (const locale of journeyLocales("ar")) {
  const t = (key: string) => say(locale, key);

  describe(`card page cancel (${locale})`, () => {
    it("card page cancel: after 'Cancel and return to the shop' the order page offers the cancel button, and the console names the reason", async () => {
      const order = await startedOrder(locale);
      const { context, page, errors } = await newPage(browser, { viewport: { width: 390, height: 844 } });
      await context.addInitScript((id) => sessionStorage.setItem("guestId", id), order.guestId);

      await page.goto(order.cardPage);
      await Promise.all([
        page.waitForURL(/payment-status/),
        page.getByRole("button", { name: CANCEL_ON_CARD_PAGE[locale] }).click(),
      ]);
      await expect
        .poll(() => page.locator("main").textContent(), { timeout: 15_000 })
        .toContain(CANCELLED_PAYMENT[locale]);

      await page.goto(`${base}/${locale}/order/checkout/status?order=${order.number}`);
      await hydrated(page, ".self-service button");
      await fullPageScreenshot(page, `${SCREENSHOTS}/card-cancel-order-${locale}-390.png`);
      await page.getByRole("button", { name: t("orders.selfService.cancel"), exact: true }).click();
      const dialog = page.locator("dialog[open]");
      await expect.poll(() => dialog.count()).toBe(1);
      await dialog.getByRole("button", { name: t("orders.selfService.cancelConfirm") }).click();
      await toastSays(page, t("orders.selfService.cancelled"));
      await expect
        .poll(() => page.locator(".order-details__head").textContent())
        .toContain(t("orders.statuses.cancelled"));
      expect(errors).toEqual([]);
      await context.close();

      // Staff read why the payment failed in their language, never the code the backend stores.
      const staff = await newPage(browser);
      await openConsole(staff.page, base, locale, accounts[`card-cancel-${locale}`]);
      await staff.page.goto(`${base}/${locale}/admin/orders/${order.number}`);
      await hydrated(staff.page, ".console-timeline");
      const timeline = staff.page.locator(".console-timeline");
      await expect.poll(() => timeline.textContent()).toContain(t("console.orders.paymentFailures.cancelled"));
      expect(await timeline.locator("q").allTextContents()).not.toContain("cancelled");
      await fullPageScreenshot(staff.page, `${SCREENSHOTS}/card-cancel-console-${locale}.png`);
      await staff.context.close();
    });
  });
}
