import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instalmentPlan, type InstalmentRule } from "../../contract/instalments.ts";
import { expectAxeClean } from "../support/axe.ts";
import { fullPageScreenshot, hydrated, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { fillNewAddress, msg } from "../support/checkout-browser.ts";
import { builtWorker } from "../support/http.ts";

// Tabby in Chromium, in both languages: the instalment line under a product's price and the cart's
// total (drawn by the shop from Tabby's rule, absent above the shop's limit), then paying in four
// on the stand-in of Tabby's hosted page with Tabby's test code.
const base = builtWorker().url;
type Locale = (typeof LOCALES)[number];

interface Product {
  slug: string;
  price: number;
  currency: string;
  stock: number;
  variant_count?: number;
}

let browser: Browser;
let products: Product[] = [];
let rule: InstalmentRule;

beforeAll(async () => {
  browser = await launchBrowser();
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=48&sort=price_desc`, {
    headers: { "content-language": "en" },
  });
  const all = ((await res.json()) as { data: Product[] }).data;
  const detail = (await (await fetch(`${base}/backend/products/${all[0].slug}`)).json()) as {
    data: { instalments?: InstalmentRule[] };
  };
  rule = detail.data.instalments!.find((r) => r.provider === "tabby")!;
  products = all.filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 4 && instalmentPlan(rule, p.price) !== null);
  expect(products.length).toBeGreaterThanOrEqual(2);
});
afterAll(async () => {
  await browser?.close();
});

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/** The line as the shop words it for this amount, by Tabby's rule (money as the browser's Intl formats it). */
async function expectedLine(page: Page, locale: Locale, amount: number, currency: string): Promise<string> {
  const plan = instalmentPlan(rule, amount)!;
  const formatted = await page.evaluate(
    ({ parts, currency, tag }) =>
      parts.map((h) =>
        new Intl.NumberFormat(tag, { style: "currency", currency, currencyDisplay: "symbol" }).format(h / 100),
      ),
    { parts: plan, currency, tag: locale === "ar" ? "ar-SA-u-nu-latn" : "en-US" },
  );
  const money = (halalas: number) => formatted[plan.indexOf(halalas)];
  const provider = msg(locale, "instalments.providers.tabby");
  const [first, rest] = [plan[0], plan[plan.length - 1]];
  return first === rest
    ? msg(locale, "instalments.even", { count: plan.length, amount: money(rest), provider })
    : msg(locale, "instalments.uneven", { first: money(first), count: plan.length - 1, amount: money(rest), provider });
}

const lineText = (page: Page, scope: string) =>
  page.locator(`${scope} .instalments[data-provider="tabby"] .instalments__text`).textContent({ timeout: 10_000 });

describe("Tabby", () => {
  for (const [index, locale] of LOCALES.entries()) {
    it(
      `(${locale}) the instalment line under the price and the total, then paying in four on Tabby's page`,
      { timeout: 120_000 },
      async () => {
        const { page, context, errors } = await newPage(browser, { viewport: { width: 1280, height: 900 } });
        const product = products[index];

        // Above the shop's Tabby limit (the seed's dearest camera, 10,499 SAR): no Tabby line, while
        // Tamara's (to 20,000 SAR) is there.
        await page.goto(`${base}/${locale}/product-details/nikon-z6-iii`);
        await hydrated(page, ".add-to-cart__button");
        expect(await page.locator('.instalments[data-provider="tabby"]').count()).toBe(0);
        expect(await page.locator('.instalments[data-provider="tamara"]').count()).toBe(1);

        await page.goto(`${base}/${locale}/product-details/${product.slug}`);
        await hydrated(page, ".add-to-cart__button");
        expect((await lineText(page, ".product__price"))?.trim()).toBe(
          await expectedLine(page, locale, product.price, product.currency),
        );
        await page.locator(".product__price").screenshot({ path: `${SCREENSHOTS}/tabby-line-product-${locale}.png` });
        await page.locator(".add-to-cart__button").click();
        await eventually(() => page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);

        // The cart page: the line for the total the summary shows (shipping included).
        await page.goto(`${base}/${locale}/shopping-cart`);
        await eventually(() => page.locator('.cart-page__aside .instalments[data-provider="tabby"]').count()).toBe(1);
        const guest = await page.evaluate(() => sessionStorage.getItem("guestId"));
        const options = (await (
          await fetch(`${base}/backend/checkout/options`, {
            headers: { "guest-id": guest!, "content-language": locale },
          })
        ).json()) as { data: { totals: { total: number; currency: string } } };
        expect((await lineText(page, ".cart-page__aside"))?.trim()).toBe(
          await expectedLine(page, locale, options.data.totals.total, options.data.totals.currency),
        );
        await expectAxeClean(page);
        await fullPageScreenshot(page, `${SCREENSHOTS}/tabby-cart-${locale}.png`);

        // Checkout: Tabby with its line; the order goes to Tabby's page, code 8888 pays it.
        await page.goto(`${base}/${locale}/checkout`);
        await eventually(() => page.locator('input[name="payment_method"][value="tabby"]').count()).toBe(1);
        await fillNewAddress(page, locale, { email: `tabby-${locale}-${Date.now()}@example.com`, name: "Reem" });
        await page.locator('input[name="payment_method"][value="tabby"]').check();
        expect((await lineText(page, ".choice"))?.trim()).toBe(
          await expectedLine(page, locale, options.data.totals.total, options.data.totals.currency),
        );
        await page.locator(".checkout__submit").click();
        await page.waitForURL(/\/backend\/payments\/stand-in\/tabby\//);
        expect(await page.getAttribute("html", "dir")).toBe(locale === "ar" ? "rtl" : "ltr");
        await expectAxeClean(page);
        await fullPageScreenshot(page, `${SCREENSHOTS}/tabby-page-${locale}.png`);
        await page.locator("#tabby-otp").fill("8888");
        await Promise.all([
          page.waitForURL(new RegExp(`/${locale}/payment-status\\?`)),
          page.locator('button[name="action"][value="pay"]').click(),
        ]);
        await eventually(() => page.locator(".payment-result--paid").count()).toBe(1);
        expect(errors).toEqual([]);
        await context.close();
      },
    );
  }

  it("(ar) a shopper Tabby refuses is told so and pays by card instead", { timeout: 90_000 }, async () => {
    const { page, context } = await newPage(browser, { viewport: { width: 390, height: 900 } });
    await page.goto(`${base}/ar/product-details/${products[2 % products.length].slug}`);
    await hydrated(page, ".add-to-cart__button");
    await page.locator(".add-to-cart__button").click();
    await eventually(() => page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    await page.goto(`${base}/ar/checkout`);
    await eventually(() => page.locator('input[name="payment_method"][value="tabby"]').count()).toBe(1);
    await fillNewAddress(page, "ar", { email: `tabby-refused-${Date.now()}@example.com`, name: "Reem" });
    // Tabby's published test number refused at pre-scoring.
    await page.locator("#co-phone").fill("500000002");
    await page.locator('input[name="payment_method"][value="tabby"]').check();
    await page.locator(".checkout__submit").click();
    await page.waitForURL(/\/proceed-payement\?/);
    const notice = page.locator(".notice--danger");
    await eventually(() => notice.textContent()).toContain(msg("ar", "payment.refused"));
    expect(await notice.textContent()).toContain("لا تستطيع تابي قبول عملية الشراء هذه الآن");
    await fullPageScreenshot(page, `${SCREENSHOTS}/tabby-refused-ar.png`);
    await page.getByRole("link", { name: msg("ar", "payment.payByCard") }).click();
    await page.waitForURL(/\/backend\/payments\/sandbox\//);
    await context.close();
  });
});
