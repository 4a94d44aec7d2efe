import { mkdirSync, writeFileSync } from "node:fs";
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
import { backendJson, builtWorker, buyThroughCheckout, NATIONAL_DELIVERY, visitorIp } from "../support/http.ts";

/**
 * Documents, per-line refunds and notes in the console, in Chromium and both languages: a manager
 * refunds one unit of a line and puts it back in stock (the stock shows it), opens the packing
 * slip and prints it on one A4 page, and adds an internal note to the order.
 */
const base = builtWorker().url;
let browser: Browser;
let accounts: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  accounts = await newStaffAccounts(
    base,
    Object.fromEntries(
      LOCALES.flatMap((l) => [[`docs-${l}-manager`, "manager"] as const, [`docs-${l}-slip`, "manager"] as const]),
    ),
  );
});
afterAll(async () => {
  await browser?.close();
});

const api = (path: string, headers: Record<string, string>, body?: unknown) => backendJson(base, path, headers, body);

/** A guest's paid order of two units of one product, through the real cart, checkout and sandbox card page. */
async function paidGuestOrder(locale: "en" | "ar") {
  const list = (await api("/backend/products?in_stock=1&per_page=48", {})).data as unknown as {
    id: number;
    stock: number;
    /** Several: a product whose variants are chosen on its page (these fixtures take one of one). */
    variant_count?: number;
  }[];
  const product = list.filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 6).at(locale === "ar" ? -2 : 1)!;
  const order = await buyThroughCheckout(base, product.id, 2, visitorIp(), {
    locale,
    email: `docs-buyer-${locale}-${Date.now()}@example.com`,
    address: NATIONAL_DELIVERY,
  });
  await order.pay();
  return { number: order.number, productId: product.id };
}

/** The product's stock as the console's API reads it, with the page's staff session. */
const stockOf = (page: Page, id: number) =>
  page.evaluate(async (productId) => {
    const res = await fetch(`/backend/admin/products/${productId}`, {
      headers: { accept: "application/json", authorization: `Bearer ${sessionStorage.getItem("token") ?? ""}` },
    });
    return ((await res.json()) as { data: { stock: number } }).data.stock;
  }, id);

/** Prints the page to A4 and expects exactly one page (as test/e2e/invoice.e2e.ts does for tax documents). */
async function printsOnOnePage(page: Page, path: string) {
  await page.emulateMedia({ media: "print" });
  const pdf = await page.pdf({ format: "A4", printBackground: true });
  writeFileSync(path, pdf);
  expect(pdf.toString("latin1").match(/\/Type\s*\/Page(?![s\w])/g)?.length).toBe(1);
  await page.emulateMedia({ media: "screen" });
}

for (const locale of journeyLocales("ar")) {
  const t = (key: string, params?: Record<string, string>) => say(locale, key, params);
  describe(`documents, line refunds and notes in the console (${locale})`, () => {
    // One order for both steps (the second makes its own if the first did not get that far).
    let order: Awaited<ReturnType<typeof paidGuestOrder>> | undefined;

    it("a manager refunds one unit of a line, puts it back in stock and sees the stock back", async () => {
      order = await paidGuestOrder(locale);
      const { page } = await newPage(browser);
      await openConsole(page, base, locale, accounts[`docs-${locale}-manager`]);
      const stockBefore = await stockOf(page, order.productId);

      await page.goto(`${base}/${locale}/admin/orders/${order.number}`);
      await hydrated(page, ".console-actions button");

      // Refund one of the two units, back in stock: the dialog shows the exact amount it will pay.
      await page
        .locator(".console-actions")
        .getByRole("button", { name: t("console.orders.actions.refund") })
        .click();
      const dialog = page.locator("dialog[open]");
      // The order's one line (its field is named by the line's variant).
      await dialog.locator('input[id^="refund-units-"]').fill("1");
      await dialog.getByLabel(t("console.refundLines.restock")).check();
      await expect.poll(() => dialog.locator("[data-refund-total]").count()).toBe(1);
      const total = (await dialog.locator("[data-refund-total]").textContent()) ?? "";
      await noSeriousViolations(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-refund-lines-${locale}.png`);
      await dialog.getByRole("button", { name: t("console.orders.refundSubmit") }).click();
      await expect.poll(() => page.locator("dialog[open]").count()).toBe(2);
      const confirm = page.locator("dialog[open]").last();
      // The confirmation names the same amount, the line and the restock.
      const amount = total.split(/:\s*/).at(-1)!.trim();
      expect(await confirm.textContent()).toContain(amount);
      expect(await confirm.textContent()).toContain(t("console.refundLines.restockYes"));
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-refund-lines-confirm-${locale}.png`);
      await confirm.getByRole("button", { name: t("console.orders.refundSubmit") }).click();
      await toastSays(page, t("console.orders.refundDone"));
      await expect.poll(() => stockOf(page, order!.productId)).toBe(stockBefore + 1);
      // The refund's credit note is linked from the order, with the invoice and the packing slip.
      await expect.poll(() => page.locator("[data-order-documents]").getByRole("link").count()).toBe(3);
    });

    it("a manager prints the packing slip on one A4 page and adds an internal note to the order", async () => {
      order ??= await paidGuestOrder(locale);
      const { page } = await newPage(browser);
      await openConsole(page, base, locale, accounts[`docs-${locale}-slip`]);
      await page.goto(`${base}/${locale}/admin/orders/${order.number}/packing-slip`);
      await hydrated(page, "[data-packing-slip] button");
      const slip = page.locator("[data-packing-slip]");
      expect(await slip.textContent()).toContain(order.number);
      expect(await slip.textContent()).toContain("Tahlia");
      // What the carrier's driver finds the door by: the national address's codes, in the reader's words.
      expect(await slip.locator(".national-address").textContent()).toBe(
        `${say(locale, "address.shortAddressIs", { code: "RAQA4821" })} · ${say(locale, "address.additionalNumberIs", { number: "7023" })}`,
      );
      // No prices on a packing slip.
      expect(await slip.textContent()).not.toMatch(/SAR|ر\.س/);
      await noSeriousViolations(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-packing-slip-${locale}.png`);
      await printsOnOnePage(page, `${SCREENSHOTS}/packing-slip-${locale}.pdf`);

      await page.getByRole("link", { name: t("invoice.backToOrder") }).click();
      await page.waitForURL(`${base}/${locale}/admin/orders/${order.number}`);
      await hydrated(page, "[data-staff-notes] button");
      const notes = page.locator("[data-staff-notes]");
      await notes
        .getByLabel(t("console.staffNotes.label"))
        .fill(locale === "ar" ? "اتصلت العميلة: تسليم مساءً" : "Customer called: deliver in the evening");
      await notes.getByRole("button", { name: t("console.staffNotes.add") }).click();
      await toastSays(page, t("console.staffNotes.added"));
      await expect.poll(() => notes.locator("li").count()).toBe(1);
      expect(await notes.locator("li").textContent()).toContain(accounts[`docs-${locale}-slip`]);
      await noSeriousViolations(page);
    });
  });
}

async function noSeriousViolations(page: Page) {
  expect(JSON.stringify(await seriousViolations(page))).toEqual("[]");
}
