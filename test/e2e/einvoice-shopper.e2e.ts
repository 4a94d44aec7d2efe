import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Download, Page } from "playwright-core";
import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  type PDFString,
  type PDFHexString,
  decodePDFRawStream,
} from "pdf-lib";
import { expectAxeClean } from "../support/axe.ts";
import { hydrated, journeyLocales, launchBrowser, newPage, SCREENSHOTS } from "../support/browser.ts";
import { fillNewAddress, msg, payWithCard } from "../support/checkout-browser.ts";
import { consoleHttpSession, newStaffAccounts } from "../support/console-browser.ts";
import { validateUbl } from "../support/ubl-schema.ts";
import {
  backendJson,
  buyThroughCheckout,
  NATIONAL_DELIVERY,
  startExtraWorker,
  TEST_VARS,
  visitorIp,
} from "../support/http.ts";

/**
 * ZATCA phase 2 from the shopper's side, in Chromium and both languages: a business buyer asks
 * for a tax invoice in their company's name at checkout (a wrong VAT number is refused on its
 * field, a right one places the order), and once the shop's unit is onboarded each paid order's
 * invoice is stamped: its page names it by kind, shows its UUID and a QR code with ZATCA's tags 1
 * to 9, read back from a screenshot, and hands over the signed XML and the PDF that carries it.
 */
// A shop of its own: onboarding is shop-wide and stays, and the other journeys on the run's worker
// expect phase-1 documents.
let base = "";
let shop: Awaited<ReturnType<typeof startExtraWorker>> | undefined;
// jsqr is CommonJS: Node hands its `module.exports` (the function) as the default import.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;
let browser: Browser;

interface Product {
  id: number;
  slug: string;
  stock: number;
  variant_count?: number;
}
let products: Product[] = [];

interface Invoice {
  number: string;
  total: number;
  vat: number;
  qr: string;
  transaction: "simplified" | "standard";
  seller: { vat_number: string; name_ar: string };
  buyer: { company?: string | null; vat_number?: string | null };
  einvoice: { uuid: string; icv: number; status: string } | null;
}

const COMPANY = "Acme Trading Co.";
const VAT_NUMBER = "310123456700003";

