import { mkdirSync, readFileSync } from "node:fs";
import { crc32, deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { expectAxeClean } from "../support/axe.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyLocales,
  launchBrowser,
  LOCALES,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import { newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { builtWorker } from "../support/http.ts";

/**
 * The console's products in Chromium, in both languages: an owner adds a
 * product with an image and its names in Arabic and English, and the storefront's product page
 * shows it in both languages with that image; hiding it takes it off the shop. Axe checks the
 * product list and form; screenshots at 1280 and 390 px.
 */
const base = builtWorker().url;
let browser: Browser;
/** Each test's own staff account, by its label. */
let staff: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  staff = await newStaffAccounts(
    base,
    Object.fromEntries(
      LOCALES.flatMap((l) => [
        [`catalogue-${l}`, "owner"] as const,
        [`import-${l}`, "manager"] as const,
        [`catalogue-support-${l}`, "support"] as const,
      ]),
    ),
  );
});
afterAll(async () => {
  await browser?.close();
});

/** A solid-colour PNG of `size`×`size`, made here (no binary fixture in the repository). */
function png(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3).fill(Buffer.from(rgb))]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const TEXT = {
  en: {
    newProduct: "New product",
    export: "Export CSV",
    created: "Product created.",
    saved: "Product saved.",
    hide: "Hide from the shop",
    hidden: "hidden from the shop",
    check: "Check",
    import: "Import",
    imported: "Imported. Created: 1 product; updated: 0 products.",
    errors: "2 errors in 2 rows.",
    checked: "Check result",
    importedHeading: "Imported",
    template: "Download a template",
  },
  ar: {
    newProduct: "منتج جديد",
    export: "تصدير CSV",
    created: "تم إنشاء المنتج.",
    saved: "تم حفظ المنتج.",
    hide: "إخفاء من المتجر",
    hidden: "أُخفي المنتج من المتجر",
    check: "فحص",
    import: "استيراد",
    imported: "تم الاستيراد. أُنشئ: منتج واحد، وحُدِّث: لا شيء.",
    errors: "خطآن في صفين.",
    checked: "نتيجة الفحص",
    importedHeading: "تم الاستيراد",
    template: "تنزيل نموذج",
  },
};

