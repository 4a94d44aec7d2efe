import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { expectAxeClean } from "../support/axe.ts";
import { hydrated, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { backendJson, builtWorker, visitorIp } from "../support/http.ts";
import { say } from "../support/messages.ts";

/**
 * The console's words, in Chromium and both languages: one status vocabulary with labelled badges
 * ("Payment: Not paid" for an unpaid order that was cancelled, not "payment failed"), the sandbox
 * card page's icon, an audit log in the console's language that links to its records, and the
 * "you don't have access" page inside the console; a visitor who is not staff gets the shop's own
 * 'Page not found: {path}'.
 */
const base = builtWorker().url;
const SHOTS = `${SCREENSHOTS}/console-vocabulary`;
let browser: Browser;
let accounts: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
  accounts = await newStaffAccounts(
    base,
    Object.fromEntries(
      LOCALES.flatMap((l) => [[`vocab-${l}-owner`, "owner"] as const, [`vocab-${l}-manager`, "manager"] as const]),
    ),
  );
});
afterAll(async () => {
  await browser?.close();
});

/** A guest's order through the real cart and checkout, started for payment with the sandbox. */
async function guestOrder(locale: string) {
  const ip = { "cf-connecting-ip": visitorIp() };
  const { guestId } = (await (await fetch(`${base}/api/cart/generate-guest-id`, { headers: ip })).json()) as {
    guestId: string;
  };
  const guest = { ...ip, "guest-id": guestId, "content-language": locale };
  const list = (await backendJson(base, "/backend/products?in_stock=1&per_page=48", guest)).data as unknown as {
    id: number;
    stock: number;
    /** Several: a product whose variants are chosen on its page (these fixtures take one of one). */
    variant_count?: number;
  }[];
  const product = list.filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 5).at(locale === "ar" ? -2 : 1)!;
  await backendJson(base, "/backend/cart/add-product", guest, { product_id: product.id, quantity: 1 });
  const order = (
    await backendJson(base, "/backend/checkout", guest, {
      idempotency_key: crypto.randomUUID(),
      email: `vocab-buyer-${locale}-${Date.now()}@example.com`,
      address: { name: "Noura Buyer", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
      shipping_method: "standard",
      payment_method: "card",
    })
  ).data;
  const started = (
    await backendJson(base, `/backend/payments/${order.number}/start`, guest, {
      return_url: `/${locale}/payment-status`,
    })
  ).data;
  return { number: String(order.number), payUrl: `${base}${started.redirect_url}` };
}