beforeAll(async () => {
  shop = await startExtraWorker(TEST_VARS, { database: "seeded" });
  base = shop.worker.url;
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=48&sort=price_asc`, {
    headers: { "content-language": "en" },
  });
  products = ((await res.json()) as { data: Product[] }).data.filter(
    (p) => (p.variant_count ?? 1) === 1 && p.stock >= 5,
  );
  expect(products.length).toBeGreaterThanOrEqual(4);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  shop?.stop();
});

/**
 * The shop's e-invoicing unit, onboarded by its owner through the console's API (ZATCA's
 * development stand-in takes the portal's test code): every document from here on is stamped.
 */
async function onboardTheShop() {
  const { owner } = await newStaffAccounts(base, { owner: "owner" }, shop!.persistDir);
  const { token } = await consoleHttpSession(base, owner);
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${base}/backend/admin/einvoicing${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json",
        origin: base,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(answer.status, `${method} ${path}: ${await answer.clone().text()}`).toBe(200);
  };
  await call("PUT", "/registration", {
    crn: "1010010000",
    branch: "Riyadh Online Store",
    industry: "Retail",
    address: {
      street: "Tahlia",
      building_number: "1234",
      additional_number: "5678",
      district: "Olaya",
      city: "Riyadh",
      postal_code: "12211",
    },
  });
  await call("POST", "/compliance", { otp: "123345" });
  await call("POST", "/production");
}

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 200 });

/** ZATCA's base64 TLV payload, tag by tag, as bytes. */
function tlv(base64: string): Map<number, Buffer> {
  const raw = Buffer.from(base64, "base64");
  const fields = new Map<number, Buffer>();
  for (let i = 0; i + 2 <= raw.length; i += 2 + raw[i + 1]) fields.set(raw[i], raw.subarray(i + 2, i + 2 + raw[i + 1]));
  return fields;
}

/** The drawn QR code read back from a screenshot (jsQR) at the size the page draws it: what a phone sees. */
async function readQr(page: Page) {
  const qr = page.locator(".tax-doc__qr");
  const box = (await qr.boundingBox())!;
  const clip = { x: box.x - 16, y: box.y - 16, width: box.width + 32, height: box.height + 32 };
  const shot = PNG.sync.read(await page.screenshot({ clip }));
  return jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height);
}

/** Clicks a download button and answers the file the browser saved. */
async function download(page: Page, name: string): Promise<{ file: Download; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name }).click()]);
  return { file, bytes: readFileSync((await file.path())!) };
}

/** The files a PDF carries (its EmbeddedFiles name tree), by name. */
async function embeddedFiles(pdf: Buffer): Promise<Map<string, Buffer>> {
  const doc = await PDFDocument.load(pdf);
  const names = doc.catalog.lookup(PDFName.of("Names"), PDFDict);
  const tree = names.lookup(PDFName.of("EmbeddedFiles"), PDFDict);
  const list = tree.lookup(PDFName.of("Names"), PDFArray);
  const files = new Map<string, Buffer>();
  for (let i = 0; i + 1 < list.size(); i += 2) {
    const name = list.lookup(i) as PDFString | PDFHexString;
    const spec = list.lookup(i + 1, PDFDict);
    const stream = spec.lookup(PDFName.of("EF"), PDFDict).lookup(PDFName.of("F"));
    if (!(stream instanceof PDFRawStream)) throw new Error("an embedded file is not a stream");
    files.set(name.decodeText(), Buffer.from(decodePDFRawStream(stream).decode()));
  }
  return files;
}

/** The invoice's page checked against its JSON: its QR's tags 1 to 9, its UUID, and its two files. */
async function checkStampedInvoice(page: Page, locale: "en" | "ar", invoice: Invoice, label: string) {
  const t = (key: string, params?: Record<string, string>) => msg(locale, key, params);
  expect(invoice.einvoice?.uuid).toMatch(/^[0-9a-f-]{36}$/);
  expect(await page.getByTestId("einvoice-uuid").textContent()).toBe(invoice.einvoice!.uuid);
  // Drawn at least about 160 CSS pixels, so a phone reads the dense code.
  expect((await page.locator(".tax-doc__qr").boundingBox())!.width).toBeGreaterThanOrEqual(160);
  const read = await readQr(page);
  expect(read?.data).toBe(invoice.qr);
  const tags = tlv(read!.data);
  // The seller's name as the signed XML registers it: both names once stamped ("عربي | English").
  expect(tags.get(1)?.toString("utf8")).toContain(invoice.seller.name_ar);
  expect(tags.get(2)?.toString("utf8")).toBe(invoice.seller.vat_number);
  expect(tags.get(4)?.toString("utf8")).toBe((invoice.total / 100).toFixed(2));
  expect(tags.get(5)?.toString("utf8")).toBe((invoice.vat / 100).toFixed(2));
  // The invoice's hash (SHA-256, base64), the signature, the public key and the certificate's signature.
  expect(tags.get(6)?.toString("utf8")).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  expect(tags.get(7)?.length).toBeGreaterThan(40);
  expect(tags.get(8)?.length).toBeGreaterThan(40);
  // ZATCA's own QR of a cleared standard invoice ends at tag 8; a simplified one carries tag 9 too.
  if (invoice.transaction === "simplified") expect(tags.get(9)?.length).toBeGreaterThan(40);

  await page.screenshot({ path: `${SCREENSHOTS}/einvoice-${label}-${locale}.png`, fullPage: true });
  await expectAxeClean(page, `stamped invoice (${label}, ${locale})`);

  const xml = await download(page, t("invoice.downloadXml"));
  expect(xml.file.suggestedFilename()).toBe(`${invoice.number}.xml`);
  const text = xml.bytes.toString("utf8");
  expect(/<cbc:UUID>([^<]+)<\/cbc:UUID>/.exec(text)?.[1]).toBe(invoice.einvoice!.uuid);
  // The very file the shopper saved is a UBL 2.1 invoice by its schema.
  expect(await validateUbl(text, "Invoice")).toEqual({ valid: true, errors: [] });
  expect(text).toContain(`<cbc:RegistrationName>${tags.get(1)?.toString("utf8")}</cbc:RegistrationName>`);

  const pdf = await download(page, t("invoice.downloadPdf"));
  expect(pdf.file.suggestedFilename()).toBe(`${invoice.number}.pdf`);
  expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const carried = (await embeddedFiles(pdf.bytes)).get(`${invoice.number}.xml`);
  expect(carried?.toString("utf8")).toContain(`<cbc:UUID>${invoice.einvoice!.uuid}</cbc:UUID>`);

  // Printed, the QR code keeps its size on the A4 page.
  await page.emulateMedia({ media: "print" });
  expect((await page.locator(".tax-doc__qr").boundingBox())!.width).toBeGreaterThanOrEqual(160);
  await page.screenshot({ path: `${SCREENSHOTS}/einvoice-${label}-print-${locale}.png`, fullPage: true });
  await page.emulateMedia({ media: "screen" });
}

for (const locale of journeyLocales("ar")) {
  const t = (key: string, params?: Record<string, string>) => msg(locale, key, params);
  describe(`the e-invoice, from the shopper's side (${locale})`, () => {
    it("a business buyer's wrong VAT number is refused on its field; a right one places the order, and its tax invoice names the company", async () => {
      const ip = { "cf-connecting-ip": visitorIp() };
      const { guestId } = (await (await fetch(`${base}/api/cart/generate-guest-id`, { headers: ip })).json()) as {
        guestId: string;
      };
      const guest = { ...ip, "guest-id": guestId, "content-language": locale };
      const product = products[locale === "ar" ? 1 : 0];
      await backendJson(base, "/backend/cart/add-product", guest, { product_id: product.id, quantity: 1 });

      const { context, page, errors } = await newPage(browser);
      await context.addInitScript((id) => sessionStorage.setItem("guestId", id), guestId);
      await page.goto(`${base}/${locale}/checkout`);
      await eventually(() => page.locator('input[name="shipping_method"]').count()).toBeGreaterThan(0);
      await fillNewAddress(page, locale, { email: `business-${locale}-${Date.now()}@example.com`, name: "Noura" });

      // Closed until asked for; opened, it says what the address then needs.
      expect(await page.locator("#co-buyer_company").count()).toBe(0);
      await page.getByRole("checkbox", { name: t("checkout.business.title"), exact: false }).check();
      await page.locator("#co-buyer_company").waitFor();
      expect(await page.locator(".checkout__business-note").textContent()).toBe(t("checkout.business.addressNote"));
      await page.locator("#co-buyer_company").fill(COMPANY);
      // 14 digits: refused on its field as the shopper leaves it, in the page's language.
      await page.locator("#co-buyer_vat_number").fill("31012345670000");
      await page.locator("#co-buyer_vat_number").blur();
      await eventually(() => page.locator("#co-buyer_vat_number-error").textContent()).toBe(
        t("checkout.business.vatNumberInvalid"),
      );
      expect(await page.locator("#co-buyer_vat_number").getAttribute("aria-invalid")).toBe("true");
      // A submit without the national address's codes names them too, and sends nothing.
      await page.locator(".checkout__submit").click();
      await eventually(() => page.locator("#co-building-error").textContent()).toBe(
        t("checkout.business.buildingRequired"),
      );
      expect(await page.locator("#co-postal_code-error").textContent()).toBe(t("checkout.business.postalCodeRequired"));
      await page.screenshot({ path: `${SCREENSHOTS}/checkout-business-errors-${locale}.png`, fullPage: true });

      // Arabic-Indic digits read as the digits they are.
      await page.locator("#co-buyer_vat_number").fill("٣١٠١٢٣٤٥٦٧٠٠٠٠٣");
      await page.locator("#co-building").fill(NATIONAL_DELIVERY.building);
      await page.locator("#co-postal_code").fill(NATIONAL_DELIVERY.postal_code);
      await eventually(() => page.locator(".field__error").count()).toBe(0);
      await page.screenshot({ path: `${SCREENSHOTS}/checkout-business-${locale}.png`, fullPage: true });
      // From the top: the sticky header over a field scrolled under it is not the form's.
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectAxeClean(page, `checkout for a business (${locale})`);
      await page.locator('input[name="payment_method"][value="card"]').check();
      await page.locator(".checkout__submit").click();
      await payWithCard(page, "4242 4242 4242 4242");
      await page.waitForURL(new RegExp(`/${locale}/payment-status\\?`));
      await eventually(() => page.locator(".payment-result--paid").count()).toBe(1);
      const number = new URL(page.url()).searchParams.get("order")!;
      expect(number).toMatch(/^SQ-/);
      errors.length = 0;

      const invoice = (await backendJson(base, `/backend/orders/${number}/invoice`, guest)).data as unknown as Invoice;
      expect(invoice.transaction).toBe("standard");
      expect(invoice.buyer).toMatchObject({ company: COMPANY, vat_number: VAT_NUMBER });

      await page.goto(`${base}/${locale}/order/${number}/invoice`);
      await page.locator(".tax-doc").waitFor();
      await hydrated(page, ".tax-doc__actions button");
      const text = (await page.locator(".tax-doc").textContent()) ?? "";
      expect(await page.locator("#tax-doc-title").textContent()).toBe(
        `${t("invoice.standardTitle")}${t("invoice.otherStandardTitle")}`,
      );
      expect(text).toContain(COMPANY);
      expect(text).toContain(t("invoice.buyerVatNumber"));
      expect(await page.getByTestId("buyer-vat-number").textContent()).toBe(VAT_NUMBER);
      await page.screenshot({ path: `${SCREENSHOTS}/invoice-standard-${locale}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}

describe("once the shop's e-invoicing unit is onboarded", () => {
  beforeAll(onboardTheShop);

  for (const locale of journeyLocales("ar")) {
    const t = (key: string, params?: Record<string, string>) => msg(locale, key, params);
    for (const transaction of ["simplified", "standard"] as const) {
      it(`a ${transaction} tax invoice is stamped: its page shows its UUID and QR and hands over the signed XML and PDF (${locale})`, async () => {
        const order = await buyThroughCheckout(base, products[locale === "ar" ? 3 : 2].id, 1, visitorIp(), {
          locale,
          address: NATIONAL_DELIVERY,
          ...(transaction === "standard" ? { buyer: { buyer_company: COMPANY, buyer_vat_number: VAT_NUMBER } } : {}),
        });
        await order.pay();
        const guest = { "guest-id": order.guestId, "content-language": locale, "cf-connecting-ip": visitorIp() };
        const invoice = (await backendJson(base, `/backend/orders/${order.number}/invoice`, guest))
          .data as unknown as Invoice;
        expect(invoice.transaction).toBe(transaction);

        const { context, page, errors } = await newPage(browser);
        await context.addInitScript((id) => sessionStorage.setItem("guestId", id), order.guestId);
        await page.goto(`${base}/${locale}/order/${order.number}/invoice`);
        await page.locator(".tax-doc").waitFor();
        await hydrated(page, ".tax-doc__actions button");
        const title = transaction === "standard" ? "invoice.standardTitle" : "invoice.title";
        const other = transaction === "standard" ? "invoice.otherStandardTitle" : "invoice.otherTitle";
        expect(await page.locator("#tax-doc-title").textContent()).toBe(`${t(title)}${t(other)}`);
        expect(await page.getByTestId("buyer-vat-number").count()).toBe(transaction === "standard" ? 1 : 0);
        await checkStampedInvoice(page, locale, invoice, transaction);
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  }
});
