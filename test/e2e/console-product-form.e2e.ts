import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { expectAxeClean } from "../support/axe.ts";
import { hydrated, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { builtWorker } from "../support/http.ts";

/**
 * The product form in Chromium, in both languages: the page's language column first, each column
 * in its direction with the page's labels read in the page's direction (computed styles and
 * positions, not attributes only), the slug filled from the name, SEO title and description on
 * the shop's page, the weight in its specifications, duplicate, and the list's bulk price edit.
 * Screenshots go to test-results/screenshots/product-form-*.png.
 */
const base = builtWorker().url;
let browser: Browser;
let staff: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  staff = await newStaffAccounts(base, Object.fromEntries(LOCALES.map((l) => [`product-form-${l}`, "owner"] as const)));
});
afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  en: {
    created: "Product created.",
    duplicate: "Duplicate",
    apply: "Apply to the selected products",
    changed: "2 products changed.",
  },
  ar: {
    created: "تم إنشاء المنتج.",
    duplicate: "نسخ المنتج",
    apply: "تطبيق على المنتجات المحددة",
    changed: "تغيّر منتجان.",
  },
};

/** How a label reads: its computed direction and alignment, and where its text and asterisk sit. */
function labelLayout(page: Page, input: string) {
  return page.locator(`label[for="${input}"]`).evaluate((label) => {
    const style = getComputedStyle(label);
    const star = label.querySelector(".field__required");
    const text = document.createRange();
    text.selectNodeContents(label.firstChild!);
    const textBox = text.getBoundingClientRect();
    const field = label.closest(".field")!.getBoundingClientRect();
    return {
      direction: style.direction,
      textAlign: style.textAlign,
      // Where the text sits in the field's width: hugging its right or its left edge.
      rightGap: Math.round(field.right - textBox.right),
      leftGap: Math.round(textBox.left - field.left),
      starLeftOfText: star ? star.getBoundingClientRect().right <= textBox.left + 1 : null,
    };
  });
}