describe("the console's vocabulary in Chromium", () => {
  for (const locale of LOCALES) {
    it(`${locale}: an order cancelled after its card payment was cancelled reads 'Order: Cancelled', 'Payment: Not paid', and the audit log names it`, async () => {
      const { number, payUrl } = await guestOrder(locale);

      // The sandbox card page has its icon: no request for /favicon.ico that answers 404.
      const { context: shopper, page: card } = await newPage(browser);
      const missing: string[] = [];
      card.on("response", (r) => {
        if (r.status() === 404) missing.push(r.url());
      });
      await card.goto(payUrl);
      expect(await card.locator('link[rel="icon"]').getAttribute("href")).toMatch(/^data:image\/svg\+xml,/);
      await card.locator('button[name="action"][value="cancel"]').click();
      await card.waitForURL((url) => !url.pathname.includes("/payments/"));
      expect(missing.filter((u) => u.includes("favicon"))).toEqual([]);
      await shopper.close();

      // The owner cancels the unpaid order (over the console API of the session the page opened).
      const owner = accounts[`vocab-${locale}-owner`]!;
      const { context, page, errors } = await newPage(browser);
      await openConsole(page, base, locale, owner);
      const token = await page.evaluate(() => sessionStorage.getItem("token"));
      const cancelled = await fetch(`${base}/backend/admin/orders/${number}/cancel`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${token}`,
          origin: base,
          "content-language": locale,
          "cf-connecting-ip": visitorIp(),
        },
        body: "{}",
      });
      expect(cancelled.status).toBe(200);

      await page.goto(`${base}/${locale}/admin/orders/${number}`);
      await hydrated(page, ".console-order__head");
      const badges = page.locator(".console-order__head .console-badge");
      expect(await badges.allTextContents()).toEqual([
        `${say(locale, "console.vocabulary.orderBadge")}${say(locale, "orders.statuses.cancelled")}`,
        `${say(locale, "console.vocabulary.paymentBadge")}${say(locale, "orders.paymentStatuses.unpaid")}`,
      ]);
      // Read aloud too: the label is text, not a picture.
      expect(await badges.first().innerText()).toContain(say(locale, "console.vocabulary.orderBadge"));
      // The provider by its name in the reader's language; the card-page cancellation in words.
      const payments = (await page.locator("section[aria-labelledby=order-payments]").textContent()) ?? "";
      expect(payments).toContain(say(locale, "console.vocabulary.providers.sandbox"));
      const timeline = (await page.locator(".console-timeline").textContent()) ?? "";
      expect(timeline).toContain(say(locale, "console.orders.paymentFailures.cancelled"));
      await page.screenshot({ path: `${SHOTS}/order-${locale}.png`, fullPage: true });

      // The orders list says the same: not paid, not "payment failed".
      await page.goto(`${base}/${locale}/admin/orders?search=${number}`);
      await hydrated(page, "table");
      const row = (await page.locator("tbody tr").first().textContent()) ?? "";
      expect(row).toContain(say(locale, "orders.paymentStatuses.unpaid"));
      expect(row).not.toContain(say(locale, "orders.paymentStatuses.failed"));

      // The audit log: the action and the record by name in the console's language, linked; the change in words.
      await page.goto(`${base}/${locale}/admin/audit?search=${encodeURIComponent(owner)}`);
      await hydrated(page, "table");
      const line = page.locator("tbody tr", { hasText: number }).first();
      const text = (await line.textContent()) ?? "";
      expect(text).toContain(say(locale, "console.auditLog.actions.order.cancel"));
      expect(text).toContain(say(locale, "console.auditLog.entities.order", { name: number }));
      expect(text).toContain(say(locale, "orders.statuses.cancelled"));
      expect(text).not.toMatch(/order\.cancel|[{}"]/);
      expect(await line.getByRole("link").getAttribute("href")).toBe(`/${locale}/admin/orders/${number}`);
      await expectAxeClean(page);
      await page.screenshot({ path: `${SHOTS}/audit-${locale}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`${locale}: a manager at an owner-only page reads "you don't have access" inside the console; a stranger gets the shop's 'Page not found: {path}'`, async () => {
      const { context, page } = await newPage(browser);
      await openConsole(page, base, locale, accounts[`vocab-${locale}-manager`]!);
      for (const path of ["staff", "audit"]) {
        const res = await page.goto(`${base}/${locale}/admin/${path}`);
        expect(res?.status()).toBe(403);
        await hydrated(page, ".console-refusal");
        expect(await page.locator("h1").textContent()).toBe(say(locale, "console.access.noAccess.title"));
        // Inside the console: its header and navigation, in the console's language.
        expect(await page.locator(".console-header").count()).toBe(1);
        expect(await page.locator(".console-nav").count()).toBe(1);
        expect(await page.locator("html").getAttribute("lang")).toBe(locale === "ar" ? "ar-SA" : "en-US");
        expect(await page.locator("body").textContent()).not.toContain("Not Found");
      }
      await expectAxeClean(page);
      await page.screenshot({ path: `${SHOTS}/no-access-${locale}.png`, fullPage: true });
      await context.close();

      // Someone who is not staff: the console does not exist; the shop's 404 in its own frame.
      const stranger = await newPage(browser);
      const path = locale === "ar" ? `/ar/admin/${encodeURIComponent("منتج")}` : "/en/admin/xyz";
      const res = await stranger.page.goto(`${base}${path}`);
      expect(res?.status()).toBe(404);
      await hydrated(stranger.page, ".error-screen");
      // Spec §8: the path as the URL has it (an Arabic path percent-encoded).
      expect(await stranger.page.locator(".error-screen__detail").textContent()).toBe(`Page not found: ${path}`);
      expect(await stranger.page.locator("footer").count()).toBeGreaterThan(0);
      expect(await stranger.page.locator(".site-header--bare").count()).toBe(0);
      await stranger.page.screenshot({ path: `${SHOTS}/stranger-404-${locale}.png` });
      await stranger.context.close();
    });
  }
});
