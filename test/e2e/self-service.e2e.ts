import { mkdirSync } from "node:fs";
import { say } from "../support/messages.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { expectAxeClean } from "../support/axe.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyIt,
  launchBrowser,
  LOCALES,
  newPage,
  SCREENSHOTS,
  toastSays,
} from "../support/browser.ts";
import { consoleHttpSession, newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { builtWorker, buyThroughCheckout, jsonApi, visitorIp } from "../support/http.ts";

/**
 * The shopper's self-service in Chromium, in both languages: a shopper cancels an
 * unshipped paid order on its page and sees the refund; a shopper asks to return a delivered
 * order's line, staff approve, receive and refund it in the console, the shopper's page shows it
 * refunded, and every message of the order reached the shopper in their language.
 */
const base = builtWorker().url;
let browser: Browser;

type Locale = (typeof LOCALES)[number];

/** Each test's own staff account, by its label. */
let accounts: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  accounts = await newStaffAccounts(
    base,
    Object.fromEntries(
      LOCALES.flatMap((l) => [
        [`returns-${l}`, "manager"] as const,
        [`returns-ui-${l}`, "manager"] as const,
        [`reject-deliver-${l}`, "manager"] as const,
        [`reject-${l}`, "manager"] as const,
      ]),
    ),
  );
});
afterAll(async () => {
  await browser?.close();
});

interface PaidOrder {
  guestId: string;
  number: string;
  total: number;
  email: string;
}

/** A guest of a network of its own buys one item and pays on the sandbox's card page. */
async function paidGuestOrder(locale: Locale, label: string): Promise<PaidOrder> {
  const api = jsonApi(base, { "cf-connecting-ip": visitorIp() });
  const list = (await api("/backend/products?in_stock=1&per_page=48")).body.data as {
    id: number;
    stock: number;
    variant_count?: number;
  }[];
  // Of one variant: the spec's add names the product alone.
  const stocked = list.filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 5);
  const product = stocked[Math.floor(Math.random() * stocked.length)];
  const order = await buyThroughCheckout(base, product.id, 1, visitorIp(), {
    locale,
    email: `self-${label}-${locale}-${Date.now().toString(36)}@example.com`,
  });
  await order.pay();
  return { guestId: order.guestId, number: order.number, total: order.total, email: order.email };
}

/** A manager prepares, ships and delivers the order through the console's API. */
async function deliverAsManager(number: string, label: string) {
  const manager = accounts[label];
  const { token } = await consoleHttpSession(base, manager);
  const api = jsonApi(base, { authorization: `Bearer ${token}`, "cf-connecting-ip": visitorIp() });
  for (const [step, body] of [
    ["process", {}],
    ["ship", { carrier: "SMSA", tracking_number: "SM20261125" }],
    ["deliver", {}],
  ] as const) {
    const answer = await api(`/backend/admin/orders/${number}/${step}`, { method: "POST", body });
    expect(answer.status, `${step}: ${JSON.stringify(answer.body)}`).toBe(200);
  }
}

/** The shopper's tab: it holds the guest's id, as the tab that placed the order does. */
async function shopperPage(order: PaidOrder, width = 1280) {
  const opened = await newPage(browser, { viewport: { width, height: width < 600 ? 844 : 900 } });
  await opened.context.addInitScript((id) => sessionStorage.setItem("guestId", id), order.guestId);
  return opened;
}

const orderUrl = (locale: Locale, number: string) => `${base}/${locale}/order/checkout/status?order=${number}`;

