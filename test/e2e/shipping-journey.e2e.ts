import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAxeClean, seriousViolations } from "../support/axe.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyLocales,
  launchBrowser,
  LOCALES,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import { fillNewAddress, msg, payWithCard } from "../support/checkout-browser.ts";
import { consoleHttpSession, newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { builtWorker } from "../support/http.ts";
import { readCode128, readPage } from "../support/pdf-reader.ts";
import mailEn from "../../worker/backend/messages/en.json" with { type: "json" };
import mailAr from "../../worker/backend/messages/ar.json" with { type: "json" };

/**
 * Delivered by the carrier, in Chromium, in the shopper's language: a shopper pays an order; a
 * manager creates its parcel on the order's page and prints its label (one page, whose barcode
 * reads back as the waybill); the local courier's app reports each step through the signed
 * webhook (the development stand-in); the order moves to delivered by itself, the shopper's order
 * page shows every step in their language, and the messages that matter reach them in it.
 */
const base = builtWorker().url;
const MAIL = { en: mailEn, ar: mailAr } as const;

let browser: Browser;
let accounts: Record<string, string>;
let products: { slug: string }[] = [];

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  // A seat per locale: a console code goes out once a minute per seat.
  accounts = await newStaffAccounts(
    base,
    Object.fromEntries(
      LOCALES.flatMap((l) => [[`carrier-${l}`, "manager"] as const, [`missed-${l}`, "manager"] as const]),
    ),
  );
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=48&sort=price_asc`, {
    headers: { "content-language": "en" },
  });
  products = ((await res.json()) as { data: { slug: string; stock: number; variant_count?: number }[] }).data.filter(
    (p) => (p.variant_count ?? 1) === 1 && p.stock >= 5,
  );
  expect(products.length).toBeGreaterThanOrEqual(2);
});
afterAll(async () => {
  await browser?.close();
});

/** The courier's app reports a step (the development stand-in signs it and sends it through the webhook's check). */
async function courier(waybill: string, status: string) {
  const res = await fetch(`${base}/backend/dev/courier`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ waybill, status, location: "Riyadh hub" }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** What the development outbox sent to an address: each message's purpose, language and subject. */
async function inbox(to: string) {
  const res = await fetch(`${base}/backend/dev/outbox?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as { data: { purpose: string; lang: string; subject: string }[] }).data;
}

