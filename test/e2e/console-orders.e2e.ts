import { mkdirSync } from "node:fs";
import { say } from "../support/messages.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { seriousViolations } from "../support/axe.ts";
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
import { visitorIp, backendJson, builtWorker } from "../support/http.ts";

/**
 * Orders in the console, in Chromium and both languages: a shopper buys and pays with the
 * sandbox's card page; a manager finds the order, prepares and ships it with a tracking number,
 * and the shopper's order page shows the carrier and tracking number; a partial refund and then
 * the rest change the payment's and then the order's state on both sides.
 */
const base = builtWorker().url;
let browser: Browser;

/** Each test's own staff account, by its label. */
let accounts: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  accounts = await newStaffAccounts(
    base,
    Object.fromEntries(
      LOCALES.flatMap((l) => [
        [`orders-${l}-manager`, "manager"] as const,
        [`orders-${l}-support`, "support"] as const,
      ]),
    ),
  );
});
afterAll(async () => {
  await browser?.close();
});

const api = (path: string, headers: Record<string, string>, body?: unknown) => backendJson(base, path, headers, body);

/** A guest's order through the real cart and checkout, started for payment with the sandbox. */
async function guestOrder(locale: string) {
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
  const product = list.filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 5).at(locale === "ar" ? -1 : 0)!;
  await api("/backend/cart/add-product", guest, { product_id: product.id, quantity: 1 });
  const order = (
    await api("/backend/checkout", guest, {
      idempotency_key: crypto.randomUUID(),
      email: `console-buyer-${locale}-${Date.now()}@example.com`,
      address: { name: "Noura Buyer", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
      shipping_method: "standard",
      payment_method: "card",
    })
  ).data;
  const started = (
    await api(`/backend/payments/${order.number}/start`, guest, { return_url: `/${locale}/payment-status` })
  ).data;
  return {
    guestId,
    number: String(order.number),
    total: Number(order.total),
    payUrl: `${base}${started.redirect_url}`,
  };
}

/** Nothing sticks out sideways: a phone scrolls the page down only (tables scroll in their region). */
async function fitsWidth(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(width);
}

async function noSeriousViolations(page: Page) {
  expect(JSON.stringify(await seriousViolations(page))).toEqual("[]");
}

