import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { say } from "../support/messages.ts";
import { seriousViolations } from "../support/axe.ts";
import { fullPageScreenshot, hydrated, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { backendJson, builtWorker, visitorIp } from "../support/http.ts";

// A Tabby order refunded in part from the console, in both languages: the refund goes back through
// Tabby (its stand-in here), and the order's payment reads partly refunded.
const base = builtWorker().url;
let browser: Browser;
let accounts: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  accounts = await newStaffAccounts(base, Object.fromEntries(LOCALES.map((l) => [`bnpl-${l}`, "manager"] as const)));
});
afterAll(async () => {
  await browser?.close();
});

const api = (path: string, headers: Record<string, string>, body?: unknown) => backendJson(base, path, headers, body);

/** A guest's order paid with Tabby: checkout, the session, and Tabby's page with its test code. */
async function tabbyPaidOrder(locale: string) {
  const ip = { "cf-connecting-ip": visitorIp() };
  const { guestId } = (await (await fetch(`${base}/api/cart/generate-guest-id`, { headers: ip })).json()) as {
    guestId: string;
  };
  const guest = { ...ip, "guest-id": guestId, "content-language": locale };
  const list = (await api("/backend/products?in_stock=1&per_page=48&sort=price_asc", guest)).data as unknown as {
    id: number;
    stock: number;
    price: number;
    variant_count?: number;
  }[];
  const product = list.filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 5 && p.price >= 50_000).at(0)!;
  await api("/backend/cart/add-product", guest, { product_id: product.id, quantity: 1 });
  const email = `tabby-refund-${locale}-${Date.now()}@example.com`;
  const order = (
    await api("/backend/checkout", guest, {
      idempotency_key: crypto.randomUUID(),
      email,
      address: { name: "Noura Buyer", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
      shipping_method: "standard",
      payment_method: "tabby",
    })
  ).data;
  const started = (
    await api(`/backend/payments/${order.number}/start`, guest, { return_url: `/${locale}/payment-status` })
  ).data;
  const paid = await fetch(`${base}${started.redirect_url}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ otp: "8888", email, action: "pay" }).toString(),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  return { number: String(order.number), total: Number(order.total) };
}

describe("a Tabby order refunded from the console", () => {
  for (const locale of LOCALES) {
    const t = (key: string, params?: Record<string, string>) => say(locale, key, params);
    it(`(${locale}) a manager refunds part of it, through Tabby`, { timeout: 90_000 }, async () => {
      const order = await tabbyPaidOrder(locale);
      const { context, page, errors } = await newPage(browser);
      await openConsole(page, base, locale, accounts[`bnpl-${locale}`]);
      await page.goto(`${base}/${locale}/admin/orders/${order.number}`);
      await hydrated(page, ".console-actions button");
      const head = page.locator(".console-order__head");
      expect((await head.locator(".console-badge").allTextContents()).join(" ")).toContain(
        t("orders.paymentStatuses.paid"),
      );

      await page.getByRole("button", { name: t("console.orders.actions.refund") }).click();
      const dialog = page.locator("dialog[open]");
      await dialog.locator("#refund-amount").fill(locale === "ar" ? "٢٥" : "25");
      await dialog.getByRole("button", { name: t("console.orders.refundSubmit") }).click();
      await expect.poll(() => page.locator("dialog[open]").count()).toBe(2);
      await page
        .locator("dialog[open]")
        .last()
        .getByRole("button", { name: t("console.orders.refundSubmit") })
        .click();
      await expect.poll(() => page.locator("dialog[open]").count(), { timeout: 15_000 }).toBe(0);
      await expect
        .poll(async () => (await head.locator(".console-badge").allTextContents()).join(" "), { timeout: 15_000 })
        .toContain(t("orders.paymentStatuses.partially_refunded"));
      // The payment names its provider in the reader's language.
      expect(await page.locator("main").textContent()).toContain(t("console.vocabulary.providers.tabby"));
      expect(JSON.stringify(await seriousViolations(page))).toBe("[]");
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-tabby-refund-${locale}.png`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
