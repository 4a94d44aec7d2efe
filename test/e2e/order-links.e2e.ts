import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { expectAxeClean } from "../support/axe.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyLocales,
  launchBrowser,
  newPage,
  SCREENSHOTS,
  type Locale,
} from "../support/browser.ts";
import { jsonApi, visitorIp, builtWorker } from "../support/http.ts";
import { say } from "../support/messages.ts";

/**
 * The links of the order messages, opened as their shopper would: in another browser than the
 * one that placed the order. A guest opens the invoice from the "paid" message, goes to the order
 * and cancels it; a spoiled link offers tracking, which leads back to the order's page; an
 * account holder's link opens the order in a new tab once signed in, and signed out it asks for
 * sign-in and comes back.
 */
const base = builtWorker().url;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

const PASSWORD = "a-long-and-unusual-passphrase";

/** Places an order of one stocked product for `identity` (guest id or bearer) and answers its number. */
async function placeOrder(locale: Locale, identity: Record<string, string>, email: string): Promise<string> {
  const api = jsonApi(base, { "cf-connecting-ip": visitorIp() });
  const headers = { ...identity, "content-language": locale };
  const list = (await api("/backend/products?in_stock=1&per_page=48", { headers })).body.data as {
    id: number;
    stock: number;
    /** Several: a product whose variants are chosen on its page (this fixture takes one of one). */
    variant_count?: number;
  }[];
  const stocked = list.filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 5);
  const product = stocked[Math.floor(Math.random() * stocked.length)]!;
  const added = await api("/backend/cart/add-product", {
    method: "POST",
    headers,
    body: { product_id: product.id, quantity: 1 },
  });
  expect(added.status).toBe(200);
  const placed = await api("/backend/checkout", {
    method: "POST",
    headers,
    body: {
      idempotency_key: crypto.randomUUID(),
      email,
      address: { name: "Noura Buyer", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
      shipping_method: "standard",
      payment_method: "card",
    },
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  return String(placed.body.data.number);
}

/** Pays the order on the sandbox's card page (a script, as the card page needs no shop tab). */
async function pay(locale: Locale, identity: Record<string, string>, number: string): Promise<void> {
  const ip = visitorIp();
  const api = jsonApi(base, { "cf-connecting-ip": ip });
  const started = await api(`/backend/payments/${number}/start`, {
    method: "POST",
    headers: { ...identity, "content-language": locale },
    body: { return_url: `/${locale}/payment-status` },
  });
  expect(started.status).toBe(200);
  const paid = await fetch(`${base}${started.body.data.redirect_url}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base, "cf-connecting-ip": ip },
    body: new URLSearchParams({
      card_number: "4242 4242 4242 4242",
      expiry: "12/39",
      cvc: "123",
      name: "Noura Buyer",
      action: "pay",
    }).toString(),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
}

/** The first link to the shop in the `purpose` message the development outbox holds for `email`. */
async function linkFromMessage(email: string, purpose: string, path: RegExp): Promise<string> {
  type Sent = { purpose: string; text?: string };
  const sent = async () =>
    ((await (await fetch(`${base}/backend/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { data: Sent[] })
      .data;
  await expect
    .poll(async () => (await sent()).some((m) => m.purpose === purpose), { timeout: 15_000, interval: 300 })
    .toBe(true);
  const text = (await sent()).find((m) => m.purpose === purpose)!.text ?? "";
  const link = (text.match(/https?:\/\/\S+/g) ?? []).find((url) => path.test(new URL(url).pathname));
  expect(link, text).toBeDefined();
  return link!;
}

async function signIn(page: Page, email: string) {
  await hydrated(page, "form.auth-form button[type=submit]");
  await page.locator("input[name=email]").fill(email);
  await page.locator("input[name=password]").fill(PASSWORD);
  await page.locator("form.auth-form button[type=submit]").click();
}

for (const locale of journeyLocales("en")) {
  const t = (key: string, params?: Record<string, string>) => say(locale, key, params);

  describe(`order links from messages (${locale})`, () => {
    it("a guest opens the paid message's invoice link in a fresh browser, goes to the order and cancels it; a spoiled link leads through tracking", async () => {
      const ip = { "cf-connecting-ip": visitorIp() };
      const { guestId } = (await (await fetch(`${base}/api/cart/generate-guest-id`, { headers: ip })).json()) as {
        guestId: string;
      };
      const email = `links-guest-${locale}-${Date.now().toString(36)}@example.com`;
      const number = await placeOrder(locale, { "guest-id": guestId }, email);
      await pay(locale, { "guest-id": guestId }, number);
      const link = await linkFromMessage(email, "order.paid", /\/invoice$/);
      expect(link).toContain(`/${locale}/order/${number}/invoice#access=`);

      // A fresh browser: no guest id, no session, nothing of the tab that placed the order.
      const { context, page, errors } = await newPage(browser);
      await page.goto(link);
      await page.locator(".tax-doc").waitFor();
      expect(await page.locator(".tax-doc").textContent()).toContain(number);
      expect(await page.locator("html").getAttribute("dir")).toBe(locale === "ar" ? "rtl" : "ltr");
      // The link's token left the address as soon as it was read.
      expect(page.url()).toBe(`${base}/${locale}/order/${number}/invoice`);
      await fullPageScreenshot(page, `${SCREENSHOTS}/order-link-invoice-${locale}.png`);

      await hydrated(page, ".tax-doc__actions a");
      await page.getByRole("link", { name: t("invoice.backToOrder") }).click();
      await page.waitForURL(`${base}/${locale}/order/checkout/status?order=${number}`);
      await hydrated(page, ".self-service button");
      await page.getByRole("button", { name: t("orders.selfService.cancel"), exact: true }).click();
      await page
        .locator("dialog[open]")
        .getByRole("button", { name: t("orders.selfService.cancelConfirm") })
        .click();
      await expect
        .poll(() => page.locator(".order-details__head").textContent(), { timeout: 15_000 })
        .toContain(t("orders.statuses.cancelled"));
      await fullPageScreenshot(page, `${SCREENSHOTS}/order-link-cancelled-${locale}.png`);
      expect(errors).toEqual([]);
      await context.close();

      // A spoiled link (one character changed) shows no order, says so in the shopper's language
      // and offers tracking, which leads to the order's page with its self-service.
      const spoiled = link.replace(/.$/, (c) => (c === "0" ? "1" : "0"));
      const other = await newPage(browser);
      await other.page.goto(spoiled);
      const refused = other.page.locator(".order-link-refused");
      await refused.waitFor();
      expect(await refused.textContent()).toContain(t("orderLink.refused"));
      expect(await other.page.locator(".tax-doc").count()).toBe(0);
      await expectAxeClean(other.page, `refused order link (${locale})`);
      await fullPageScreenshot(other.page, `${SCREENSHOTS}/order-link-refused-${locale}.png`);
      const track = refused.getByRole("link", { name: t("orderLink.trackOrder") });
      expect(await track.getAttribute("href")).toBe(`/${locale}/track-order?order=${number}`);
      await other.page.goto(`${base}/${locale}/track-order?order=${number}`);
      await hydrated(other.page, ".track-form button[type=submit]");
      expect(await other.page.locator("#track-number").inputValue()).toBe(number);
      await other.page.locator("#track-contact").fill(email);
      await other.page.locator(".track-form button[type=submit]").click();
      await expect
        .poll(() => other.page.locator(".track-result").textContent(), { timeout: 20_000 })
        .toContain(t("orderLink.manageHint"));
      const manage = other.page.getByRole("link", { name: t("orderLink.manage") });
      await fullPageScreenshot(other.page, `${SCREENSHOTS}/order-link-tracked-${locale}.png`);
      await manage.click();
      await other.page.waitForURL(`${base}/${locale}/order/checkout/status?order=${number}`);
      // The owner's view: the refund of the cancel and the invoice, which tracking does not show.
      await other.page.locator("[data-testid=refunds]").waitFor();
      expect(await other.page.locator(".order-documents").textContent()).toContain("INV-");
      // The 403 of the spoiled link is logged by the browser as a failed load; nothing else.
      expect(other.errors.filter((e) => !/status of 403/.test(e))).toEqual([]);
      await other.context.close();
    }, 120_000);

    it("an account holder's order link opens in a new tab once signed in, and signed out it asks for sign-in and comes back", async () => {
      const email = `links-account-${locale}-${Date.now().toString(36)}@example.com`;
      const registered = await jsonApi(base, { "cf-connecting-ip": visitorIp() })("/backend/client/auth/register", {
        method: "POST",
        headers: { "content-language": locale },
        body: {
          name: "Huda Saleh",
          email,
          phone: `+96650${String(Date.now()).slice(-7)}`,
          password: PASSWORD,
          password_confirmation: PASSWORD,
        },
      });
      expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300);
      const token = registered.body.data.auth_data.access_token as string;
      const number = await placeOrder(locale, { authorization: `Bearer ${token}` }, email);
      const link = await linkFromMessage(email, "order.placed", /\/order\/checkout\/status$/);
      expect(link).not.toContain("#access=");
      const orderPage = `${base}/${locale}/order/checkout/status?order=${number}`;

      // Signed in in this browser, then the link in a new tab.
      const signedIn = await newPage(browser);
      await signedIn.page.goto(`${base}/${locale}/auth/login`);
      await signIn(signedIn.page, email);
      await signedIn.page.waitForURL(`${base}/${locale}/profile`);
      const tab = await signedIn.context.newPage();
      await tab.goto(link);
      await tab.locator(".order-details").waitFor();
      expect(tab.url()).toBe(orderPage);
      expect(await tab.locator(".order-details__title").textContent()).toContain(number);
      await tab.locator(".self-service").waitFor();
      await signedIn.context.close();

      // Signed out: sign-in first, then back to the link's page.
      const signedOut = await newPage(browser);
      await signedOut.page.goto(link);
      await signedOut.page.waitForURL((url) => url.pathname === `/${locale}/auth/login`);
      expect(new URL(signedOut.page.url()).searchParams.get("redirect")).toBe(
        `/${locale}/order/checkout/status?order=${number}`,
      );
      await signIn(signedOut.page, email);
      await signedOut.page.waitForURL(orderPage);
      await signedOut.page.locator(".order-details").waitFor();
      expect(await signedOut.page.locator(".order-details__title").textContent()).toContain(number);
      await fullPageScreenshot(signedOut.page, `${SCREENSHOTS}/order-link-account-${locale}.png`);
      // The signed-out read's 401 is logged by the browser as a failed load; nothing else.
      expect(signedOut.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
      await signedOut.context.close();
    }, 120_000);
  });
}