for (const locale of LOCALES) {
  const t = TEXT[locale];
  const other = locale === "ar" ? "en" : "ar";
  describe(`the product form (${locale})`, () => {
    it("puts the page's language first, reads labels in the page's direction, fills the slug, and its SEO, weight, duplicate and bulk price reach the shop", async () => {
      const { context, page, errors } = await newPage(browser);
      await openConsole(page, base, locale, staff[`product-form-${locale}`]);
      await page.goto(`${base}/${locale}/admin/products/new`);
      await hydrated(page, "#f-name_en");

      // Column order and directions.
      const columns = page.locator('section[aria-labelledby="pf-names"] .console-bilingual__column');
      expect(await columns.evaluateAll((cs) => cs.map((c) => c.getAttribute("lang")))).toEqual([locale, other]);
      expect(await columns.evaluateAll((cs) => cs.map((c) => getComputedStyle(c).direction))).toEqual(
        locale === "ar" ? ["rtl", "ltr"] : ["ltr", "rtl"],
      );
      // In reading order the first column is at the page's start: the right in Arabic.
      const [first, second] = await columns.evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect().left));
      expect(locale === "ar" ? first > second : first < second).toBe(true);
      // Every label, in either column, reads in the page's direction and hugs the page's start;
      // the required asterisk comes after the text (left of it in Arabic).
      for (const field of ["f-name_ar", "f-name_en", "f-description_ar", "f-description_en"]) {
        const layout = await labelLayout(page, field);
        expect(layout.direction, field).toBe(locale === "ar" ? "rtl" : "ltr");
        if (locale === "ar") expect(layout.rightGap, field).toBeLessThanOrEqual(2);
        else expect(layout.leftGap, field).toBeLessThanOrEqual(2);
        if (field.startsWith("f-name")) expect(layout.starLeftOfText, field).toBe(locale === "ar");
      }
      expect((await labelLayout(page, "f-name_ar")).textAlign).toMatch(locale === "ar" ? /start|right/ : /start|left/);
      // "No specifications yet." keeps its full stop at the end of the sentence in Arabic.
      const noSpecs = page.locator(".console-specs[lang=en] .console-hint");
      expect(await noSpecs.evaluate((p) => getComputedStyle(p).direction)).toBe(locale === "ar" ? "rtl" : "ltr");

      // The slug follows the English name, or the Arabic one alone, until typed by hand.
      const stamp = Date.now().toString(36);
      await page.locator("#f-name_ar").fill(`غلاية صقر ${stamp}`);
      expect(await page.locator("#f-slug").inputValue()).toBe(`ghlaya-sqr-${stamp}`);
      await page.locator("#f-name_en").fill(`Falcon Kettle ${stamp}`);
      const slug = `falcon-kettle-${stamp}`;
      expect(await page.locator("#f-slug").inputValue()).toBe(slug);

      await page.locator("#f-sku").fill(`FK-${stamp}`);
      // Riyals, as a merchant types them.
      await page.locator("#f-price").fill("149");
      await page.locator("#f-stock").fill("5");
      await page.locator("#f-category_id").selectOption({ index: 1 });
      await page.locator("#f-seo_title_en").fill(`Falcon kettle ${stamp} | Boils in 3 minutes`);
      await page.locator("#f-seo_title_ar").fill(`غلاية صقر ${stamp} | تغلي في 3 دقائق`);
      await page.locator("#f-seo_description_ar").fill("غلاية ستانلس 1.7 لتر بإطفاء تلقائي.");
      await page.locator("#f-weight_grams").fill("1250");
      await page.locator("#f-barcode").fill("4006381333931");
      await page.locator("#f-weight_grams").blur();
      await page.screenshot({ path: `${SCREENSHOTS}/product-form-${locale}.png`, fullPage: true });
      await expectAxeClean(page);
      await page.locator(".console-product-form button[type=submit]").click();
      await page.waitForURL(new RegExp(`/${locale}/admin/products/\\d+$`));
      const originalUrl = page.url();
      await expect
        .poll(() => page.locator("[data-sonner-toast]").allTextContents())
        .toEqual(expect.arrayContaining([expect.stringContaining(t.created)]));
      await hydrated(page, "#f-name_en");
      // A saved product's slug stays put when its name changes.
      await page.locator("#f-name_en").fill(`Falcon Kettle ${stamp} Pro`);
      expect(await page.locator("#f-slug").inputValue()).toBe(slug);

      // The shop's page: the SEO title as <title>, the SEO description, the weight in its specifications.
      const shopper = await newPage(browser);
      await shopper.page.goto(`${base}/ar/product-details/${slug}`);
      expect(await shopper.page.title()).toBe(`غلاية صقر ${stamp} | تغلي في 3 دقائق`);
      expect(await shopper.page.locator('meta[name="description"]').getAttribute("content")).toBe(
        "غلاية ستانلس 1.7 لتر بإطفاء تلقائي.",
      );
      expect(await shopper.page.locator("table.specs").textContent()).toMatch(/الوزن\s*1\.25 كغم/);
      await shopper.page.goto(`${base}/en/product-details/${slug}`);
      expect(await shopper.page.title()).toBe(`Falcon kettle ${stamp} | Boils in 3 minutes`);
      expect(await shopper.page.locator("table.specs").textContent()).toMatch(/Weight\s*1\.25 kg/);
      await shopper.context.close();

      // Duplicate: a hidden copy with no stock opens.
      await page.getByRole("button", { name: t.duplicate, exact: true }).click();
      await page.waitForURL((url) => url.href !== originalUrl && /\/admin\/products\/\d+$/.test(url.pathname));
      await hydrated(page, "#f-name_en");
      await expect
        .poll(() => page.locator("#f-name_en").inputValue(), { timeout: 15_000 })
        .toBe(`Falcon Kettle ${stamp} (copy)`);
      expect(await page.locator("#f-slug").inputValue()).toBe(`${slug}-copy`);
      expect(await page.locator(".console-badge--danger").count()).toBe(1);

      // Bulk edit: both chosen in the list, prices up by 10 %, in one action.
      await page.goto(`${base}/${locale}/admin/products?search=${stamp}`);
      await hydrated(page, ".console-table");
      const boxes = page.locator("input.console-select");
      await expect.poll(() => boxes.count()).toBe(2);
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await page.locator(".console-bulk select").first().selectOption("percent");
      await page.locator(".console-bulk input").first().fill("10");
      await page.screenshot({ path: `${SCREENSHOTS}/product-bulk-${locale}.png`, fullPage: true });
      await expectAxeClean(page);
      await page.getByRole("button", { name: t.apply }).click();
      await expect
        .poll(() => page.locator("[data-sonner-toast]").allTextContents())
        .toEqual(expect.arrayContaining([expect.stringContaining(t.changed)]));
      await expect.poll(() => page.locator(".console-table tbody").textContent()).toMatch(/163\.90[^]*163\.90/);
      expect(errors).toEqual([]);
      await context.close();
    }, 180_000);
  });
}
