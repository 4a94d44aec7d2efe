import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ar from "../../locales/ar.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import { expectAxeClean } from "../support/axe.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyIt,
  launchBrowser,
  LOCALES,
  newPage,
  SCREENSHOTS,
  toastSays,
} from "../support/browser.ts";
import { consoleHttpSession, newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { builtWorker } from "../support/http.ts";

/**
 * Content and inventory in the console, in Chromium, in both languages: a manager edits a content
 * page's English and Arabic text and the shop's page says it; a manager records a delivery of a
 * product that runs low and it leaves the low-stock list for the ledger. Every page is axe clean
 * and laid out at 1280 and 390 px.
 */
const base = builtWorker().url;
const MESSAGES = { en, ar } as const;
type Locale = (typeof LOCALES)[number];
let browser: Browser;
let bearer: Record<string, string>;
/** Each journey's own manager, by its label. */
let staff: Record<string, string>;

function msg(locale: Locale, key: string, params: Record<string, string | number> = {}): string {
  const value = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], MESSAGES[locale]);
  if (typeof value !== "string") throw new Error(`missing message ${key} in ${locale}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ""));
}

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 200 });

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
  const res = await fetch(`${base}/backend${path}`, {
    method,
    headers: bearer,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T };
  return { status: res.status, data: json.data };
}

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  // The API's own manager: a console code is sent at most so often per account, so each
  // browser journey signs in with an account of its own.
  staff = await newStaffAccounts(
    base,
    Object.fromEntries([
      ["content-api", "manager"] as const,
      ...LOCALES.flatMap((l) =>
        (["page", "stock", "axe"] as const).map((j) => [`content-${l}-${j}`, "manager"] as const),
      ),
    ]),
  );
  const { token } = await consoleHttpSession(base, staff["content-api"]);
  bearer = {
    "content-type": "application/json",
    accept: "application/json",
    authorization: `Bearer ${token}`,
    "cf-connecting-ip": "10.9.9.9",
  };
});
afterAll(async () => {
  await browser?.close();
});

/** Screenshots at 1280 and 390 px; at 390 nothing scrolls sideways. */
async function screenshots(page: Page, name: string): Promise<void> {
  const size = page.viewportSize()!;
  await fullPageScreenshot(page, `${SCREENSHOTS}/${name}-1280.png`);
  await page.setViewportSize({ width: 390, height: 844 });
  await fullPageScreenshot(page, `${SCREENSHOTS}/${name}-390.png`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, name).toBeLessThanOrEqual(0);
  await page.setViewportSize(size);
}

for (const locale of LOCALES) {
  describe(`content and inventory in the console (${locale})`, () => {
    journeyIt(locale, "ar")(
      "a manager edits a content page's English and Arabic text and the shop's page shows it",
      async () => {
        const slug = `care-${locale}-${Date.now().toString(36)}`;
        const created = await api<{ id: number }>("POST", "/admin/pages", {
          slug,
          title_en: "Device care",
          title_ar: "العناية بالأجهزة",
          excerpt_en: "Keep it new",
          excerpt_ar: "حافظ عليه جديدًا",
          body_en: "Draft text.",
          body_ar: "نص مبدئي.",
          sort_order: 50,
        });
        expect(created.status).toBe(201);

        const { context, page, errors } = await newPage(browser);
        await openConsole(page, base, locale, staff[`content-${locale}-page`]);
        await page.goto(`${base}/${locale}/admin/pages`);
        await hydrated(page, ".console-table");
        await page.getByRole("link", { name: "Device care" }).click();
        await page.waitForURL(`${base}/${locale}/admin/pages/${created.data.id}`);
        await hydrated(page, "#f-body_en");
        expect(await page.locator("#f-body_ar").getAttribute("dir")).toBe("rtl");
        expect(await page.locator("#f-body_en").getAttribute("dir")).toBe("ltr");
        await page.locator("#f-title_en").fill("Caring for your device");
        await page.locator("#f-body_en").fill("Wipe the screen with a soft dry cloth.");
        await page.locator("#f-title_ar").fill("العناية بجهازك");
        await page.locator("#f-body_ar").fill("امسح الشاشة بقطعة قماش ناعمة وجافة.");
        await page.locator(".content-form button[type=submit]").click();
        await toastSays(page, msg(locale, "console.pages.saved"));
        await expectAxeClean(page, `page editor ${locale}`);
        await screenshots(page, `console-page-edit-${locale}`);

        // A required field left empty is refused with the shop's message, next to the field.
        await page.locator("#f-excerpt_ar").fill("");
        await page.locator(".content-form button[type=submit]").click();
        await eventually(() => page.locator("#f-excerpt_ar").getAttribute("aria-invalid")).toBe("true");

        for (const [lang, title, body] of [
          ["en", "Caring for your device", "Wipe the screen with a soft dry cloth."],
          ["ar", "العناية بجهازك", "امسح الشاشة بقطعة قماش ناعمة وجافة."],
        ] as const) {
          await eventually(async () => {
            await page.goto(`${base}/${lang}/page/${slug}`);
            return page.locator("main").textContent();
          }).toContain(body);
          expect(await page.locator("h1").textContent()).toContain(title);
        }
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    journeyIt(locale, "en")(
      "a manager records a received delivery and the product leaves the low-stock list for the ledger",
      async () => {
        const low = await api<
          { id: number; variant_id: number; sku: string; stock: number; name_en: string; name_ar: string }[]
        >("GET", "/admin/inventory/low-stock?per_page=100");
        // A product running low but not sold out, so the shop's other journeys keep what they expect.
        const product = low.data.find((p) => p.stock > 0) ?? low.data[0];
        expect(product, "a seeded product runs low").toBeDefined();

        const { context, page, errors } = await newPage(browser);
        await openConsole(page, base, locale, staff[`content-${locale}-stock`]);
        await page.goto(`${base}/${locale}/admin/inventory`);
        await hydrated(page, "#stock-find");
        const lowTable = page.locator("section[aria-labelledby=low-stock] tbody");
        expect(await lowTable.textContent()).toContain(product!.sku);
        await expectAxeClean(page, `inventory ${locale}`);
        await screenshots(page, `console-inventory-${locale}`);

        await page.locator("#stock-find").fill(product!.sku);
        await page.getByRole("button", { name: msg(locale, "console.inventory.findButton"), exact: true }).click();
        await eventually(() => page.locator(".stock-chosen").textContent()).toContain(product!.sku);
        await page.locator("#f-reason").selectOption("received");
        await page.locator("#f-delta").fill("40");
        await page.locator("#f-note").fill(`Delivery ${locale}`);
        await page.getByRole("button", { name: msg(locale, "console.inventory.record") }).click();
        await toastSays(page, msg(locale, "console.inventory.recorded", { stock: "" }).split(":")[0]!);
        await eventually(() => lowTable.textContent()).not.toContain(product!.sku);
        const ledger = page.locator("section[aria-labelledby=ledger] tbody");
        await eventually(() => ledger.textContent()).toContain(`Delivery ${locale}`);
        // The newest line names who recorded it by name, not by email, with the balance after it.
        const line = ledger.locator("tr").first();
        expect(await line.textContent()).toContain(`Delivery ${locale}`);
        expect(await line.locator("td").last().textContent()).not.toContain("@");
        expect((await line.locator("td").last().textContent())?.trim()).not.toBe("—");
        await expectAxeClean(page, `inventory after ${locale}`);
        await screenshots(page, `console-inventory-after-${locale}`);
        await page
          .locator("section[aria-labelledby=ledger]")
          .screenshot({ path: `${SCREENSHOTS}/console-ledger-${locale}.png` });

        // Damage beyond the stock is refused on the delta field, and nothing changes.
        await page.locator("#f-reason").selectOption("damaged");
        await page.locator("#f-delta").fill(`-${product!.stock + 1000}`);
        await page.getByRole("button", { name: msg(locale, "console.inventory.record") }).click();
        await eventually(() => page.locator("#f-delta").getAttribute("aria-invalid")).toBe("true");
        // The refused POST's 422 is the browser's only complaint.
        expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
        await context.close();

        // Back to what it was: the other journeys count on the seed's stock.
        const back = await api("POST", "/admin/inventory/adjustments", {
          product_id: product!.id,
          variant_id: product!.variant_id,
          reason: "count",
          counted: product!.stock,
          note: "e2e restore",
        });
        expect(back.status).toBe(201);
      },
    );

    it("the categories, brands and services pages are axe clean and fit a phone", async () => {
      const { context, page, errors } = await newPage(browser);
      await openConsole(page, base, locale, staff[`content-${locale}-axe`]);
      for (const area of ["categories", "brands", "services"] as const) {
        await page.goto(`${base}/${locale}/admin/${area}`);
        await hydrated(page, ".console-table");
        await expectAxeClean(page, `${area} ${locale}`);
        await screenshots(page, `console-${area}-${locale}`);
        await page.locator(".console-table tbody a").first().click();
        await hydrated(page, "#f-name_ar");
        expect(await page.locator("#f-name_ar").getAttribute("dir")).toBe("rtl");
        await expectAxeClean(page, `${area} editor ${locale}`);
        await screenshots(page, `console-${area}-edit-${locale}`);
      }
      // Deleting a category that still has products asks first, then is refused with the reason.
      await page.goto(`${base}/${locale}/admin/categories?sort=products&dir=desc`);
      await hydrated(page, ".console-table");
      await page.locator(".console-table tbody a").first().click();
      await hydrated(page, "#f-name_ar");
      await page
        .getByRole("button", { name: msg(locale, "console.actions.delete") })
        .first()
        .click();
      const dialog = page.locator("dialog.console-dialog[open]");
      await eventually(() => dialog.count()).toBe(1);
      await expectAxeClean(page, `category delete dialog ${locale}`);
      await dialog.getByRole("button", { name: msg(locale, "console.actions.delete") }).click();
      await eventually(() => page.locator("[data-sonner-toast]").allTextContents()).toEqual(
        expect.arrayContaining([expect.stringMatching(locale === "ar" ? /منتجات/ : /still has/)]),
      );
      expect(page.url()).toMatch(/\/admin\/categories\/\d+$/);
      // The refused DELETE's 409 is the browser's only complaint.
      expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
      await context.close();
    });
  });
}
