import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import { msg } from "../support/checkout-browser.ts";
import { newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { builtWorker, jsonApi, NATIONAL_DELIVERY, visitorIp } from "../support/http.ts";
import { REGIONS } from "../../contract/regions.ts";

/**
 * Shipping with carriers from the console, in Chromium: an owner adds a carrier rule in Settings
 * (a weight typed wrong is refused on its field first) and reads it back; a manager splits a paid
 * order of two lines into two parcels from its page (one line now, the other after), ticks another
 * order in the list and creates its shipment with the bulk action, and opens the COD remittances.
 */
const base = builtWorker().url;
type Locale = (typeof LOCALES)[number];
let browser: Browser;
let accounts: Record<string, string>;
let products: { id: number }[] = [];

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });
const isFocused = (page: Page, selector: string) =>
  page.evaluate((sel) => document.activeElement === document.querySelector(sel), selector);

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  // A seat per locale and role: a console code goes out once a minute per seat. Settings are the owner's.
  accounts = await newStaffAccounts(
    base,
    Object.fromEntries(
      LOCALES.flatMap((l) => [[`ship-${l}`, "manager"] as const, [`carriers-${l}`, "owner"] as const]),
    ),
  );
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=48&sort=price_asc`, {
    headers: { "content-language": "en" },
  });
  products = ((await res.json()) as { data: { id: number; stock: number; variant_count?: number }[] }).data.filter(
    (p) => (p.variant_count ?? 1) === 1 && p.stock >= 8,
  );
  expect(products.length).toBeGreaterThanOrEqual(6);
});
afterAll(async () => {
  await browser?.close();
});

/** A guest's paid order of one unit of each product, through the real cart, checkout and sandbox card page. */
async function paidOrder(locale: Locale, productIds: number[]): Promise<string> {
  const ip = visitorIp();
  const api = jsonApi(base, { "cf-connecting-ip": ip });
  const { guestId } = (await api("/api/cart/generate-guest-id")).body as { guestId: string };
  const guest = { "guest-id": guestId, "content-language": locale };
  for (const productId of productIds) {
    const added = await api("/api/cart/add-product", {
      method: "POST",
      headers: guest,
      body: { productId, quantity: 1 },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }
  const placed = await api("/backend/checkout", {
    method: "POST",
    headers: guest,
    body: {
      idempotency_key: crypto.randomUUID(),
      email: `ship-buyer-${locale}-${Date.now()}@example.com`,
      address: NATIONAL_DELIVERY,
      shipping_method: "standard",
      payment_method: "card",
    },
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const number = String(placed.body.data.number);
  const started = await api(`/backend/payments/${number}/start`, {
    method: "POST",
    headers: guest,
    body: { return_url: `/${locale}/payment-status` },
  });
  expect(started.status).toBe(200);
  const paid = await fetch(`${base}${started.body.data.redirect_url}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base, "cf-connecting-ip": ip },
    body: new URLSearchParams({ card_number: "4242 4242 4242 4242", expiry: "12/39", cvc: "123", action: "pay" }),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  return number;
}

