import { mkdirSync, writeFileSync } from "node:fs";
import { say } from "../support/messages.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import { expectAxeClean } from "../support/axe.ts";
import { hydrated, journeyLocales, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { visitorIp, backendJson, builtWorker, NATIONAL_DELIVERY } from "../support/http.ts";

/**
 * The tax invoice in Chromium, in both languages: a guest pays an order with the sandbox's card
 * page, follows "Tax invoice" from the order page, and the invoice shows its number, the seller's
 * VAT number and the totals; its QR code, read back from a screenshot, is the document's payload;
 * printed to PDF it is exactly one A4 page. A refund in the console then brings a credit note, linked,
 * read and printed the same way.
 */
const base = builtWorker().url;
// jsqr is CommonJS: Node hands its `module.exports` (the function) as the default import, where
// its types describe an ES module whose default is the function.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;
let browser: Browser;

/** Each test's own staff account, by its label. */
let accounts: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  accounts = await newStaffAccounts(
    base,
    Object.fromEntries(LOCALES.flatMap((l) => [[`invoice-${l}`, "manager"] as const])),
  );
});
afterAll(async () => {
  await browser?.close();
});

const api = (path: string, headers: Record<string, string>, body?: unknown) => backendJson(base, path, headers, body);

/** A guest's order of two products through the real cart and checkout, started for payment. */
async function guestOrder(locale: string) {
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
  const products = list.filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 5);
  for (const product of [products.at(locale === "ar" ? -1 : 0)!, products.at(locale === "ar" ? -2 : 1)!])
    await api("/backend/cart/add-product", guest, { product_id: product.id, quantity: 1 });
  const order = (
    await api("/backend/checkout", guest, {
      idempotency_key: crypto.randomUUID(),
      email: `invoice-buyer-${locale}-${Date.now()}@example.com`,
      address: NATIONAL_DELIVERY,
      shipping_method: "standard",
      payment_method: "card",
    })
  ).data;
  const started = (
    await api(`/backend/payments/${order.number}/start`, guest, { return_url: `/${locale}/payment-status` })
  ).data;
  return { guestId, guest, number: String(order.number), payUrl: `${base}${started.redirect_url}` };
}

/** Decodes ZATCA's base64 TLV payload into its five fields. */
function tlv(base64: string): Record<number, string> {
  const raw = Buffer.from(base64, "base64");
  const fields: Record<number, string> = {};
  for (let i = 0; i + 2 <= raw.length; i += 2 + raw[i + 1])
    fields[raw[i]] = raw.subarray(i + 2, i + 2 + raw[i + 1]).toString("utf8");
  return fields;
}

/** Reads the drawn QR code back from a screenshot of it (jsQR), so the test sees what a phone sees. */
async function readQr(page: Page) {
  // Drawn larger for the reader (what is drawn does not change, only its scale), with white around it.
  const qr = page.locator(".tax-doc__qr");
  await qr.evaluate((el: SVGElement) => el.setAttribute("style", "inline-size: 400px; block-size: 400px"));
  const box = (await qr.boundingBox())!;
  const clip = { x: box.x - 20, y: box.y - 20, width: box.width + 40, height: box.height + 40 };
  const shot = PNG.sync.read(await page.screenshot({ clip }));
  await qr.evaluate((el: SVGElement) => el.removeAttribute("style"));
  return jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height);
}

/** Prints the page to A4 and expects exactly one page (page objects, not the /Pages tree node). */
async function printsOnOnePage(page: Page, path: string) {
  const pdf = await page.pdf({ format: "A4", printBackground: true });
  writeFileSync(path, pdf);
  expect(pdf.toString("latin1").match(/\/Type\s*\/Page(?![s\w])/g)?.length).toBe(1);
}

