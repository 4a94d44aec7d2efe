import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAxeClean, seriousViolations } from "../support/axe.ts";
import { fullPageScreenshot, hydrated, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { fillNewAddress, msg } from "../support/checkout-browser.ts";
import { consoleHttpSession, latestCode, newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { builtWorker } from "../support/http.ts";

// Cash on delivery in Chromium, in both languages: chosen at checkout with its fee, confirmed with
// the code texted to the delivery mobile (read from the development outbox), delivered and paid at
// the door; then returned with the IBAN the shopper gives, refunded by bank transfer, and the
// transfer recorded as sent in the console.
const base = builtWorker().url;
type Locale = (typeof LOCALES)[number];
const IBAN = "SA0380000000608010167519";

interface Product {
  slug: string;
  stock: number;
  price: number;
  variant_count?: number;
}

let browser: Browser;
let products: Product[] = [];
let accounts: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=48&sort=price_asc`, {
    headers: { "content-language": "en" },
  });
  // Within cash on delivery's largest total (5,000 riyals by default), fee and shipping included.
  products = ((await res.json()) as { data: Product[] }).data.filter(
    (p) => (p.variant_count ?? 1) === 1 && p.stock >= 5 && p.price >= 10_000 && p.price <= 300_000,
  );
  expect(products.length).toBeGreaterThanOrEqual(2);
  // Two seats a locale: a console session's code goes out once a minute per seat.
  accounts = await newStaffAccounts(
    base,
    Object.fromEntries(
      LOCALES.flatMap((l) => [[`cod-${l}`, "manager"] as const, [`courier-${l}`, "manager"] as const]),
    ),
  );
});
afterAll(async () => {
  await browser?.close();
});

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/** A manager ships and delivers the order over HTTP (the courier's part is not this journey's point). */
async function shipAndDeliver(email: string, number: string): Promise<void> {
  const { token } = await consoleHttpSession(base, email);
  for (const step of ["ship", "deliver"]) {
    const res = await fetch(`${base}/backend/admin/orders/${number}/${step}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", origin: base },
      body: step === "ship" ? JSON.stringify({ carrier: "SMSA", tracking_number: "SM555" }) : undefined,
    });
    expect(res.status, step).toBe(200);
  }
}

