import { mkdirSync, readFileSync } from "node:fs";
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
import { backendJson, builtWorker, buyThroughCheckout, visitorIp } from "../support/http.ts";

/**
 * The console's reports in Chromium, in both languages: a manager opens the reports page, picks a
 * period and downloads the orders placed in it as CSV; the dashboard sets today against
 * yesterday in words; support finds no reports in the console.
 */
const base = builtWorker().url;
let browser: Browser;
let accounts: Record<string, string>;
let paidNumber = "";

/** A guest's order of two units through the real cart and checkout, paid on the sandbox's card page. */
async function paidGuestOrder(): Promise<string> {
  const list = (await backendJson(base, "/backend/products?in_stock=1&per_page=48", {})).data as unknown as {
    id: number;
    stock: number;
    /** Several: a product whose variants are chosen on its page (these fixtures take one of one). */
    variant_count?: number;
  }[];
  const order = await buyThroughCheckout(
    base,
    list.find((p) => (p.variant_count ?? 1) === 1 && p.stock >= 5)!.id,
    2,
    visitorIp(),
    {
      email: `report-buyer-${Date.now()}@example.com`,
    },
  );
  await order.pay();
  return order.number;
}

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  accounts = await newStaffAccounts(
    base,
    Object.fromEntries(
      LOCALES.flatMap((l) => [[`reports-${l}`, "manager"] as const, [`reports-support-${l}`, "support"] as const]),
    ),
  );
  paidNumber = await paidGuestOrder();
});
afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  en: {
    reports: "Reports",
    period: "Period",
    lastMonth: "Last month",
    thisMonth: "This month",
    show: "Show",
    download: "Download orders (CSV)",
    vat: "VAT return",
    yesterday: /yesterday by this time/i,
  },
  ar: {
    reports: "التقارير",
    period: "الفترة",
    lastMonth: "الشهر الماضي",
    thisMonth: "هذا الشهر",
    show: "عرض",
    download: "تنزيل الطلبات (CSV)",
    vat: "إقرار ضريبة القيمة المضافة",
    yesterday: /أمس حتى الساعة نفسها/,
  },
};

/** The shop's day (Riyadh) of an instant, as YYYY-MM-DD. */
const riyadhDay = (at: Date) => new Date(at.getTime() + 3 * 3600_000).toISOString().slice(0, 10);

for (const locale of journeyLocales("ar")) {
  const t = TEXT[locale];
  describe(`reports in the console (${locale})`, () => {
    it("a manager picks a period, reads its sales and VAT, and downloads its orders as CSV", async () => {
      const { context, page, errors } = await newPage(browser);
      await openConsole(page, base, locale, accounts[`reports-${locale}`]);

      // The dashboard says how today compares with yesterday, in words, and lists this week's best sellers.
      await page.goto(`${base}/${locale}/admin`);
      await hydrated(page, ".console-stats");
      const change = page.locator('[data-stat="orders-today"] .console-stat__change');
      await expect.poll(() => change.textContent()).toMatch(t.yesterday);
      expect(await page.locator("#dashboard-top + ol li").count()).toBeGreaterThan(0);
      // This week's deliveries against their promise: a share, or a word that none was delivered yet.
      expect(await page.locator('[data-stat="on-time"] .console-stat__value').textContent()).toMatch(/^(\d+%|–)$/);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-dashboard-compare-${locale}.png`);

      await page.getByRole("navigation").getByRole("link", { name: t.reports, exact: true }).click();
      await page.waitForURL(`${base}/${locale}/admin/reports`);
      await hydrated(page, "#report-period");
      expect(await page.getByRole("heading", { name: t.vat, level: 2 }).count()).toBe(1);
      // This month so far includes the order paid just now.
      const paidOrders = page.locator('[data-stat="orders"] .console-stat__value');
      expect(Number((await paidOrders.textContent())!.replace(/\D/g, ""))).toBeGreaterThan(0);
      // The cart reminders' figures: reminders sent, carts recovered, their revenue in riyals.
      expect(await page.locator('[data-stat^="cart-reminders-"]').count()).toBe(3);
      await page
        .locator("section[aria-labelledby='report-cart-reminders']")
        .screenshot({ path: `${SCREENSHOTS}/console-reports-cart-reminders-${locale}.png` });
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-reports-${locale}.png`);
      await expectAxeClean(page);

      // Picking last month fills in its days; showing it puts them in the address.
      await page.getByLabel(t.period, { exact: true }).selectOption("last_month");
      const from = await page.locator("#report-from").inputValue();
      expect(from).toMatch(/^\d{4}-\d{2}-01$/);
      await page.getByRole("button", { name: t.show, exact: true }).click();
      await page.waitForURL(/period=last_month/);
      await hydrated(page, "#report-period");
      expect(await page.locator("#report-from").inputValue()).toBe(from);

      // Back to this month, then the orders placed in it as a file: the order paid above is in it.
      await page.getByLabel(t.period, { exact: true }).selectOption("this_month");
      await page.getByRole("button", { name: t.show, exact: true }).click();
      await page.waitForURL(/period=this_month/);
      await hydrated(page, "#report-period");
      const today = riyadhDay(new Date());
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: t.download, exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^orders-\\d{4}-\\d{2}-01-${today}\\.csv$`));
      const csv = readFileSync((await download.path())!);
      expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = csv.subarray(3).toString("utf8");
      expect(text).toMatch(/^number,placed_at,paid_at,status,/);
      expect(text).toContain(`${paidNumber},`);

      expect(errors).toEqual([]);
      await context.close();
    });

    it("support finds no reports: neither in the navigation nor at the address", async () => {
      const { context, page } = await newPage(browser);
      await openConsole(page, base, locale, accounts[`reports-support-${locale}`]);
      await page.goto(`${base}/${locale}/admin`);
      await hydrated(page, ".console-stats");
      expect(await page.getByRole("navigation").getByRole("link", { name: t.reports, exact: true }).count()).toBe(0);
      // Support sees no revenue: no money figure and no comparison of it.
      expect(await page.locator('[data-stat="revenue-today"]').count()).toBe(0);
      // The address opens the console's own page saying the role does not open it.
      const res = await page.goto(`${base}/${locale}/admin/reports`);
      expect(res?.status()).toBe(403);
      expect(await page.locator('[data-console-refusal="noAccess"]').count()).toBe(1);
      await context.close();
    });
  });
}
