import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fullPageScreenshot, hydrated, launchBrowser, newPage, SCREENSHOTS, toastSays } from "../support/browser.ts";
import { newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { builtWorker, buyThroughCheckout, visitorIp } from "../support/http.ts";
import { say } from "../support/messages.ts";

/**
 * A day of an Arabic-speaking owner, in one journey through /ar/admin: a product priced as an Arabic
 * keyboard types it ("٢٩٩٫٥٠"), a CSV imported with a category by its Arabic name and an
 * Arabic-Indic price, a new shipping rate in the settings that the shop's checkout charges at once,
 * one line of an order refunded and put back in stock, the packing slip printed, and the audit log
 * naming all of it in Arabic.
 */
const base = builtWorker().url;
const t = (key: string, params?: Record<string, string>) => say("ar", key, params);
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 200 });
let browser: Browser;
let owner: string;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  ({ "arabic-day": owner } = await newStaffAccounts(base, { "arabic-day": "owner" }));
});
afterAll(async () => {
  await browser?.close();
});

/** A backend call with the page's console session (the token the console keeps in the tab). */
const consoleCall = (page: Page, method: string, path: string, body?: unknown) =>
  page.evaluate(
    async ([m, p, b]) => {
      const res = await fetch(`/backend${p}`, {
        method: m,
        headers: {
          accept: "application/json",
          "content-type": "application/json",
          authorization: `Bearer ${sessionStorage.getItem("token") ?? ""}`,
        },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
    },
    [method, path, body] as const,
  );

/** A guest buys two units of the product and pays on the sandbox card page. */
async function paidOrderOf(productId: number): Promise<string> {
  const order = await buyThroughCheckout(base, productId, 2, visitorIp(), {
    locale: "ar",
    email: `arabic-day-${Date.now()}@example.com`,
    address: { name: "ليلى الدوسري", phone: "+966512345678", city: "الرياض", district: "العليا", street: "التحلية" },
  });
  await order.pay();
  return order.number;
}

describe("an Arabic-speaking owner's day in the console", () => {
  it("prices typed in Arabic, a CSV by category name, a shipping rate, a line refund with restock, the packing slip, and the audit log in Arabic", async () => {
    const { page } = await newPage(browser);
    await openConsole(page, base, "ar", owner);
    const stamp = Date.now().toString(36);
    try {
      // 1. A product priced "٢٩٩٫٥٠": stored as 29950 halalas, shown as 299.50 in the shop.
      await page.goto(`${base}/ar/admin/products/new`);
      await hydrated(page, "#f-name_ar");
      await page.locator("#f-name_ar").fill(`سماعة صقر ${stamp}`);
      await page.locator("#f-name_en").fill(`Falcon headphones ${stamp}`);
      await page.locator("#f-description_ar").fill("سماعة لاسلكية بعزل الضوضاء.");
      await page.locator("#f-description_en").fill("Wireless noise-cancelling headphones.");
      await page.locator("#f-sku").fill(`FALCON-${stamp}`.toUpperCase());
      await page.locator("#f-price").fill("٢٩٩٫٥٠");
      await page.locator("#f-stock").fill("٢٠");
      await page.locator("#f-category_id").selectOption({ index: 1 });
      await page.locator(".console-product-form button[type=submit]").click();
      await page.waitForURL(/\/ar\/admin\/products\/\d+$/);
      await toastSays(page, t("console.products.created"));
      const productId = Number(/\/(\d+)$/.exec(page.url())![1]);
      await hydrated(page, "#f-slug");
      const slug = await page.locator("#f-slug").inputValue();
      const shop = await newPage(browser);
      await shop.page.goto(`${base}/ar/product-details/${slug}`);
      expect(await shop.page.locator("main").textContent()).toContain("299.50");

      // 2. A CSV: the category by its Arabic name, the price as Arabic Excel writes it.
      const categories = (await (
        await fetch(`${base}/backend/categories`, { headers: { "content-language": "ar" } })
      ).json()) as {
        data: { name: string }[];
      };
      const csv = [
        "sku,slug,name_en,name_ar,price,category",
        `IMPORT-${stamp},import-${stamp},Power bank ${stamp},باور بانك ${stamp},"١٬٢٩٩٫٥٠","${categories.data[0]!.name}"`,
      ].join("\r\n");
      await page.goto(`${base}/ar/admin/products/import`);
      await hydrated(page, "#import-csv");
      await page
        .locator("#import-csv")
        .setInputFiles({ name: "day.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      await page.getByRole("button", { name: "فحص", exact: true }).click();
      const importButton = page.getByRole("button", { name: "استيراد", exact: true });
      await eventually(() => importButton.isDisabled()).toBe(false);
      await importButton.click();
      await eventually(() => page.locator("#import-report").textContent()).toBe("تم الاستيراد");
      const imported = await fetch(`${base}/backend/products/import-${stamp}`, {
        headers: { "content-language": "ar" },
      });
      expect(((await imported.json()) as { data: { price: number } }).data.price).toBe(129950);

      // 3. Standard shipping becomes 22.75, typed "٢٢٫٧٥": the shopper's next checkout charges it.
      await page.goto(`${base}/ar/admin/settings`);
      await hydrated(page, "#settings-shipping-standard");
      await page.locator("#settings-shipping-standard").fill("٢٢٫٧٥");
      await page.locator("#settings-shipping-free_threshold").fill("١٠٠٠٠٠");
      const section = t("console.settings.sections.shipping");
      await page.getByRole("button", { name: t("console.settings.save", { section }) }).click();
      await toastSays(page, t("console.settings.saved"));
      await shop.page.goto(`${base}/ar/product-details/${slug}`);
      await hydrated(shop.page, ".add-to-cart__button");
      await shop.page.locator(".add-to-cart__button").click();
      await eventually(() => shop.page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(
        true,
      );
      await shop.page.goto(`${base}/ar/checkout`);
      // The delivery methods' prices (cash on delivery's fee is priced beside its method too).
      const prices = shop.page.locator('.choice:has(input[name="shipping_method"]) .choice__price');
      await eventually(() => prices.count()).toBe(2);
      expect((await prices.allTextContents())[0]).toContain("22.75");
      await shop.context.close();

      // 4. One of an order's two units refunded and put back on the shelf.
      const number = await paidOrderOf(productId);
      const stockOf = async () =>
        ((await consoleCall(page, "GET", `/admin/products/${productId}`)).body.data as { stock: number }).stock;
      const stockBefore = await stockOf();
      await page.goto(`${base}/ar/admin/orders/${number}`);
      await hydrated(page, ".console-actions button");
      await page
        .locator(".console-actions")
        .getByRole("button", { name: t("console.orders.actions.refund") })
        .click();
      const dialog = page.locator("dialog[open]");
      // A line is its variant's: the product made here sells its one variant.
      const variantId = (
        (await consoleCall(page, "GET", `/admin/products/${productId}/variants`)).body.data as {
          variants: { id: number }[];
        }
      ).variants[0].id;
      await dialog.locator(`#refund-units-${variantId}`).fill("١");
      await dialog.getByLabel(t("console.refundLines.restock")).check();
      await eventually(() => dialog.locator("[data-refund-total]").count()).toBe(1);
      // One unit of 299.50 with no discount: the dialog says exactly what will be paid.
      expect(await dialog.locator("[data-refund-total]").textContent()).toContain("299.50");
      await dialog.getByRole("button", { name: t("console.orders.refundSubmit") }).click();
      await eventually(() => page.locator("dialog[open]").count()).toBe(2);
      await page
        .locator("dialog[open]")
        .last()
        .getByRole("button", { name: t("console.orders.refundSubmit") })
        .click();
      await toastSays(page, t("console.orders.refundDone"));
      await eventually(stockOf).toBe(stockBefore + 1);

      // 5. The packing slip prints on one A4 page, without prices.
      await page.goto(`${base}/ar/admin/orders/${number}/packing-slip`);
      await hydrated(page, "[data-packing-slip] button");
      expect(await page.locator("[data-packing-slip]").textContent()).not.toMatch(/ر\.س|SAR/);
      await page.emulateMedia({ media: "print" });
      const pdf = await page.pdf({ format: "A4", printBackground: true });
      expect(pdf.toString("latin1").match(/\/Type\s*\/Page(?![s\w])/g)?.length).toBe(1);
      await page.emulateMedia({ media: "screen" });

      // 6. The audit log says all of it in Arabic, each row linked to its record; no code shows.
      await page.goto(`${base}/ar/admin/audit`);
      await hydrated(page, ".console-table");
      const log = (await page.locator(".console-table").textContent()) ?? "";
      for (const action of ["product.create", "settings.update", "order.refund"])
        expect(log, action).toContain(t(`console.auditLog.actions.${action}`));
      expect(log).not.toMatch(/\b(product\.create|settings\.update|order\.refund)\b/);
      expect(await page.locator(`.console-table a[href="/ar/admin/orders/${number}"]`).count()).toBeGreaterThan(0);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-arabic-day-audit.png`);
    } finally {
      // Later files on this worker's database expect the shipping the deployment starts from.
      const reset = await consoleCall(page, "PUT", "/admin/settings/shipping", {
        standard: 2500,
        express: 5000,
        free_threshold: 30000,
      });
      expect(reset.status).toBe(200);
      await page.context().close();
    }
  }, 300_000);
});