for (const locale of journeyLocales("en")) {
  const t = TEXT[locale];
  describe(`products in the console (${locale})`, () => {
    it("an owner adds a product with an image and both names, and the shop shows it in both languages", async () => {
      const owner = staff[`catalogue-${locale}`];
      const stamp = Date.now().toString(36);
      const slug = `aurora-lamp-${locale}-${stamp}`;
      const nameEn = `Aurora lamp ${stamp}`;
      const nameAr = `مصباح أورورا ${stamp}`;
      const { context, page, errors } = await newPage(browser);
      await openConsole(page, base, locale, owner);

      await page.goto(`${base}/${locale}/admin/products`);
      await hydrated(page, ".console-table");
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-products-${locale}.png`);
      await expectAxeClean(page);

      // Export CSV: a download of every product, UTF-8 with its byte order mark.
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: t.export, exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^products-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync((await download.path())!);
      expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(csv.subarray(3, 40).toString("utf8")).toMatch(/^sku,slug,model,name_en,name_ar/);

      await page.getByRole("link", { name: t.newProduct, exact: true }).click();
      await page.waitForURL(`${base}/${locale}/admin/products/new`);
      await hydrated(page, "#f-name_en");
      expect(await page.locator("#f-name_en").getAttribute("dir")).toBe("ltr");
      expect(await page.locator("#f-name_ar").getAttribute("dir")).toBe("rtl");
      await page.locator("#f-name_en").fill(nameEn);
      await page.locator("#f-name_ar").fill(nameAr);
      await page.locator("#f-description_en").fill("A warm desk lamp.");
      await page.locator("#f-description_ar").fill("مصباح مكتب دافئ.");
      await page.locator("#f-slug").fill(slug);
      await page.locator("#f-sku").fill(slug.toUpperCase());
      // The price as an Arabic keyboard types it: Arabic-Indic digits and the Arabic decimal separator.
      await page.locator("#f-price").fill("٢٩٩٫٥٠");
      await expect.poll(() => page.locator("#f-price-hint").textContent()).toContain("299.50");
      await page.locator("#f-stock").fill("6");
      await page.locator("#f-category_id").selectOption({ index: 1 });
      // A specification row in each language.
      // The page's language comes first, so each column is found by its language.
      const specEn = page.locator(".console-specs[lang=en]");
      const specAr = page.locator(".console-specs[lang=ar]");
      await specEn.getByRole("button").last().click();
      await specEn.locator("input").nth(0).fill("Power");
      await specEn.locator("input").nth(1).fill("9 W");
      await specAr.getByRole("button").last().click();
      await specAr.locator("input").nth(0).fill("القدرة");
      await specAr.locator("input").nth(1).fill("9 واط");
      // The image: uploaded, then previewed.
      await page
        .locator(".console-images input[type=file]")
        .setInputFiles({ name: "lamp.png", mimeType: "image/png", buffer: png(96, [230, 160, 40]) });
      const preview = page.locator(".console-images__list img");
      await expect.poll(() => preview.count()).toBe(1);
      const imageUrl = (await preview.getAttribute("src"))!;
      expect(imageUrl).toMatch(/^\/backend\/media\/uploads\/[a-f0-9]{32}\.png$/);
      await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(96);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-product-new-${locale}.png`);
      await expectAxeClean(page);

      await page.locator(".console-product-form button[type=submit]").click();
      await page.waitForURL(new RegExp(`/${locale}/admin/products/\\d+$`));
      await expect
        .poll(() => page.locator("[data-sonner-toast]").allTextContents())
        .toEqual(expect.arrayContaining([expect.stringContaining(t.created)]));
      await hydrated(page, "#f-name_en");
      expect(await page.locator("#f-name_ar").inputValue()).toBe(nameAr);
      await expectAxeClean(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-product-edit-${locale}.png`);
      const editUrl = page.url();

      // The storefront's product page, in both languages, with the uploaded image.
      const shopper = await newPage(browser);
      for (const [lang, name] of [
        ["en", nameEn],
        ["ar", nameAr],
      ] as const) {
        const res = await shopper.page.goto(`${base}/${lang}/product-details/${slug}`);
        expect(res?.status()).toBe(200);
        expect(await shopper.page.locator("h1").textContent()).toContain(name);
        const main = shopper.page.locator(".gallery__main img");
        expect(await main.getAttribute("src")).toBe(imageUrl);
        await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(96);
        expect(await shopper.page.locator("body").textContent()).toContain(lang === "ar" ? "9 واط" : "9 W");
        // Stored as 29950 halalas, shown as 299.50.
        expect(await shopper.page.locator("main").textContent()).toContain("299.50");
      }
      await fullPageScreenshot(shopper.page, `${SCREENSHOTS}/console-product-in-shop-${locale}.png`);

      // A rename in the console reaches the shop's page within seconds (the catalogue version moves: worker/page-cache.ts).
      const renamed = `${nameEn} II`;
      await page.locator("#f-name_en").fill(renamed);
      await page.locator(".console-product-form button[type=submit]").click();
      await expect
        .poll(() => page.locator("[data-sonner-toast]").allTextContents())
        .toEqual(expect.arrayContaining([expect.stringContaining(t.saved)]));
      await expect
        .poll(
          async () => {
            await shopper.page.goto(`${base}/en/product-details/${slug}`);
            return shopper.page.locator("h1").textContent();
          },
          { timeout: 15_000, interval: 1_000 },
        )
        .toContain(renamed);

      // Hidden after a confirmation: the shop's page is gone.
      await page.getByRole("button", { name: t.hide }).click();
      const dialog = page.getByRole("dialog");
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await dialog.getByRole("button", { name: t.hide }).click();
      await expect
        .poll(() => page.locator("[data-sonner-toast]").allTextContents())
        .toEqual(expect.arrayContaining([expect.stringContaining(t.hidden)]));
      // Past the page cache's few seconds, the product page is the shop's 404.
      await expect
        .poll(async () => (await shopper.page.goto(`${base}/${locale}/product-details/${slug}`))?.status(), {
          timeout: 15_000,
          interval: 1_000,
        })
        .toBe(404);
      await shopper.context.close();

      // A phone's width: the form stacks, nothing overflows sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(editUrl);
      await hydrated(page, "#f-name_en");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(1);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-product-edit-phone-${locale}.png`);
      await page.goto(`${base}/${locale}/admin/products`);
      await hydrated(page, ".console-table");
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-products-phone-${locale}.png`);
      expect(errors).toEqual([]);
      await context.close();
    });

    it("a manager checks a CSV file: every bad row is listed and Import stays off until a file checks clean", async () => {
      const manager = staff[`import-${locale}`];
      const { context, page, errors } = await newPage(browser);
      await openConsole(page, base, locale, manager);
      await page.goto(`${base}/${locale}/admin/products/import`);
      await hydrated(page, "#import-csv");
      const stamp = Date.now().toString(36);
      // The template, in the console's language.
      const [template] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: t.template, exact: true }).click(),
      ]);
      expect(template.suggestedFilename()).toBe("products-template.csv");
      const templateText = readFileSync((await template.path())!, "utf8");
      expect(templateText).toContain(locale === "ar" ? "٢٩٩٫٥٠" : "299.50");
      // The category by its name in the console's language, as the merchant knows it.
      const categories = (await (
        await fetch(`${base}/backend/categories`, { headers: { "content-language": locale } })
      ).json()) as { data: { name: string }[] };
      const category = categories.data[0]!.name;
      const header = "sku,slug,name_en,name_ar,price,category";
      const bad = [
        header,
        `A-${stamp},a-${stamp},Lamp,,100,"${category}"`,
        `B-${stamp},b-${stamp},Lamp,مصباح,ten,"${category}"`,
      ].join("\r\n");
      await page
        .locator("#import-csv")
        .setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
      const importButton = page.getByRole("button", { name: t.import, exact: true });
      expect(await importButton.isDisabled()).toBe(true);
      await page.getByRole("button", { name: t.check, exact: true }).click();
      const report = page.locator(".console-import__report tbody tr");
      await expect.poll(() => report.count()).toBe(2);
      expect((await report.nth(0).locator("td").first().textContent())?.trim()).toBe("2");
      expect((await report.nth(1).locator("td").first().textContent())?.trim()).toBe("3");
      expect(await page.locator(".console-import__report [role=status]").textContent()).toContain(t.errors);
      expect(await page.locator("#import-report").textContent()).toBe(t.checked);
      expect(await importButton.isDisabled()).toBe(true);
      await expectAxeClean(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-import-errors-${locale}.png`);

      // A price in riyals with Arabic-Indic digits, as Arabic Excel writes it.
      const good = [header, `C-${stamp},c-${stamp},Lamp ${stamp},مصباح ${stamp},"١٬٢٩٩٫٥٠","${category}"`].join("\r\n");
      await page
        .locator("#import-csv")
        .setInputFiles({ name: "good.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
      await page.getByRole("button", { name: t.check, exact: true }).click();
      await expect.poll(() => importButton.isDisabled()).toBe(false);
      await importButton.click();
      await expect
        .poll(() => page.locator(".console-import__report [role=status]").textContent())
        .toContain(t.imported);
      expect(await page.locator("#import-report").textContent()).toBe(t.importedHeading);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-import-done-${locale}.png`);
      const res = await fetch(`${base}/backend/products/c-${stamp}`, { headers: { "content-language": locale } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { price: number } }).data.price).toBe(129950);
      expect(errors).toEqual([]);
      await context.close();
    });

    it("support reads the products but finds nothing to change them with, and no import page", async () => {
      const support = staff[`catalogue-support-${locale}`];
      const { context, page, errors } = await newPage(browser);
      await openConsole(page, base, locale, support);
      await page.goto(`${base}/${locale}/admin/products`);
      await hydrated(page, ".console-table");
      expect(await page.getByRole("link", { name: t.newProduct, exact: true }).count()).toBe(0);
      await page.locator(".console-table tbody a").first().click();
      await page.waitForURL(new RegExp(`/${locale}/admin/products/\\d+$`));
      await hydrated(page, "#f-name_en");
      expect(await page.locator("#f-name_en").getAttribute("readonly")).not.toBeNull();
      expect(await page.locator(".console-product-form button[type=submit]").count()).toBe(0);
      expect(await page.locator(".console-images input[type=file]").count()).toBe(0);
      await expectAxeClean(page);
      expect(errors).toEqual([]);
      // A role too weak for the page: the console's own "no access" page (403), not the shop's 404.
      expect((await page.goto(`${base}/${locale}/admin/products/import`))?.status()).toBe(403);
      await context.close();
    });
  });
}