for (const locale of journeyLocales("en")) {
  const t = (key: string, params?: Record<string, string>) => say(locale, key, params);
  describe(`orders in the console (${locale})`, () => {
    it("a manager ships a paid order with a tracking number, the shopper sees it, and refunds change both states", async () => {
      const order = await guestOrder(locale);

      // The shopper pays on the sandbox's card page, in a tab that holds the guest's id.
      const shopper = await newPage(browser, { viewport: { width: 390, height: 844 } });
      await shopper.context.addInitScript((id) => sessionStorage.setItem("guestId", id), order.guestId);
      await shopper.page.goto(order.payUrl);
      await shopper.page.fill("#card-number", "4242 4242 4242 4242");
      await shopper.page.fill("#card-expiry", "12/39");
      await shopper.page.fill("#card-cvc", "123");
      await Promise.all([shopper.page.waitForURL(/payment-status/), shopper.page.click("button[value=pay]")]);

      // The manager finds it by its number.
      const manager = accounts[`orders-${locale}-manager`];
      const { context, page, errors } = await newPage(browser);
      await openConsole(page, base, locale, manager);
      await page.goto(`${base}/${locale}/admin/orders?search=${order.number}`);
      await hydrated(page, ".console-table a");
      expect(await page.locator(".console-table tbody tr").count()).toBe(1);
      expect(await page.locator(".console-table tbody").textContent()).toContain(t("orders.paymentStatuses.paid"));
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-orders-${locale}.png`);
      await noSeriousViolations(page);

      await page.getByRole("link", { name: order.number }).click();
      await page.waitForURL(`${base}/${locale}/admin/orders/${order.number}`);
      await hydrated(page, ".console-actions button");
      const actions = page.locator(".console-actions");
      // Only what a paid order allows: prepare, refund, cancel; no ship or deliver yet.
      expect(await actions.getByRole("button").allTextContents()).toEqual([
        t("console.orders.actions.process"),
        t("console.orders.actions.refund"),
        t("console.orders.actions.cancel"),
      ]);
      await noSeriousViolations(page);

      // Each step is confirmed first: the dialog takes the focus on its refusing button, and
      // refusing (Escape here) changes nothing.
      const processButton = actions.getByRole("button", { name: t("console.orders.actions.process") });
      await processButton.click();
      const stepDialog = page.locator("dialog[open]");
      await expect
        .poll(() => stepDialog.locator("h2").textContent())
        .toBe(t("console.orderSteps.processTitle", { number: order.number }));
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(t("console.orderSteps.notNow"));
      await noSeriousViolations(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-order-process-confirm-${locale}.png`);
      await page.keyboard.press("Escape");
      await expect.poll(() => page.locator("dialog[open]").count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(t("console.orders.actions.process"));
      expect(await page.locator(".console-order__head").textContent()).toContain(t("orders.statuses.paid"));
      await processButton.click();
      await stepDialog.getByRole("button", { name: t("console.orders.actions.process") }).click();
      await toastSays(page, t("console.orders.processed"));
      await actions.getByRole("button", { name: t("console.orders.actions.ship") }).click();
      const shipDialog = page.locator("dialog[open]");
      await expect.poll(() => shipDialog.count()).toBe(1);
      // The dialog takes the focus; sending it empty names both missing fields.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("ship-carrier");
      await shipDialog.getByRole("button", { name: t("console.orders.shipSubmit") }).click();
      await expect.poll(() => shipDialog.locator("[aria-invalid=true]").count()).toBe(2);
      await noSeriousViolations(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-order-ship-${locale}.png`);
      await shipDialog.locator("#ship-carrier").fill("SMSA Express");
      await shipDialog.locator("#ship-tracking_number").fill(`SMSA-${locale.toUpperCase()}-771234`);
      await shipDialog.getByRole("button", { name: t("console.orders.shipSubmit") }).click();
      await toastSays(page, t("console.orders.shipped"));
      await expect.poll(() => page.locator("dialog[open]").count()).toBe(0);
      await expect
        .poll(() => page.locator(".console-order").textContent())
        .toContain(`SMSA-${locale.toUpperCase()}-771234`);
      expect(await page.locator(".console-timeline").textContent()).toContain(t("console.orders.events.shipped"));
      // The messages the customer is owed so far: placed, paid and shipped, by email and SMS.
      const messages = page.locator("section[aria-labelledby=order-messages] tbody tr");
      await expect.poll(() => messages.count()).toBe(6);
      expect((await messages.allTextContents()).join(" ")).toContain(t("console.orders.messages.kinds.shipped"));

      // The shopper's order page shows the carrier and the tracking number.
      const status = `${base}/${locale}/order/checkout/status?order=${order.number}`;
      await shopper.page.goto(status);
      await shopper.page.waitForSelector(".order-shipment");
      const shipment = shopper.page.locator(".order-shipment");
      expect(await shipment.textContent()).toContain("SMSA Express");
      expect(await shipment.textContent()).toContain(`SMSA-${locale.toUpperCase()}-771234`);
      expect(await shipment.textContent()).toContain(t("orders.carrier"));
      expect(await shopper.page.locator(".order-details__head").textContent()).toContain(t("orders.statuses.shipped"));
      await fullPageScreenshot(shopper.page, `${SCREENSHOTS}/order-shipped-phone-${locale}.png`);

      // A partial refund: the payment is partly refunded, the order still shipped.
      await actions.getByRole("button", { name: t("console.orders.actions.refund") }).click();
      const refundDialog = page.locator("dialog[open]");
      const amount = refundDialog.locator("#refund-amount");
      // The refund form's submit, then its confirmation in a dialog of its own above the form.
      const submitConfirmed = async () => {
        await page
          .locator("dialog[open]")
          .getByRole("button", { name: t("console.orders.refundSubmit") })
          .click();
        const confirm = page.locator("dialog[open]").last();
        await confirm.getByRole("button", { name: t("console.orders.refundSubmit") }).click();
      };
      // Left empty, the most that can be refunded said in its hint: one Enter never refunds it all.
      expect(await amount.inputValue()).toBe("");
      expect((await refundDialog.locator("#refund-amount-hint").textContent())?.replace(/,/g, "")).toContain(
        (order.total / 100).toFixed(2),
      );
      await amount.fill(String(order.total / 100 + 1));
      await refundDialog.getByRole("button", { name: t("console.orders.refundSubmit") }).click();
      await expect.poll(() => refundDialog.locator("[aria-invalid=true]").count()).toBe(1);
      // Riyals as typed, Arabic-Indic digits too.
      await amount.fill(locale === "ar" ? "١٠٫٠٠" : "10");
      await refundDialog.getByRole("button", { name: t("console.orders.refundSubmit") }).click();
      // Confirmed first, in a dialog of its own above the form.
      await expect.poll(() => page.locator("dialog[open]").count()).toBe(2);
      await noSeriousViolations(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-order-refund-confirm-${locale}.png`);
      await page
        .locator("dialog[open]")
        .last()
        .getByRole("button", { name: t("console.orders.refundSubmit") })
        .click();
      await toastSays(page, t("console.orders.refundDone"));
      await expect.poll(() => page.locator("dialog[open]").count()).toBe(0);
      const head = page.locator(".console-order__head");
      await expect
        .poll(async () => (await head.locator(".console-badge").allTextContents()).join(" "))
        // The badges are labelled ("Order: …", "Payment: …"): each names its state.
        .toMatch(new RegExp(`${t("orders.statuses.shipped")}.*${t("orders.paymentStatuses.partially_refunded")}`));

      await shopper.page.reload();
      await shopper.page.waitForSelector(".order-shipment");
      await expect.poll(() => shipment.textContent()).toContain(t("orders.paymentStatuses.partially_refunded"));

      // Another tab refunds one riyal behind this page's back: the page still offers the old rest, and
      // the backend's refusal comes back through the route's action onto the dialog's amount field.
      const behind = await page.evaluate(async (number) => {
        const res = await fetch(`/backend/admin/orders/${number}/refund`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${sessionStorage.getItem("token")}`,
            "content-type": "application/json",
            accept: "application/json",
          },
          body: JSON.stringify({ amount: 100, reason: null }),
        });
        await res.text();
        return res.status;
      }, order.number);
      expect(behind).toBe(200);
      await actions.getByRole("button", { name: t("console.orders.actions.refund") }).click();
      await page.locator("dialog[open] #refund-amount").fill(((order.total - 1000) / 100).toFixed(2));
      await submitConfirmed();
      const refused = page.locator("dialog[open] #refund-amount-error");
      await expect.poll(() => refused.textContent()).toContain(((order.total - 1100) / 100).toFixed(2));
      expect(await page.locator("dialog[open]").count()).toBe(1);
      expect(await page.locator("dialog[open] #refund-amount").getAttribute("aria-invalid")).toBe("true");
      await noSeriousViolations(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-order-refund-refused-${locale}.png`);
      // The browser logs the refused call itself; that one line is expected here.
      const logged = errors.findIndex((e) => e.includes("status of 422"));
      expect(logged).toBeGreaterThanOrEqual(0);
      errors.splice(logged, 1);
      await page
        .locator("dialog[open]")
        .getByRole("button", { name: t("console.actions.cancel") })
        .click();
      await expect.poll(() => page.locator("dialog[open]").count()).toBe(0);

      // The rest: the order is refunded in full.
      await actions.getByRole("button", { name: t("console.orders.actions.refund") }).click();
      expect(await page.locator("dialog[open] #refund-amount").inputValue()).toBe("");
      await page.locator("dialog[open] #refund-amount").fill(((order.total - 1100) / 100).toFixed(2));
      await page
        .locator("dialog[open] #refund-reason")
        .fill(locale === "ar" ? "أعاد العميل الجهاز" : "Returned by the customer");
      await submitConfirmed();
      await toastSays(page, t("console.orders.refundDone"));
      await expect
        .poll(async () => (await head.locator(".console-badge").allTextContents()).join(" "))
        .toMatch(new RegExp(`${t("orders.statuses.refunded")}.*${t("orders.paymentStatuses.refunded")}`));
      // Refunded while on its way: it may still be marked delivered, nothing else.
      expect(await page.locator(".console-actions").getByRole("button").allTextContents()).toEqual([
        t("console.orders.actions.deliver"),
      ]);
      await noSeriousViolations(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-order-${locale}.png`);
      await page.setViewportSize({ width: 390, height: 844 });
      await fitsWidth(page);
      await noSeriousViolations(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-order-phone-${locale}.png`);
      await page.goto(`${base}/${locale}/admin/orders`);
      await hydrated(page, ".console-table a");
      await fitsWidth(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-orders-phone-${locale}.png`);

      // Marking it delivered is confirmed too: "Not now" leaves it shipped, the dialog's own button delivers.
      await page.goto(`${base}/${locale}/admin/orders/${order.number}`);
      await hydrated(page, ".console-actions button");
      const deliverButton = page.locator(".console-actions").getByRole("button", {
        name: t("console.orders.actions.deliver"),
      });
      await deliverButton.click();
      const deliverDialog = page.locator("dialog[open]");
      await expect
        .poll(() => deliverDialog.locator("h2").textContent())
        .toBe(t("console.orderSteps.deliverTitle", { number: order.number }));
      expect(await deliverDialog.textContent()).toContain(t("console.orderSteps.deliverBody"));
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-order-deliver-confirm-${locale}.png`);
      await deliverDialog.getByRole("button", { name: t("console.orderSteps.notNow") }).click();
      await expect.poll(() => page.locator("dialog[open]").count()).toBe(0);
      expect(await page.locator(".console-timeline").textContent()).not.toContain(t("console.orders.events.delivered"));
      await deliverButton.click();
      await deliverDialog.getByRole("button", { name: t("console.orders.actions.deliver") }).click();
      await toastSays(page, t("console.orders.delivered"));
      await expect.poll(() => page.locator(".console-actions").count()).toBe(0);

      await shopper.page.reload();
      await shopper.page.waitForSelector(".order-shipment");
      await expect
        .poll(() => shopper.page.locator(".order-details__head .status-badge").textContent())
        .toBe(t("orders.statuses.refunded"));
      expect(await shipment.textContent()).toContain(t("orders.paymentStatuses.refunded"));
      await fullPageScreenshot(shopper.page, `${SCREENSHOTS}/order-refunded-phone-${locale}.png`);

      expect(errors).toEqual([]);
      await context.close();
      await shopper.context.close();
    });

    it("support reads an order with the contact details masked and is offered no action", async () => {
      const order = await guestOrder(locale);
      const support = accounts[`orders-${locale}-support`];
      const { context, page } = await newPage(browser, { viewport: { width: 390, height: 844 } });
      await openConsole(page, base, locale, support);
      await page.goto(`${base}/${locale}/admin/orders/${order.number}`);
      await page.waitForSelector(".console-order");
      expect(await page.locator(".console-actions").count()).toBe(0);
      const text = (await page.locator(".console-order").textContent()) ?? "";
      expect(text).toContain(t("console.orders.maskedNote"));
      expect(text).not.toContain("console-buyer-");
      expect(text).not.toContain("Tahlia");
      expect(text).not.toContain("512345678");
      await fitsWidth(page);
      await noSeriousViolations(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-order-support-phone-${locale}.png`);
      await context.close();
    });
  });
}