for (const locale of journeyLocales("ar")) {
  const t = (key: string, params?: Record<string, string>) => say(locale, key, params);
  describe(`the tax invoice (${locale})`, () => {
    it("a shopper pays, opens the tax invoice from the order page and prints it on one A4 page, and a refund brings a credit note the same way", async () => {
      const order = await guestOrder(locale);
      const { context, page, errors } = await newPage(browser);
      await context.addInitScript((id) => sessionStorage.setItem("guestId", id), order.guestId);
      await page.goto(order.payUrl);
      await page.fill("#card-number", "4242 4242 4242 4242");
      await page.fill("#card-expiry", "12/39");
      await page.fill("#card-cvc", "123");
      await Promise.all([page.waitForURL(/payment-status/), page.click("button[value=pay]")]);
      // The sandbox's bare card page has no icon (the browser's /favicon.ico is a 404): the shop's pages start here.
      errors.length = 0;

      const invoice = (await api(`/backend/orders/${order.number}/invoice`, order.guest)).data as unknown as {
        number: string;
        issued_at: string;
        total: number;
        vat: number;
        qr: string;
        seller: { vat_number: string; name_ar: string };
      };
      expect(invoice.number).toMatch(/^INV-\d{6}$/);

      // From the order page, through its link.
      await page.goto(`${base}/${locale}/order/checkout/status?order=${order.number}`);
      const link = page.getByRole("link", { name: t("invoice.invoiceLink", { number: invoice.number }) });
      await hydrated(page, ".order-documents a");
      await link.click();
      await page.waitForURL(`${base}/${locale}/order/${order.number}/invoice`);
      await page.locator(".tax-doc").waitFor();
      expect(await page.locator("html").getAttribute("dir")).toBe(locale === "ar" ? "rtl" : "ltr");
      const text = (await page.locator(".tax-doc").textContent()) ?? "";
      expect(await page.getByTestId("document-number").textContent()).toBe(invoice.number);
      expect(text).toContain(invoice.seller.vat_number);
      expect(text).toContain(t("invoice.title"));
      expect(text).toContain(t("invoice.total"));
      expect(text).toContain(order.number);
      // The buyer as delivered to: the national short address, in the reader's words.
      expect(text).toContain(t("address.shortAddressIs", { code: "RAQA4821" }));
      expect(text).toContain("RAQA4821");
      expect(await page.getByRole("button", { name: t("invoice.print") }).isVisible()).toBe(true);
      await expectAxeClean(page, `invoice (${locale})`);

      // What is drawn is the payload: read the QR back from a screenshot of it.
      const read = await readQr(page);
      expect(read?.data).toBe(invoice.qr);
      expect(tlv(read!.data)).toEqual({
        1: invoice.seller.name_ar,
        2: invoice.seller.vat_number,
        3: invoice.issued_at,
        4: (invoice.total / 100).toFixed(2),
        5: (invoice.vat / 100).toFixed(2),
      });

      await page.screenshot({ path: `${SCREENSHOTS}/invoice-screen-${locale}.png`, fullPage: true });
      await page.emulateMedia({ media: "print" });
      await page.screenshot({ path: `${SCREENSHOTS}/invoice-print-${locale}.png`, fullPage: true });
      expect(await page.locator(".site-header").isVisible()).toBe(false);
      expect(await page.getByRole("button", { name: t("invoice.print") }).isVisible()).toBe(false);
      await printsOnOnePage(page, `${SCREENSHOTS}/invoice-${locale}.pdf`);
      await page.emulateMedia({ media: "screen" });

      // A phone shows it too.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${SCREENSHOTS}/invoice-phone-${locale}.png`, fullPage: true });
      // Nothing sticks out sideways: the lines scroll in their own region.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectAxeClean(page, `invoice on a phone (${locale})`);

      // Another visitor (a guest of their own) gets no invoice; one without any identity is asked to sign in.
      const stranger = await newPage(browser);
      const { guestId: otherGuest } = (await (
        await fetch(`${base}/api/cart/generate-guest-id`, { headers: { "cf-connecting-ip": visitorIp() } })
      ).json()) as { guestId: string };
      await stranger.context.addInitScript((id) => sessionStorage.setItem("guestId", id), otherGuest);
      await stranger.page.goto(`${base}/${locale}/order/${order.number}/invoice`);
      // The backend answers a stranger as for an unknown order, 404, which redirects to /error (spec §8).
      await stranger.page.waitForURL((url) => url.pathname.endsWith("/error"), { timeout: 15_000 });
      expect(await stranger.page.locator(".error-screen__status").textContent()).toBe("404");
      await stranger.context.close();

      // A refund of 11.50 SAR in the console: a credit note, linked from the order page.
      const manager = accounts[`invoice-${locale}`];
      const staff = await newPage(browser);
      await openConsole(staff.page, base, locale, manager);
      await staff.page.goto(`${base}/${locale}/admin/orders/${order.number}`);
      await hydrated(staff.page, ".console-actions button");
      await staff.page
        .locator(".console-actions")
        .getByRole("button", { name: t("console.orders.actions.refund") })
        .click();
      await staff.page.locator("dialog[open] #refund-amount").fill("11.50");
      await staff.page
        .locator("dialog[open]")
        .getByRole("button", { name: t("console.orders.refundSubmit") })
        .click();
      await expect.poll(() => staff.page.locator("dialog[open]").count()).toBe(2);
      await staff.page
        .locator("dialog[open]")
        .last()
        .getByRole("button", { name: t("console.orders.refundSubmit") })
        .click();
      await expect.poll(() => staff.page.locator("dialog[open]").count()).toBe(0);
      await staff.context.close();

      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${base}/${locale}/order/checkout/status?order=${order.number}`);
      await hydrated(page, ".order-documents a");
      const noteLink = page.locator(".order-documents a").nth(1);
      const noteNumber = /CN-\d{6}/.exec((await noteLink.textContent()) ?? "")?.[0];
      expect(noteNumber).toBeTruthy();
      await noteLink.click();
      await page.waitForURL(new RegExp(`/${locale}/order/${order.number}/credit-note/\\d+$`));
      await page.locator(".tax-doc").waitFor();
      expect(await page.getByTestId("document-number").textContent()).toBe(noteNumber);
      const note = (await page.locator(".tax-doc").textContent()) ?? "";
      expect(note).toContain(t("invoice.creditNoteTitle"));
      expect(note).toContain(invoice.number);
      const noteQr = tlv((await readQr(page))!.data);
      expect(noteQr).toMatchObject({ 1: invoice.seller.name_ar, 2: invoice.seller.vat_number, 4: "11.50", 5: "1.50" });
      expect(await page.locator(".tax-doc time").getAttribute("datetime")).toBe(noteQr[3]);
      await expectAxeClean(page, `credit note (${locale})`);
      await page.emulateMedia({ media: "print" });
      await page.screenshot({ path: `${SCREENSHOTS}/credit-note-print-${locale}.png`, fullPage: true });
      await printsOnOnePage(page, `${SCREENSHOTS}/credit-note-${locale}.pdf`);

      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
