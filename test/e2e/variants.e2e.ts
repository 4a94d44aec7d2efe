import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAxeClean } from "../support/axe.ts";
import { hydrated, launchBrowser, LOCALES, networkQuiet, newPage, SCREENSHOTS } from "../support/browser.ts";
import { fillNewAddress, msg, payWithCard } from "../support/checkout-browser.ts";
import { consoleHttpSession, newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { builtWorker, jsonApi, visitorIp } from "../support/http.ts";

/**
 * Variants in Chromium, in both languages: a shopper chooses colour and storage on a phone (price,
 * stock and picture follow, the URL holds the choice and opens on it for a new visitor), puts two
 * variants of it in the cart, checks out and pays; the order and its invoice name each variant, one
 * variant is returned and refunded, and the credit note names that one alone. A manager
 * gives a product two options and six variants, one sold out, and the shop sells them.
 */
const base = builtWorker().url;
const PHONE = "iphone-16-pro";
let browser: Browser;
let staff: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  // A console sign-in per account: each test has its own.
  staff = await newStaffAccounts(
    base,
    Object.fromEntries(
      LOCALES.flatMap((l) => [
        [`variants-${l}`, "manager"] as const,
        [`variants-csv-${l}`, "manager"] as const,
        [`variants-return-${l}`, "manager"] as const,
      ]),
    ),
  );
});
afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  en: { black: "Black Titanium", desert: "Desert Titanium", gb256: "256 GB", tb1: "1 TB", soldOut: "sold out" },
  ar: { black: "تيتانيوم أسود", desert: "تيتانيوم صحراوي", gb256: "256 جيجابايت", tb1: "1 تيرابايت", soldOut: "نفدت" },
};

function eventually<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 100 });
}