describe("a parcel delivered by the carrier", () => {
  for (const [index, locale] of LOCALES.entries()) {
    if (!journeyLocales("ar").includes(locale)) continue;
    it(
      `(${locale}) staff create the parcel and print its label; the courier's steps deliver it; the shopper follows each`,
      { timeout: 180_000 },
      async () => {
        // The shopper pays an order with the sandbox's success card.
        const shopper = await newPage(browser, { viewport: { width: 390, height: 900 } });
        const page = shopper.page;
        const email = `parcel-${locale}-${Date.now()}@example.com`;
        await page.goto(`${base}/${locale}/product-details/${products[index]!.slug}`);
        await hydrated(page, ".add-to-cart__button");
        await page.locator(".add-to-cart__button").click();
        await eventually(() => page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
        await page.goto(`${base}/${locale}/checkout`);
        await eventually(() => page.locator('input[name="payment_method"]').count()).toBeGreaterThan(0);
        await fillNewAddress(page, locale, { email, name: "Noura" });
        await page.locator(".checkout__submit").click();
        await payWithCard(page, "4242 4242 4242 4242");
        await page.waitForURL(new RegExp(`/${locale}/payment-status\\?`));
        await eventually(() => page.locator(".payment-result--paid").count()).toBe(1);
        const number = new URL(page.url()).searchParams.get("order")!;
        expect(number).toMatch(/^SQ-/);

        // A manager creates its parcel from the order's page, and prints its label.
        const staff = await newPage(browser);
        const console = staff.page;
        await openConsole(console, base, locale, accounts[`carrier-${locale}`]!);
        await console.goto(`${base}/${locale}/admin/orders/${number}`);
        await hydrated(console, "[data-parcels] form button[type=submit]");
        const panel = console.locator("[data-parcels]");
        await panel.getByRole("button", { name: msg(locale, "console.parcels.create") }).click();
        await eventually(() => panel.locator("[data-parcel]").count()).toBe(1);
        const waybill = ((await panel.locator("[data-parcel] [data-waybill]").first().textContent()) ?? "").trim();
        expect(waybill).toMatch(/^SQC\d{10}$/);
        expect(await seriousViolations(console)).toEqual([]);
        await fullPageScreenshot(console, `${SCREENSHOTS}/parcel-console-${locale}.png`);

        // The label link opens the PDF with the staff session: one page, its barcode the waybill.
        const link = panel.getByRole("link", { name: msg(locale, "console.parcels.printLabel") }).first();
        const href = (await link.getAttribute("href")) ?? "";
        const label = await console.request.get(new URL(href, base).toString());
        expect(label.status()).toBe(200);
        expect(label.headers()["content-type"]).toBe("application/pdf");
        const doc = await PDFDocument.load(await label.body());
        expect(doc.getPageCount()).toBe(1);
        expect(readCode128(readPage(doc, doc.getPage(0))).text).toBe(waybill);

        // The courier's app reports each step; the last one delivers the order by itself.
        for (const step of ["picked_up", "in_transit", "out_for_delivery", "delivered"]) await courier(waybill, step);
        await console.reload();
        await hydrated(console, "[data-parcels]");
        await eventually(() => console.locator("[data-parcel]").first().textContent()).toContain(
          msg(locale, "orders.parcels.status.delivered"),
        );
        expect(staff.errors).toEqual([]);
        await staff.context.close();

        // The shopper's order page: delivered, and each step of the parcel in their language.
        await page.goto(`${base}/${locale}/order/checkout/status?order=${number}`);
        await hydrated(page, ".parcels");
        const parcel = page.locator(`.parcel[data-waybill="${waybill}"]`);
        await eventually(() => parcel.locator(".parcel__step").count()).toBe(4);
        const steps = await parcel.locator(".parcel__step-name").allTextContents();
        expect(steps).toEqual(
          ["picked_up", "in_transit", "out_for_delivery", "delivered"].map((s) =>
            msg(locale, `orders.parcels.status.${s}`),
          ),
        );
        expect(await page.locator(".order-details__head").textContent()).toContain(
          msg(locale, "orders.statuses.delivered"),
        );
        await expectAxeClean(page);
        await fullPageScreenshot(page, `${SCREENSHOTS}/parcel-delivered-${locale}.png`);

        // The messages that matter reached them, in the language they ordered in.
        const subject = (kind: "shipped" | "out_for_delivery" | "delivered") =>
          MAIL[locale].mail.order[kind].subject.replace("{{number}}", number);
        await eventually(async () => (await inbox(email)).map((m) => m.subject)).toEqual(
          expect.arrayContaining([subject("shipped"), subject("out_for_delivery"), subject("delivered")]),
        );
        expect(new Set((await inbox(email)).map((m) => m.lang))).toEqual(new Set([locale]));
        expect(shopper.errors).toEqual([]);
        await shopper.context.close();
      },
    );
  }
});

describe("a missed delivery", () => {
  for (const locale of journeyLocales("en")) {
    it(
      `(${locale}) the shopper is told on the order page and chooses the day the courier comes again`,
      { timeout: 120_000 },
      async () => {
        const shopper = await newPage(browser, { viewport: { width: 390, height: 900 } });
        const page = shopper.page;
        const email = `missed-${locale}-${Date.now()}@example.com`;
        await page.goto(`${base}/${locale}/product-details/${products[1]!.slug}`);
        await hydrated(page, ".add-to-cart__button");
        await page.locator(".add-to-cart__button").click();
        await eventually(() => page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
        await page.goto(`${base}/${locale}/checkout`);
        await eventually(() => page.locator('input[name="payment_method"]').count()).toBeGreaterThan(0);
        await fillNewAddress(page, locale, { email, name: "Sara" });
        await page.locator(".checkout__submit").click();
        await payWithCard(page, "4242 4242 4242 4242");
        await page.waitForURL(new RegExp(`/${locale}/payment-status\\?`));
        const number = new URL(page.url()).searchParams.get("order")!;

        // Staff ship it over HTTP (the console's part is the journey above); the courier misses the shopper.
        const { token } = await consoleHttpSession(base, accounts[`missed-${locale}`]!);
        const made = await fetch(`${base}/backend/admin/orders/${number}/shipments`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", origin: base },
          body: "{}",
        });
        expect(made.status).toBe(200);
        const waybill = ((await made.json()) as { data: { shipments: { waybill: string }[] } }).data.shipments[0]!
          .waybill;
        for (const step of ["picked_up", "out_for_delivery", "delivery_attempted"]) await courier(waybill, step);

        await page.goto(`${base}/${locale}/order/checkout/status?order=${number}`);
        await hydrated(page, ".parcel__attempt button");
        const form = page.locator(".parcel__attempt");
        expect(await form.textContent()).toContain(msg(locale, "orders.parcels.missed"));
        const day = page.getByLabel(msg(locale, "orders.parcels.day"));
        const options = await day.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
        expect(options).toHaveLength(5);
        await expectAxeClean(page);
        await fullPageScreenshot(page, `${SCREENSHOTS}/parcel-missed-${locale}.png`);
        await day.selectOption(options[1]!);
        await page.getByRole("button", { name: msg(locale, "orders.parcels.choose") }).click();
        await eventually(() => page.locator(".parcel .notice").count()).toBe(1);
        expect(await page.locator(".parcel .notice").textContent()).toContain(
          msg(locale, "orders.parcels.nextAttempt", { day: "" }).trim(),
        );
        expect(await page.locator(".parcel__attempt").count()).toBe(0);

        // The message with the link reached them in their language.
        const subject = MAIL[locale].mail.order.delivery_attempted.subject.replace("{{number}}", number);
        await eventually(async () => (await inbox(email)).map((m) => m.subject)).toContain(subject);
        expect(shopper.errors).toEqual([]);
        await shopper.context.close();
      },
    );
  }
});