describe("shipping with carriers in the console", () => {
  for (const locale of journeyLocales("ar")) {
    const other = locale === "ar" ? 1 : 0;

    it(
      `(${locale}) an owner adds a carrier rule by region and weight and reads it back`,
      { timeout: 90_000 },
      async () => {
        const { page, context, errors } = await newPage(browser);
        await openConsole(page, base, locale, accounts[`carriers-${locale}`]);
        await page.goto(`${base}/${locale}/admin/settings`);
        const section = page.locator("[data-carriers-settings]");
        await hydrated(page, "[data-carriers-settings] button[type=submit]");
        const before = await section.locator("[data-carrier-rule]").count();
        await section.getByRole("button", { name: msg(locale, "console.carriers.add") }).click();
        const rule = section.locator(`[data-carrier-rule="${before}"]`);
        await rule.getByLabel(REGIONS.riyadh[locale], { exact: true }).check();
        const grams = rule.getByLabel(msg(locale, "console.carriers.upTo"));
        const save = section.getByRole("button", {
          name: msg(locale, "console.settings.save", { section: msg(locale, "console.settings.sections.carriers") }),
        });

        // A weight that is not whole grams is refused on its own field, and the summary takes the focus.
        await grams.fill("5kg");
        await save.click();
        await eventually(() => grams.getAttribute("aria-invalid")).toBe("true");
        expect(await section.locator(".field__error").first().textContent()).toBe(
          msg(locale, "console.carriers.errors.grams", { max: 1_000_000 }),
        );
        expect(await isFocused(page, "[data-carriers-settings] .form__summary")).toBe(true);
        await expectAxeClean(page, `carriers settings refused (${locale})`);

        // Arabic-Indic digits are read as grams too.
        await grams.fill(locale === "ar" ? "٥٠٠٠" : "5000");
        await save.click();
        await eventually(() => page.locator("[data-sonner-toast]").allTextContents()).toEqual(
          expect.arrayContaining([expect.stringContaining(msg(locale, "console.settings.saved"))]),
        );

        // Read back from the backend: the rule, its region and its weight.
        await page.reload();
        await hydrated(page, "[data-carriers-settings] button[type=submit]");
        const saved = section.locator(`[data-carrier-rule="${before}"]`);
        expect(await saved.getByLabel(msg(locale, "console.carriers.upTo")).inputValue()).toBe("5000");
        expect(await saved.getByLabel(REGIONS.riyadh[locale], { exact: true }).isChecked()).toBe(true);
        expect(await saved.getByLabel(REGIONS.makkah[locale], { exact: true }).isChecked()).toBe(false);
        await expectAxeClean(page, `carriers settings (${locale})`);
        await section.screenshot({ path: `${SCREENSHOTS}/console-carriers-${locale}.png` });

        // The rule goes again: the shop's other journeys keep the default carrier's behaviour.
        await saved
          .getByRole("button", {
            name: msg(locale, "console.carriers.remove", {
              rule: msg(locale, "console.carriers.rule", { n: before + 1 }),
            }),
          })
          .click();
        await save.click();
        await eventually(() => page.locator("[data-sonner-toast]").count()).toBeGreaterThan(0);
        await page.reload();
        await hydrated(page, "[data-carriers-settings] button[type=submit]");
        expect(await section.locator("[data-carrier-rule]").count()).toBe(before);
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    it(
      `(${locale}) a manager splits a paid order into two parcels, ships another in bulk, and reads the remittances`,
      { timeout: 150_000 },
      async () => {
        const [first, second, third] = products.slice(other * 3, other * 3 + 3);
        const split = await paidOrder(locale, [first!.id, second!.id]);
        const bulk = await paidOrder(locale, [third!.id]);
        const { page, context, errors } = await newPage(browser);
        await openConsole(page, base, locale, accounts[`ship-${locale}`]);

        // The order's page: both lines left to ship, all units by default.
        await page.goto(`${base}/${locale}/admin/orders/${split}`);
        await hydrated(page, "[data-parcels] form button[type=submit]");
        const panel = page.locator("[data-parcels]");
        expect(await panel.textContent()).toContain(msg(locale, "console.parcels.none"));
        const units = panel.locator('form input[name^="units-"]');
        expect(await units.count()).toBe(2);
        expect(await units.nth(0).inputValue()).toBe("1");
        const create = panel.getByRole("button", { name: msg(locale, "console.parcels.create") });

        // More units than are left is said in the form, which takes the focus.
        await units.nth(0).fill("9");
        await create.click();
        await eventually(() => panel.locator("[data-parcel-error]").textContent()).toBe(
          msg(locale, "console.parcels.errors.units"),
        );
        expect(await isFocused(page, "[data-parcel-error]")).toBe(true);

        // The first line now, the second left for a later parcel (0).
        await units.nth(0).fill("1");
        await units.nth(1).fill("0");
        await create.click();
        await eventually(() => panel.locator("[data-parcel]").count()).toBe(1);
        await eventually(() => isFocused(page, "#order-parcels")).toBe(true);
        await eventually(() => units.count()).toBe(1);
        await expectAxeClean(page, `order parcels, one made (${locale})`);

        // The rest after: two parcels, each with its carrier, waybill and status.
        await create.click();
        await eventually(() => panel.locator("[data-parcel]").count()).toBe(2);
        await eventually(() => panel.locator("form").count()).toBe(0);
        const parcels = panel.locator("[data-parcel]");
        for (const n of [1, 2]) {
          const parcel = parcels.nth(n - 1);
          const text = await parcel.textContent();
          expect(text).toContain(msg(locale, "console.parcels.parcel", { n, count: 2 }));
          expect(text).toContain(msg(locale, "orders.parcels.status.created"));
          expect(text).toContain(locale === "ar" ? "المندوب المحلي" : "Local courier");
          expect((await parcel.locator("[data-waybill]").textContent())?.trim()).toMatch(/\S{6,}/);
          expect(await parcel.locator("h4 + ul li").count()).toBe(1);
          const label = parcel.getByRole("link", { name: msg(locale, "console.parcels.printLabel") });
          expect(await label.getAttribute("href")).toMatch(
            new RegExp(`^/${locale}/admin/shipments/labels\\.pdf\\?ids=\\d+$`),
          );
          expect(await parcel.getByRole("button", { name: msg(locale, "console.parcels.cancel") }).count()).toBe(1);
        }
        // A label opens at the console's address with the staff session's cookie: the backend's PDF
        // (or its words while it renders none), never kept by a cache; without a session, a 404.
        const labelHref = (await parcels
          .nth(0)
          .getByRole("link", { name: msg(locale, "console.parcels.printLabel") })
          .getAttribute("href"))!;
        const label = await page.request.get(`${base}${labelHref}`);
        expect(label.headers()["content-type"]).toMatch(/^(application\/pdf|text\/plain)/);
        expect(label.headers()["cache-control"]).toBe("private, no-store");
        const stranger = await fetch(`${base}${labelHref}`);
        expect(stranger.status).toBe(404);
        expect(stranger.headers.get("content-type")).not.toMatch(/pdf/);

        // The courier's app reports steps: the first parcel picked up at the hub (no longer
        // cancellable), the second in transit with cash paid over for it, which no COD parcel owes.
        const waybills = (await parcels.locator("[data-waybill]").allTextContents()).map((w) => w.trim());
        for (const step of [
          { waybill: waybills[0], status: "picked_up", location: "Riyadh hub" },
          { waybill: waybills[1], status: "in_transit", remit: 1234 },
        ]) {
          const res = await fetch(`${base}/backend/dev/courier`, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json", origin: base },
            body: JSON.stringify(step),
          });
          expect(res.status, await res.text()).toBe(200);
        }
        await page.reload();
        await hydrated(page, "[data-parcels] [data-parcel] a");
        const picked = parcels.nth(0);
        await eventually(() => picked.getAttribute("data-status")).toBe("picked_up");
        const steps = picked.locator(".console-timeline li");
        expect(await steps.count()).toBeGreaterThanOrEqual(1);
        const step = (await steps.last().textContent()) ?? "";
        expect(step).toContain(msg(locale, "orders.parcels.status.picked_up"));
        expect(step).toContain("Riyadh hub");
        expect(await steps.last().locator("code").textContent()).toBe("picked_up");
        expect(await picked.getByRole("button", { name: msg(locale, "console.parcels.cancel") }).count()).toBe(0);
        await expectAxeClean(page, `order parcels (${locale})`);
        await fullPageScreenshot(page, `${SCREENSHOTS}/console-parcels-${locale}.png`);

        // The orders list: tick the other order and create its shipment with the bulk action.
        await page.goto(`${base}/${locale}/admin/orders?search=${bulk}`);
        await hydrated(page, "[data-bulk-ship] button");
        const box = page.getByRole("checkbox", { name: msg(locale, "console.bulkShip.selectOrder", { number: bulk }) });
        await box.check();
        const bar = page.locator("[data-bulk-ship]");
        await eventually(() => bar.textContent()).toContain(msg(locale, "console.bulkShip.chosen.one", { count: 1 }));
        expect(await bar.getByRole("link", { name: msg(locale, "console.bulkShip.labels") }).getAttribute("href")).toBe(
          `/${locale}/admin/shipments/labels.pdf?orders=${bulk}`,
        );
        expect(
          await bar.getByRole("link", { name: msg(locale, "console.bulkShip.pickList") }).getAttribute("href"),
        ).toBe(`/${locale}/admin/shipments/pick-list.pdf?orders=${bulk}`);
        expect(await bar.locator('a[href*="manifest.pdf?carrier=courier&day="]').count()).toBe(1);
        await bar.getByRole("button", { name: msg(locale, "console.bulkShip.create") }).click();
        const result = page.locator(`[data-bulk-results] [data-bulk-result]`);
        await eventually(() => result.count()).toBe(1);
        expect(await result.getAttribute("data-bulk-result")).toBe("ok");
        expect(await result.textContent()).toContain(bulk);
        expect(await isFocused(page, "[data-bulk-results]")).toBe(true);
        await expectAxeClean(page, `orders bulk shipping (${locale})`);
        await fullPageScreenshot(page, `${SCREENSHOTS}/console-bulk-ship-${locale}.png`);

        // The remittances, from the console's navigation.
        await page
          .locator(".console-nav")
          .getByRole("link", { name: msg(locale, "console.nav.remittances") })
          .click();
        await page.waitForURL(`${base}/${locale}/admin/shipments/remittances`);
        await eventually(() => page.locator("h1").textContent()).toBe(msg(locale, "console.remittances.title"));
        expect(await page.locator("[data-remittance-totals] [data-matched]").textContent()).toMatch(/^\d+$/);
        const stray = page.locator("tr", { hasText: waybills[1] });
        expect(await stray.locator("[data-kind]").getAttribute("data-kind")).toBe("unknown");
        expect(await stray.textContent()).toContain("12.34");
        await expectAxeClean(page, `remittances (${locale})`);
        await fullPageScreenshot(page, `${SCREENSHOTS}/console-remittances-${locale}.png`);

        // A carrier's statement as CSV: a file with a bad row is refused whole, its line named; a good one lands.
        const form = page.locator("[data-statement-import]");
        const file = form.getByLabel(msg(locale, "console.remittances.import.file"));
        const csv = (rows: string[]) => ({
          name: "statement.csv",
          mimeType: "text/csv",
          buffer: Buffer.from(["waybill,amount,reference,date", ...rows].join("\n")),
        });
        const paperWaybill = `SQC${String(Date.now()).slice(-10)}`;
        await file.setInputFiles(
          csv([`${paperWaybill},25.00,ST-${locale},2026-12-01`, `${paperWaybill},lots,ST-${locale},2026-12-01`]),
        );
        await form.getByRole("button", { name: msg(locale, "console.remittances.import.submit") }).click();
        await eventually(() => form.locator("[data-statement-errors]").textContent()).toMatch(/3/);
        await eventually(() => isFocused(page, "[data-statement-errors]")).toBe(true);
        expect(await page.locator("tr", { hasText: paperWaybill }).count()).toBe(0);
        await file.setInputFiles(csv([`${paperWaybill},25.00,ST-${locale},2026-12-01`]));
        await form.getByRole("button", { name: msg(locale, "console.remittances.import.submit") }).click();
        await eventually(() => page.locator("tr", { hasText: paperWaybill }).count()).toBe(1);
        expect(
          await page.locator("tr", { hasText: paperWaybill }).locator("[data-kind]").getAttribute("data-kind"),
        ).toBe("unknown");
        await expectAxeClean(page, `remittances import (${locale})`);
        expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
        await context.close();
      },
    );
  }
});