async function checkoutWithCod(page: Page, locale: Locale, product: Product, mobile: string): Promise<string> {
  await page.goto(`${base}/${locale}/product-details/${product.slug}`);
  await hydrated(page, ".add-to-cart__button");
  await page.locator(".add-to-cart__button").click();
  await eventually(() => page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
  await page.goto(`${base}/${locale}/checkout`);
  await eventually(() => page.locator('input[name="payment_method"]').count()).toBeGreaterThan(1);
  await fillNewAddress(page, locale, { email: `cod-${locale}-${Date.now()}@example.com`, name: "Noura" });
  await page.locator("#co-phone").fill(mobile);
  const total = page.locator(".summary__row--total dd");
  const before = await total.textContent();
  await page.getByRole("radio", { name: msg(locale, "orders.methods.cod") }).check();
  // The fee is said beside the method and added to the summary's total.
  await eventually(() => page.locator(".summary").textContent()).toContain(msg(locale, "cart.codFee"));
  expect(await total.textContent()).not.toBe(before);
  await expectAxeClean(page);
  await fullPageScreenshot(page, `${SCREENSHOTS}/cod-checkout-${locale}.png`);
  await page.locator(".checkout__submit").click();
  await page.waitForURL(/\/proceed-payement\?/);
  return new URL(page.url()).searchParams.get("order")!;
}

describe("cash on delivery", () => {
  for (const [index, locale] of LOCALES.entries()) {
    it(
      `(${locale}) a COD order confirmed with its phone code, delivered, returned and refunded to an IBAN`,
      { timeout: 150_000 },
      async () => {
        const { page, context, errors } = await newPage(browser, { viewport: { width: 390, height: 900 } });
        const mobile = `5${String(Math.floor(10_000_000 + Math.random() * 89_999_999))}`;
        const number = await checkoutWithCod(page, locale, products[index], mobile);

        // The code went to the delivery mobile; the page asks for it, its field focused.
        const code = page.getByLabel(msg(locale, "payment.cod.code"));
        await eventually(() => code.evaluate((el) => el === document.activeElement)).toBe(true);
        expect(await page.locator(".cod-confirm .notice[role=status]").textContent()).toMatch(
          new RegExp(`05•••••${mobile.slice(-3)}`),
        );
        const sent = await latestCode(base, `+966${mobile}`, "cod");
        await expectAxeClean(page);
        await fullPageScreenshot(page, `${SCREENSHOTS}/cod-code-${locale}.png`);

        // A wrong code is refused in the page's language; the right one (Arabic-Indic digits read too) confirms.
        await code.fill(sent === "000000" ? "111111" : "000000");
        await page.getByRole("button", { name: msg(locale, "payment.cod.confirm") }).click();
        await eventually(() => page.locator(".cod-confirm").textContent()).toContain(
          locale === "ar" ? "الرمز غير صحيح" : "That code is not right",
        );
        // The error summary takes the focus once it shows (an effect after the paint): type after
        // that, as a shopper does, or the focus leaves the field between Playwright's focus and its typing.
        await eventually(() =>
          page.evaluate(() => document.activeElement?.classList.contains("form__summary") ?? false),
        ).toBe(true);
        const typed = locale === "ar" ? sent.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d))) : sent;
        await code.fill(typed);
        await eventually(() => code.inputValue()).toBe(sent);
        await Promise.all([
          page
            .waitForURL(new RegExp(`/${locale}/order/checkout/status\\?order=${number}`))
            .catch(async (error: unknown) => {
              // What the page said instead, for the report.
              await fullPageScreenshot(page, `${SCREENSHOTS}/cod-not-confirmed-${locale}.png`);
              const said = await page.locator(".cod-confirm").textContent();
              throw new Error(`not confirmed with ${sent} (typed ${await code.inputValue()}): ${said}`, {
                cause: error,
              });
            }),
          page.getByRole("button", { name: msg(locale, "payment.cod.confirm") }).click(),
        ]);
        await eventually(() => page.locator(".cod-due").count()).toBe(1);
        expect(await page.locator(".order-details").textContent()).toContain(msg(locale, "cart.codFee"));
        await expectAxeClean(page);
        await fullPageScreenshot(page, `${SCREENSHOTS}/cod-confirmed-${locale}.png`);

        // The courier delivers it and collects the cash; the shopper returns it, naming the IBAN.
        await shipAndDeliver(accounts[`courier-${locale}`], number);
        await page.reload();
        await hydrated(page, "#return-form-title");
        await page.locator(".self-service__qty input").first().fill("1");
        await page.locator(".self-service__line select").first().selectOption("damaged");
        const iban = page.getByLabel(msg(locale, "orders.returns.iban"));
        await iban.fill("SA0380000000608010167518");
        await page.getByLabel(msg(locale, "orders.returns.ibanName")).fill("Noura Buyer");
        await page.getByRole("button", { name: msg(locale, "orders.returns.submit") }).click();
        await eventually(() => page.locator(".self-service__form").textContent()).toContain(
          msg(locale, "orders.returns.ibanFormat"),
        );
        await iban.fill(`${IBAN.slice(0, 4)} ${IBAN.slice(4, 8)} ${IBAN.slice(8)}`);
        await page.getByRole("button", { name: msg(locale, "orders.returns.submit") }).click();
        // The request stands: the return is listed, waiting for the shop's check.
        await eventually(() => page.locator(".self-service").textContent()).toContain(
          msg(locale, "orders.returns.statuses.requested"),
        );
        await fullPageScreenshot(page, `${SCREENSHOTS}/cod-return-${locale}.png`);
        // The wrong code was refused on purpose (422); nothing else may have failed.
        expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
        await context.close();

        // The console: approve, receive and refund the return; the transfer is owed to the IBAN, then recorded sent.
        const staff = await newPage(browser);
        const console = staff.page;
        await openConsole(console, base, locale, accounts[`cod-${locale}`]);
        await console.goto(`${base}/${locale}/admin/orders/${number}`);
        await hydrated(console, ".console-actions button");
        // Each step's button starts with its word ("Refund" names its amount after it); the confirm dialog's too.
        for (const step of ["approve", "receive", "refund"] as const) {
          const word = msg(locale, `console.orders.returns.actions.${step}`).trim();
          const named = { name: new RegExp(`^${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) };
          await console.locator(".console-returns").getByRole("button", named).first().click();
          const dialog = console.locator("dialog[open]");
          if (await dialog.count()) await dialog.getByRole("button", named).click();
          await eventually(() => console.locator("dialog[open]").count()).toBe(0);
          await eventually(() => console.locator(".console-returns").getByRole("button", named).count()).toBe(0);
        }
        const panel = console.locator("[data-cash-on-delivery]");
        await eventually(() => panel.locator('[data-transfer="due"]').count()).toBe(1);
        expect(await panel.textContent()).toContain(IBAN);
        await panel.getByLabel(msg(locale, "console.orders.transferReference")).fill("SNB-777");
        await panel.getByRole("button", { name: msg(locale, "console.orders.transferMark") }).click();
        await eventually(() => panel.locator('[data-transfer="sent"]').count()).toBe(1);
        expect(await panel.textContent()).toContain("SNB-777");
        expect(await seriousViolations(console)).toEqual([]);
        await fullPageScreenshot(console, `${SCREENSHOTS}/cod-console-transfer-${locale}.png`);
        expect(staff.errors).toEqual([]);
        await staff.context.close();
      },
    );
  }
});