const value = (page: Page, code: string) => page.locator(`.variant-picker__value[data-value="${code}"]`);
const price = (page: Page) => page.locator(".product__price .price__now").textContent();
const chosen = (page: Page) =>
  page
    .locator('.variant-picker__value[aria-current="true"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-value")));

describe("variants on the product page, in the cart and in the order", () => {
  for (const locale of LOCALES)
    it(
      `${locale}: chooses colour and storage, shares the choice, buys two variants and reads them in the order`,
      { timeout: 120_000 },
      async () => {
        const { context, page, errors } = await newPage(browser);
        await page.goto(`${base}/${locale}/product-details/${PHONE}`);
        await hydrated(page, '.variant-picker__value[data-value="black"]');
        const layout = await page.locator(".product__main").boundingBox();

        // Black, then 256 GB: price, stock, SKU and picture follow, and the URL says so.
        await value(page, "black").click();
        await page.waitForURL(/colour=black/);
        await value(page, "256gb").click();
        await page.waitForURL(/colour=black&storage=256gb/);
        await eventually(() => price(page)).toMatch(/5,099\.00|٥٬٠٩٩٫٠٠/);
        await eventually(() => page.locator(".product__ids").textContent()).toContain("APP-1001-BLACK-256GB");
        expect(await page.locator(".gallery__main img").getAttribute("src")).toContain("colour=3c3c3d");
        expect(await page.locator(".variant-picker__label").allTextContents()).toEqual(
          expect.arrayContaining([
            expect.stringContaining(TEXT[locale].black),
            expect.stringContaining(TEXT[locale].gb256),
          ]),
        );
        // A sold-out combination is shown, struck through and said, not hidden.
        expect(await value(page, "512gb").getAttribute("aria-label")).toContain(TEXT[locale].soldOut);
        // Nothing moved: the pickers and the price keep their place.
        expect(await page.locator(".product__main").boundingBox()).toEqual(layout);
        await expectAxeClean(page);
        await page.screenshot({ path: `${SCREENSHOTS}/variants-product-${locale}.png` });

        // A new visitor opening the shared address sees the same variant, server-rendered.
        const shared = page.url();
        const visitor = await browser.newContext({ locale: locale === "ar" ? "ar-SA" : "en-US" });
        const other = await visitor.newPage();
        await other.goto(shared);
        expect(await chosen(other)).toEqual(["black", "256gb"]);
        expect(await price(other)).toMatch(/5,099\.00|٥٬٠٩٩٫٠٠/);
        await visitor.close();

        // Two variants of the phone in the cart: black 256 GB, then desert 1 TB.
        await page.locator(".add-to-cart__button").click();
        await eventually(() => page.locator("#cart-drawer .cart-line").count()).toBe(1);
        await page.keyboard.press("Escape");
        await value(page, "desert").click();
        await value(page, "1tb").click();
        await page.waitForURL(/colour=desert&storage=1tb/);
        await eventually(() => price(page)).toMatch(/6,899\.00|٦٬٨٩٩٫٠٠/);
        await page.locator(".add-to-cart__button").click();
        await eventually(() => page.locator("#cart-drawer .cart-line").count()).toBe(2);
        expect(await page.locator("#cart-drawer .cart-line__variant").allTextContents()).toEqual([
          `${TEXT[locale].black} · ${TEXT[locale].gb256}`,
          `${TEXT[locale].desert} · ${TEXT[locale].tb1}`,
        ]);
        await page.screenshot({ path: `${SCREENSHOTS}/variants-cart-${locale}.png` });
        // A line's link opens its own variant.
        expect(await page.locator("#cart-drawer .cart-line__name").first().getAttribute("href")).toBe(
          `/${locale}/product-details/${PHONE}?colour=black&storage=256gb`,
        );

        // Checkout and pay; the order names each variant.
        await page.goto(`${base}/${locale}/checkout`);
        await eventually(() => page.locator('input[name="shipping_method"]').count()).toBeGreaterThan(0);
        await networkQuiet(page);
        await fillNewAddress(page, locale, {
          email: `variants-${locale}-${Date.now()}@example.com`,
          name: locale === "ar" ? "سارة أحمد" : "Sara Ahmed",
        });
        expect(await page.locator(".checkout__item-variant").allTextContents()).toHaveLength(2);
        await page.locator(".checkout__submit").click();
        await payWithCard(page, "4242 4242 4242 4242");
        await page.waitForURL(new RegExp(`/${locale}/payment-status\\?`));
        await eventually(() => page.locator(".payment-result--paid").count()).toBe(1);
        await page
          .getByRole("link", { name: msg(locale, "payment.viewOrder") })
          .first()
          .click();
        await page.waitForURL(new RegExp(`/${locale}/order/checkout/status\\?order=`));
        await eventually(() => page.locator(".order-item").count()).toBe(2);
        const items = await page.locator(".order-item").allTextContents();
        expect(items.some((t) => t.includes(TEXT[locale].black) && t.includes(TEXT[locale].gb256))).toBe(true);
        expect(items.some((t) => t.includes(TEXT[locale].desert) && t.includes(TEXT[locale].tb1))).toBe(true);
        await page.screenshot({ path: `${SCREENSHOTS}/variants-order-${locale}.png`, fullPage: true });
        const orderPage = page.url();
        const number = new URL(orderPage).searchParams.get("order")!;

        // The tax invoice names both variants.
        await page.locator(`a[href="/${locale}/order/${number}/invoice"]`).first().click();
        await page.waitForURL(new RegExp(`/${locale}/order/${number}/invoice$`));
        await page.locator(".tax-doc").waitFor();
        const invoice = (await page.locator(".tax-doc").textContent()) ?? "";
        expect(invoice).toContain(TEXT[locale].desert);
        const comma = locale === "ar" ? "، " : ", ";
        expect(invoice).toContain(`${TEXT[locale].black}${comma}${TEXT[locale].gb256}`);
        expect(invoice).toContain(`${TEXT[locale].desert}${comma}${TEXT[locale].tb1}`);

        // Delivered, the shopper returns the desert 1 TB alone; staff approve, receive and refund it.
        const manager = await managerApi(staff[`variants-return-${locale}`]);
        for (const [step, fields] of [
          ["process", {}],
          ["ship", { carrier: "SMSA", tracking_number: "SM20261205" }],
          ["deliver", {}],
        ] as const)
          await manager(`/backend/admin/orders/${number}/${step}`, fields);
        await page.goto(orderPage);
        await hydrated(page, ".self-service__form button[type=submit]");
        const lines = page.locator(".self-service__line");
        expect(await lines.count()).toBe(2);
        const desert = lines.filter({ hasText: TEXT[locale].tb1 });
        await desert.locator("input[type=number]").fill("1");
        await desert.locator("select").selectOption("changed_mind");
        await page.locator(".self-service__form button[type=submit]").click();
        const returns = page.locator("[data-testid=returns]");
        await eventually(() => returns.textContent()).toContain(msg(locale, "orders.returns.statuses.requested"));
        const returned = (await returns.locator(".self-service__lines").textContent()) ?? "";
        expect(returned).toContain(TEXT[locale].desert);
        expect(returned).not.toContain(TEXT[locale].black);
        const { body } = await manager(`/backend/admin/orders/${number}/returns`);
        const id = (body.data as { id: string }[])[0].id;
        for (const step of ["approve", "receive", "refund"])
          await manager(`/backend/admin/orders/${number}/returns/${id}/${step}`, {});

        // The credit note names the returned variant and not the one kept.
        await page.reload();
        await hydrated(page, "[data-testid=returns]");
        expect(await returns.textContent()).toContain(msg(locale, "orders.returns.statuses.refunded"));
        await page.locator('a[href*="/credit-note/"]').first().click();
        await page.waitForURL(new RegExp(`/${locale}/order/${number}/credit-note/\\d+$`));
        await page.locator(".tax-doc").waitFor();
        const note = (await page.locator(".tax-doc").textContent()) ?? "";
        expect(note).toContain(`${TEXT[locale].desert}${comma}${TEXT[locale].tb1}`);
        expect(note).not.toContain(TEXT[locale].black);
        await page.screenshot({ path: `${SCREENSHOTS}/variants-credit-note-${locale}.png`, fullPage: true });
        expect(errors).toEqual([]);
        await context.close();
      },
    );

  it("without JavaScript, the pickers are links to each variant's page", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/en/product-details/${PHONE}`);
    await value(page, "white").click();
    await page.waitForURL(/colour=white/);
    expect(await chosen(page)).toContain("white");
    expect(await page.locator(".product__ids").textContent()).toContain("APP-1001-WHITE");
    await context.close();
  });
});

/** The manager's API: each call must answer 200 (GET without a body, POST with one). */
async function managerApi(email: string) {
  const { token } = await consoleHttpSession(base, email);
  const api = jsonApi(base, { authorization: `Bearer ${token}`, "cf-connecting-ip": visitorIp() });
  return async (path: string, body?: object) => {
    const answer = await api(path, body ? { method: "POST", body } : {});
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
    return answer;
  };
}

/** A fresh product of the test's own, made through the API with the manager's console session. */
async function freshProduct(page: Page, locale: string): Promise<{ data: { id: number; slug: string; sku: string } }> {
  return page.evaluate(
    async ({ locale, stamp }) => {
      const res = await fetch(`/backend/admin/products`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-language": locale,
          authorization: `Bearer ${sessionStorage.getItem("token")}`,
        },
        body: JSON.stringify({
          slug: `variant-lamp-${stamp}`,
          sku: `LAMP-${stamp}`,
          name_en: "Desk lamp",
          name_ar: "مصباح مكتب",
          price: 12000,
          stock: 4,
          category_id: 1,
          // Two pictures: white and black, which the black variants show as their own.
          images: [
            `/backend/media/products/variant-lamp-${stamp}.svg?colour=f5f5f5`,
            `/backend/media/products/variant-lamp-${stamp}.svg?colour=111111`,
          ],
        }),
      });
      return (await res.json()) as { data: { id: number; slug: string; sku: string } };
    },
    { locale, stamp: `${locale}${Date.now()}` },
  );
}

describe("variants in the console", () => {
  for (const locale of LOCALES)
    it(
      `${locale}: a manager gives a product two options and six variants, one sold out; the shop sells them`,
      { timeout: 90_000 },
      async () => {
        const { context, page, errors } = await newPage(browser);
        await openConsole(page, base, locale, staff[`variants-${locale}`]);
        const created = await freshProduct(page, locale);
        const { id, slug } = created.data;
        await page.goto(`${base}/${locale}/admin/products/${id}`);
        await hydrated(page, "#product-variants-title ~ form button");
        const section = page.locator('section[aria-labelledby="product-variants-title"]');
        const t = (key: string, params: Record<string, string | number> = {}) => msg(locale, key, params);

        // Two options: colour (swatches) with two values, size with three.
        for (const [at, [en, ar, kind, values]] of (
          [
            [
              "Colour",
              "اللون",
              "swatch",
              [
                ["White", "أبيض"],
                ["Black", "أسود"],
              ],
            ],
            [
              "Size",
              "المقاس",
              "button",
              [
                ["Small", "صغير"],
                ["Medium", "متوسط"],
                ["Large", "كبير"],
              ],
            ],
          ] as const
        ).entries()) {
          await section.getByRole("button", { name: t("console.variants.addOption") }).click();
          const option = section.locator(".product-variants__option").nth(at);
          await option.getByLabel(t("console.variants.nameEn")).fill(en);
          await option.getByLabel(t("console.variants.nameAr")).fill(ar);
          await option.getByLabel(t("console.variants.kind")).selectOption(kind);
          for (const [n, [valueEn, valueAr]] of values.entries()) {
            await option.getByRole("button", { name: t("console.variants.addValue") }).click();
            await option.getByLabel(t("console.variants.valueEnOf", { n: n + 1 })).fill(valueEn);
            await option.getByLabel(t("console.variants.valueArOf", { n: n + 1 })).fill(valueAr);
          }
        }
        await section.getByRole("button", { name: t("console.variants.combine") }).click();
        const rows = section.locator(".product-variants__rows tbody tr");
        // The six combinations: the product's own variant (its stock kept, on the ledger) becomes the first.
        await eventually(() => rows.count()).toBe(6);
        // A cell of a row by its column: SKU, barcode, price, compare-at price, stock…
        const cell = (row: number, column: "barcode" | "price" | "stock") =>
          rows.nth(row).locator("td").nth({ barcode: 1, price: 2, stock: 4 }[column]);
        expect(await cell(0, "stock").locator("input").count()).toBe(0);
        // New ones get their opening stock; the last one none: sold out.
        for (let i = 0; i < 6; i++) {
          await cell(i, "price")
            .locator("input")
            .fill(String(100 + i * 10));
          if (i > 0)
            await cell(i, "stock")
              .locator("input")
              .fill(i === 5 ? "0" : "3");
        }
        // Each variant its own barcode: one whose check digit is wrong is refused on its row.
        await cell(0, "barcode").locator("input").fill("4006381333931");
        await cell(1, "barcode").locator("input").fill("4006381333932");
        await section.getByRole("button", { name: t("console.variants.save") }).click();
        await eventually(() => rows.nth(1).getAttribute("data-invalid")).toBe("true");
        expect(await cell(1, "barcode").locator("input").getAttribute("aria-invalid")).toBe("true");
        await cell(1, "barcode").locator("input").fill("");
        // The black ones show the product's second picture.
        for (let i = 3; i < 6; i++)
          await rows
            .nth(i)
            .getByLabel(new RegExp(`^${t("console.variants.picture")}: `))
            .selectOption({ label: t("console.variants.pictureN", { n: 2 }) });
        await expectAxeClean(page);
        await section.screenshot({ path: `${SCREENSHOTS}/console-variants-${locale}.png` });
        // On a phone each variant is a card of labelled fields: nothing to scroll sideways.
        const viewport = page.viewportSize()!;
        await page.setViewportSize({ width: 390, height: 844 });
        const scroller = section.locator(".console-table__scroll", { has: page.locator(".product-variants__rows") });
        await eventually(() => scroller.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
        expect(await cell(2, "price").evaluate((el) => getComputedStyle(el, "::before").content)).toBe(
          JSON.stringify(t("console.fields.price")),
        );
        await rows.nth(0).screenshot({ path: `${SCREENSHOTS}/console-variants-phone-${locale}.png` });
        await page.setViewportSize(viewport);
        await section.getByRole("button", { name: t("console.variants.save") }).click();
        await eventually(() => page.locator("[data-sonner-toast]").allTextContents()).toContain(
          t("console.variants.saved"),
        );
        // The barcode was kept with its variant.
        await page.reload();
        await hydrated(page, "#product-variants-title ~ form button");
        await eventually(() => cell(0, "barcode").locator("input").inputValue()).toBe("4006381333931");
        // Its price is now its variants': the product form shows it, set with them.
        const price = page.locator('[data-by-variants="price"]');
        await eventually(() => price.locator("strong").textContent()).toMatch(/100\.00|١٠٠٫٠٠/);
        expect(await page.locator("#f-price").count()).toBe(0);
        expect(await price.locator(".field__hint").textContent()).toBe(t("console.products.priceByVariants"));
        // The rest of the form still saves, its price left to the variants.
        await page.locator("#f-name_en").fill("Desk lamp, three sizes");
        await page.getByRole("button", { name: t("console.products.save"), exact: true }).click();
        await eventually(() => page.locator("[data-sonner-toast]").allTextContents()).toContain(
          t("console.products.saved"),
        );
        expect(await price.locator("strong").textContent()).toMatch(/100\.00|١٠٠٫٠٠/);

        // The shop sells six, the last shown sold out.
        const shop = await context.newPage();
        await eventually(async () => {
          await shop.goto(`${base}/${locale}/product-details/${slug}`);
          return shop.locator(".variant-picker__value").count();
        }).toBe(5);
        await shop.goto(`${base}/${locale}/product-details/${slug}?colour=black&size=large`);
        expect(await shop.locator(".product__stock").textContent()).toContain(msg(locale, "product.outOfStock"));
        expect(await shop.locator(".gallery__main img").getAttribute("src")).toContain("colour=111111");
        await shop.goto(`${base}/${locale}/product-details/${slug}?colour=white&size=large`);
        expect(await shop.locator(".gallery__main img").getAttribute("src")).toContain("colour=f5f5f5");

        // One variant's delivery in Inventory: found by its SKU, and read in the ledger by its values.
        const sku = `${created.data.sku}-BLACK-SMALL`.toUpperCase();
        await page.goto(`${base}/${locale}/admin/inventory`);
        await hydrated(page, "#stock-find");
        await page.locator("#stock-find").fill(sku);
        await page.getByRole("button", { name: t("console.inventory.findButton"), exact: true }).click();
        await eventually(() => page.locator(".stock-chosen").textContent()).toContain(sku);
        await page.locator("#f-reason").selectOption("received");
        await page.locator("#f-delta").fill("5");
        await page.locator("#f-note").fill(`Variant delivery ${locale}`);
        await page.getByRole("button", { name: t("console.inventory.record") }).click();
        const line = page.locator("section[aria-labelledby=ledger] tbody tr").first();
        await eventually(() => line.textContent()).toContain(`Variant delivery ${locale}`);
        expect(await line.textContent()).toContain(sku);
        await eventually(async () => {
          await shop.goto(`${base}/${locale}/product-details/${slug}?colour=black&size=small`);
          return shop.locator(".product__stock").textContent();
        }).not.toContain(msg(locale, "product.outOfStock"));
        // The refused barcode's answer is the one error the browser reports.
        expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
        await context.close();
      },
    );

  for (const locale of LOCALES)
    it(`${locale}: imports variants by CSV after a dry run that names a bad row in the console's language`, async () => {
      const { context, page, errors } = await newPage(browser);
      await openConsole(page, base, locale, staff[`variants-csv-${locale}`]);
      const t = (key: string, params: Record<string, string | number> = {}) => msg(locale, key, params);
      const { sku } = (await freshProduct(page, locale)).data;
      await page.goto(`${base}/${locale}/admin/products/import`);
      await hydrated(page, "#import-csv");
      await page.getByLabel(t("console.variantsCsv.kinds.variants")).check();
      const header = "product_sku,sku,price,stock,option1,value1";
      const rows = (colour: string) => [
        header,
        // A product of one variant gets colours; the first row's option lacks its Arabic name.
        `${sku},${sku}-NAVY,169,4,${colour},Navy | كحلي | #1b2a49`,
        `${sku},${sku}-LILAC,169,0,Colour | اللون,Lilac | ليلكي | #c8a2c8`,
      ];
      const upload = (lines: string[]) =>
        page.locator("#import-csv").setInputFiles({
          name: "variants.csv",
          mimeType: "text/csv",
          buffer: Buffer.from(lines.join("\n")),
        });
      await upload(rows("Colour"));
      await page.getByRole("button", { name: t("console.products.check") }).click();
      const report = page.locator(".console-import__report");
      await eventually(() => report.textContent()).toContain(
        locale === "ar" ? "اكتب الاسم بالإنجليزية وبالعربية" : "Write the name in English and in Arabic",
      );
      expect(await page.getByRole("button", { name: t("console.products.importButton") }).isDisabled()).toBe(true);
      await expectAxeClean(page);
      await page.screenshot({ path: `${SCREENSHOTS}/console-variants-csv-${locale}.png`, fullPage: true });
      // Fixed, checked, imported.
      await upload(rows("Colour | اللون"));
      await page.getByRole("button", { name: t("console.products.check") }).click();
      await eventually(() => page.locator(".console-import__report [role=status]").textContent()).not.toBe("");
      await page.getByRole("button", { name: t("console.products.importButton") }).click();
      await eventually(() => page.locator("[data-sonner-toast]").allTextContents()).toContain(
        t("console.variantsCsv.imported", { created: 2, updated: 0 }),
      );
      // The refused check's 422 is the only error the browser logs.
      expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
      await context.close();
    });
});
