import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { expectAxeClean } from "../support/axe.ts";
import { hydrated, journeyLocales, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { buyThroughCheckout, builtWorker, visitorIp } from "../support/http.ts";

/**
 * The console on a phone (390 × 844), in both languages: the header stays one compact row, the
 * orders list comes before its filters (folded behind a button), and an order's lines stack so
 * that no total is cut off and a product's name wraps at its words, never inside one.
 */
const base = builtWorker().url;
const PHONE = { width: 390, height: 844 };
let browser: Browser;
let accounts: Record<string, string>;
let orderNumber = "";

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  accounts = await newStaffAccounts(base, Object.fromEntries(LOCALES.map((l) => [`phone-${l}`, "manager"] as const)));
  const product = (
    (await (await fetch(`${base}/backend/products?per_page=48&in_stock=1`)).json()) as {
      data: { id: number; stock: number; variant_count?: number }[];
    }
  ).data.find((p) => (p.variant_count ?? 1) === 1 && p.stock >= 3)!;
  const order = await buyThroughCheckout(base, product.id, 2, visitorIp());
  await order.pay();
  orderNumber = order.number;
});
afterAll(async () => {
  await browser?.close();
});

/** Whether anything in the page reaches past the viewport's inline edges (what a phone cuts off). */
const overflowing = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => {
    const width = document.documentElement.clientWidth;
    return els
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && (box.left < -1 || box.right > width + 1);
      })
      .map((el) => el.textContent?.trim() ?? "");
  });

const TEXT = {
  en: { filters: "Filter orders" },
  ar: { filters: "تصفية الطلبات" },
};

for (const locale of journeyLocales("ar")) {
  const t = TEXT[locale];
  describe(`the console on a phone (${locale})`, () => {
    it("keeps the header to one row, folds the orders filters, and stacks an order's lines within the screen", async () => {
      const { context, page, errors } = await newPage(browser, { viewport: PHONE });
      await openConsole(page, base, locale, accounts[`phone-${locale}`]);

      // The header: one row, well under the 220 px it took before.
      const header = await page.locator(".console-header").boundingBox();
      expect(header!.height).toBeLessThan(80);
      // The sections strip scrolls sideways without a visible scrollbar.
      expect(await page.locator(".console-nav").evaluate((el) => getComputedStyle(el).scrollbarWidth)).toBe("none");

      // The orders list: the filters wait behind their button; the list is on the first screen.
      await page.goto(`${base}/${locale}/admin/orders`);
      await hydrated(page, ".console-filters__toggle");
      const toggle = page.getByRole("button", { name: t.filters, exact: true });
      expect(await toggle.getAttribute("aria-expanded")).toBe("false");
      expect(await page.locator("#orders-filters").isVisible()).toBe(false);
      const firstRow = await page.locator(".console-table tbody tr").first().boundingBox();
      expect(firstRow!.y).toBeLessThan(PHONE.height);
      await toggle.click();
      expect(await toggle.getAttribute("aria-expanded")).toBe("true");
      expect(await page.locator("#orders-filters").isVisible()).toBe(true);
      await expectAxeClean(page);

      // An order's lines: stacked, each cell named, nothing past the screen's edge.
      await page.goto(`${base}/${locale}/admin/orders/${orderNumber}`);
      await hydrated(page, ".console-order");
      expect(await page.locator(".console-table--stack thead").boundingBox()).toEqual(
        expect.objectContaining({ width: 1, height: 1 }),
      );
      expect(await overflowing(page, ".console-table--stack td, .console-order__totals, .console-order dd")).toEqual(
        [],
      );
      // The product's name wraps between words only: no word of it is split over two lines.
      const splitWords = await page.locator(".console-table--stack td:first-child bdi").evaluateAll((els) =>
        els.flatMap((el) => {
          const text = el.textContent ?? "";
          const node = el.firstChild;
          if (!node) return [];
          const split: string[] = [];
          const range = document.createRange();
          let offset = 0;
          for (const word of text.split(" ")) {
            range.setStart(node, offset);
            range.setEnd(node, offset + word.length);
            if (word && range.getClientRects().length > 1) split.push(word);
            offset += word.length + 1;
          }
          return split;
        }),
      );
      expect(splitWords).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}/console-phone-order-${locale}.png`, fullPage: true });
      await expectAxeClean(page);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