for (const locale of LOCALES) {
  const t = (key: string, params?: Record<string, string>) => say(locale, key, params);

  describe(`self-service on the order page (${locale})`, () => {
    journeyIt(locale, "ar")(
      "a shopper cancels an unshipped paid order and sees it cancelled with the refund",
      async () => {
        const order = await paidGuestOrder(locale, "cancel");
        const { context, page, errors } = await shopperPage(order, 390);
        await page.goto(orderUrl(locale, order.number));
        await hydrated(page, ".self-service button");
        await fullPageScreenshot(page, `${SCREENSHOTS}/self-service-cancel-${locale}-390.png`);

        await page.getByRole("button", { name: t("orders.selfService.cancel"), exact: true }).click();
        const dialog = page.locator("dialog[open]");
        await expect.poll(() => dialog.count()).toBe(1);
        // Focus starts on the refusing button, so a stray Enter never cancels.
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(t("orders.selfService.keep"));
        await page.screenshot({ path: `${SCREENSHOTS}/self-service-cancel-dialog-${locale}-390.png` });
        await dialog.getByRole("button", { name: t("orders.selfService.cancelConfirm") }).click();
        await toastSays(page, t("orders.selfService.cancelled"));

        await expect
          .poll(() => page.locator(".order-details__head").textContent())
          .toContain(t("orders.statuses.cancelled"));
        const refunds = page.locator("[data-testid=refunds]");
        await expect.poll(() => refunds.textContent()).toContain(t("orders.selfService.refundStatuses.succeeded"));
        expect(await page.getByRole("button", { name: t("orders.selfService.cancel"), exact: true }).count()).toBe(0);
        await fullPageScreenshot(page, `${SCREENSHOTS}/self-service-cancelled-${locale}-390.png`);

        // Changed their mind again: one press puts the order's item back in the cart.
        await page.getByRole("button", { name: t("orders.again.button") }).click();
        await page.waitForURL(`${base}/${locale}/shopping-cart`, { timeout: 15_000 });
        await expect.poll(() => page.locator(".cart-page__lines .cart-line").count(), { timeout: 15_000 }).toBe(1);
        await fullPageScreenshot(page, `${SCREENSHOTS}/self-service-order-again-${locale}-390.png`);
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    journeyIt(locale, "en")(
      "a shopper whose return was not accepted reads the reason staff gave on the order page",
      async () => {
        const order = await paidGuestOrder(locale, "reject");
        await deliverAsManager(order.number, `reject-deliver-${locale}`);
        const shopperApi = jsonApi(base, { "guest-id": order.guestId, "content-language": locale });
        const placed = await shopperApi(`/backend/orders/${order.number}`);
        const line = (placed.body.data.items as { product_id: number }[])[0]!;
        const asked = await shopperApi(`/backend/orders/${order.number}/returns`, {
          method: "POST",
          body: { items: [{ product_id: line.product_id, quantity: 1, reason: "changed_mind" }] },
        });
        expect(asked.status, JSON.stringify(asked.body)).toBe(201);
        const returnId = asked.body.data.self_service.returns[0].id as string;
        const { token } = await consoleHttpSession(base, accounts[`reject-${locale}`]);
        const staffApi = jsonApi(base, { authorization: `Bearer ${token}`, "cf-connecting-ip": visitorIp() });
        const reason = locale === "ar" ? "المنتج مفتوح ومستخدم" : "The box was opened and the item used";
        const rejected = await staffApi(`/backend/admin/orders/${order.number}/returns/${returnId}/reject`, {
          method: "POST",
          body: { note: reason },
        });
        expect(rejected.status).toBe(200);

        const { context, page, errors } = await shopperPage(order, 390);
        await page.goto(orderUrl(locale, order.number));
        await hydrated(page, "[data-testid=return-reason]");
        expect(await page.locator("[data-testid=return-reason]").textContent()).toBe(
          t("orders.returns.rejectedBecause", { reason }),
        );
        await fullPageScreenshot(page, `${SCREENSHOTS}/self-service-return-rejected-${locale}-390.png`);
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    it("a shopper returns a delivered item, staff approve, receive and refund it, and every message arrives in the shopper's language", async () => {
      const order = await paidGuestOrder(locale, "return");
      await deliverAsManager(order.number, `returns-${locale}`);

      // The shopper asks for the return on the order page.
      const shopper = await shopperPage(order);
      const { page } = shopper;
      await page.goto(orderUrl(locale, order.number));
      await hydrated(page, ".self-service__form button[type=submit]");
      await expectAxeClean(page, `order page with the return form (${locale})`);
      await fullPageScreenshot(page, `${SCREENSHOTS}/self-service-return-form-${locale}.png`);
      // On a phone the form stacks and nothing sticks out sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      await fullPageScreenshot(page, `${SCREENSHOTS}/self-service-return-form-${locale}-390.png`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.setViewportSize({ width: 1280, height: 900 });

      // A submit without a reason is refused on the field, before anything is sent.
      await page.locator("#return-items-0-quantity").fill("1");
      await page.locator(".self-service__form button[type=submit]").click();
      await expect
        .poll(() => page.locator("#return-items-0-reason-error").textContent())
        .toBe(t("orders.returns.reasonRequired"));
      await page.locator("#return-items-0-reason").selectOption("damaged");
      await page.locator("#return-items-0-note").fill(locale === "ar" ? "الشاشة مخدوشة" : "The screen is scratched");
      await page.locator(".self-service__form button[type=submit]").click();
      await toastSays(page, t("orders.returns.sent"));
      const returns = page.locator("[data-testid=returns]");
      await expect.poll(() => returns.textContent()).toContain(t("orders.returns.statuses.requested"));
      await fullPageScreenshot(page, `${SCREENSHOTS}/self-service-return-requested-${locale}.png`);

      // Staff decide, receive and refund it in the console.
      const manager = accounts[`returns-ui-${locale}`];
      const staff = await newPage(browser);
      await openConsole(staff.page, base, locale, manager);
      await staff.page.goto(`${base}/${locale}/admin/orders/${order.number}`);
      await hydrated(staff.page, ".console-returns .console-actions button");
      await expectAxeClean(staff.page, `console order page with a return (${locale})`);
      const panel = staff.page.locator(".console-returns");
      expect(await panel.textContent()).toContain(t("orders.returns.reasons.damaged"));
      await panel.getByRole("button", { name: t("console.orders.returns.actions.approve") }).click();
      await toastSays(staff.page, t("console.orders.returns.done.approve"));

      await panel.getByRole("button", { name: t("console.orders.returns.actions.receive") }).click();
      await staff.page
        .locator("dialog[open]")
        .getByRole("button", { name: t("console.orders.returns.actions.receive") })
        .click();
      await toastSays(staff.page, t("console.orders.returns.done.receive"));

      const refund = panel.locator(".console-actions button");
      await expect.poll(() => refund.count()).toBe(1);
      await refund.click();
      await staff.page.locator("dialog[open] .button--danger").click();
      await toastSays(staff.page, t("console.orders.returns.done.refund"));
      await expect.poll(() => panel.textContent()).toContain(t("orders.returns.statuses.refunded"));
      // The refund names its return in the console's language (no English reason in Arabic).
      const refunds = staff.page.getByRole("region", { name: t("console.orders.refunds") });
      await expect
        .poll(() => refunds.textContent())
        .toMatch(new RegExp(t("console.orders.forReturn", { id: "ret_\\w+" })));
      // The timeline names it on the return's four steps (its pickup booked with the carrier among
      // them) and, as "for return", on the two refund steps.
      const returnId = /ret_[0-9a-f]{20}/.exec((await refunds.textContent()) ?? "")![0];
      const timeline = (await staff.page.locator(".console-timeline").textContent()) ?? "";
      expect(timeline.split(returnId).length - 1).toBe(6);
      expect(timeline.split(t("console.orders.forReturn", { id: returnId })).length - 1).toBe(2);
      await fullPageScreenshot(staff.page, `${SCREENSHOTS}/self-service-console-return-${locale}.png`);
      expect(staff.errors).toEqual([]);
      await staff.context.close();

      // The shopper's page shows it refunded.
      await page.reload();
      await hydrated(page, "[data-testid=returns]");
      expect(await returns.textContent()).toContain(t("orders.returns.statuses.refunded"));
      expect(await page.locator("[data-testid=refunds]").textContent()).toContain(
        t("orders.selfService.refundStatuses.succeeded"),
      );
      await fullPageScreenshot(page, `${SCREENSHOTS}/self-service-return-refunded-${locale}.png`);
      expect(shopper.errors).toEqual([]);
      await shopper.context.close();

      // Every message of the order, in the shopper's language (rendered by the message consumer).
      const purposes = [
        "order.placed",
        "order.paid",
        "order.delivered",
        "order.return_requested",
        "order.return_approved",
        "order.return_received",
        "order.refunded",
      ];
      type Sent = { purpose: string; lang: string; subject?: string; text?: string };
      const outbox = async () =>
        (
          (await (await fetch(`${base}/backend/dev/outbox?to=${encodeURIComponent(order.email)}`)).json()) as {
            data: Sent[];
          }
        ).data;
      await expect
        .poll(async () => (await outbox()).map((m) => m.purpose), { timeout: 15_000, interval: 500 })
        .toEqual(expect.arrayContaining(purposes));
      for (const sent of (await outbox()).filter((m) => purposes.includes(m.purpose))) {
        expect(sent.lang, sent.purpose).toBe(locale);
        if (locale === "ar")
          expect(`${sent.subject ?? ""} ${sent.text ?? ""}`, sent.purpose).toMatch(/[\u0600-\u06FF]/);
      }
    });
  });
}
