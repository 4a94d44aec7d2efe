import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningWorker } from "../../scripts/lib/worker.ts";
import { expectAxeClean } from "../support/axe.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyLocales,
  launchBrowser,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import { msg } from "../support/checkout-browser.ts";
import { newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { buyThroughCheckout, startExtraWorker, TEST_VARS, visitorIp } from "../support/http.ts";

/**
 * E-invoicing from the console, in Chromium: an owner onboards the shop's unit with ZATCA (the
 * offline stand-in of the developer portal) in three steps: registers it (a bad commercial
 * registration number is refused on its field first), enters the portal's one-time password (a
 * wrong one is refused with ZATCA's words) and sees the six compliance checks passed, then gets
 * the production certificate. A paid order's invoice then shows up among the documents, reported,
 * with its XML; a manager sees the same page without the owner's forms.
 *
 * The unit is one per shop, so each locale onboards on a worker (and database) of its own.
 */
type Locale = "en" | "ar";

const REGISTRATION = {
  branch: "Riyadh online store",
  industry: "Retail",
  street: "King Fahd Road",
  building_number: "٢٣٤٥",
  additional_number: "6789",
  district: "Al Olaya",
  city: "Riyadh",
  postal_code: "12214",
};

let browser: Browser;
const shops = new Map<Locale, { worker: RunningWorker; stop: () => void; accounts: Record<string, string> }>();

const eventually = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 200 });
const focusedInside = (page: Page, selector: string) =>
  page.evaluate((sel) => document.activeElement?.closest(sel) !== null, selector);

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  await Promise.all(
    journeyLocales("ar").map(async (locale) => {
      const { worker, stop, persistDir } = await startExtraWorker(TEST_VARS, { database: "seeded" });
      const accounts = await newStaffAccounts(worker.url, { owner: "owner", manager: "manager" }, persistDir);
      shops.set(locale, { worker, stop, accounts });
    }),
  );
}, 180_000);

afterAll(async () => {
  await browser?.close();
  for (const shop of shops.values()) shop.stop();
});

/** A product of one variant in stock, for a paid order. */
async function aProduct(base: string): Promise<number> {
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=24`, { headers: { "content-language": "en" } });
  const { data } = (await res.json()) as { data: { id: number; stock: number; variant_count?: number }[] };
  return data.find((p) => (p.variant_count ?? 1) === 1 && p.stock >= 2)!.id;
}

describe("e-invoicing in the console", () => {
  for (const locale of journeyLocales("ar")) {
    const t = (key: string, params?: Record<string, string | number>) =>
      msg(locale, `console.einvoicing.${key}`, params);

    it(
      `(${locale}) an owner registers the unit, passes the compliance checks and goes to production; a paid order is reported`,
      { timeout: 180_000 },
      async () => {
        const { worker, accounts } = shops.get(locale)!;
        const base = worker.url;
        const { page, context, errors } = await newPage(browser);
        await openConsole(page, base, locale, accounts.owner);

        // The console's navigation leads to the page.
        const navLink = page.locator(".console-nav").getByRole("link", { name: msg(locale, "console.nav.einvoicing") });
        await navLink.click();
        await page.waitForURL(`${base}/${locale}/admin/einvoicing`);
        await expect.poll(() => navLink.getAttribute("aria-current")).toBe("page");
        const status = page.locator("[data-einvoice-status]");
        await expect.poll(() => status.getAttribute("data-einvoice-status")).toBe("unregistered");
        expect(await page.locator('.einv-steps [aria-current="step"]').getAttribute("data-step")).toBe("register");
        expect(await page.locator("[data-environment]").getAttribute("data-environment")).toBe("developer-portal");

        // Step 1: a commercial registration number of 5 digits is refused on its field, the summary focused.
        const register = page.locator('[data-step-panel="register"]');
        await hydrated(page, '[data-step-panel="register"] button[type=submit]');
        const field = (key: string) =>
          register.getByLabel(msg(locale, `console.einvoicing.fields.${key}`), { exact: false });
        await field("crn").fill("12345");
        for (const [key, value] of Object.entries(REGISTRATION)) await field(key).fill(value);
        await register.getByRole("button", { name: t("register.submit") }).click();
        await eventually(() => register.locator(".field__error").first().textContent()).toBe(t("errors.crn"));
        expect(await register.locator(".field__error").count()).toBe(1);
        await eventually(() => focusedInside(page, ".form__summary")).toBe(true);
        await fullPageScreenshot(page, `${SCREENSHOTS}/console-einvoicing-register-${locale}.png`);

        await field("crn").fill("1010123456");
        await register.getByRole("button", { name: t("register.submit") }).click();
        await eventually(() => status.getAttribute("data-einvoice-status")).toBe("registered");
        await eventually(() => page.locator("[data-einvoice-status] dd bdi").first().textContent()).toMatch(
          /^1-SouqEdge\|2-Workers\|3-/,
        );

        // Step 2: a wrong one-time password gets ZATCA's refusal in the focused summary; 123345 passes.
        const compliance = page.locator('[data-step-panel="compliance"]');
        await hydrated(page, '[data-step-panel="compliance"] button[type=submit]');
        expect(await compliance.textContent()).toContain("fatoora.zatca.gov.sa");
        const otp = compliance.getByLabel(t("otp"), { exact: false });
        await otp.fill("111111");
        await compliance.getByRole("button", { name: t("compliance.submit") }).click();
        await eventually(() => compliance.locator(".form__summary").count()).toBe(1);
        expect((await compliance.locator(".form__summary").textContent())?.length).toBeGreaterThan(0);
        await eventually(() => focusedInside(page, '[data-step-panel="compliance"] .form__summary')).toBe(true);
        expect(await status.getAttribute("data-einvoice-status")).toBe("registered");

        await otp.fill("123345");
        await compliance.getByRole("button", { name: t("compliance.submit") }).click();
        await eventually(() => status.getAttribute("data-einvoice-status"), 60_000).toBe("compliance");
        const checks = compliance.locator("[data-compliance-checks] li");
        expect(await checks.count()).toBe(6);
        await eventually(() => compliance.locator('[data-compliance-checks] li[data-passed="true"]').count()).toBe(6);
        expect(await compliance.locator("[data-compliance-checks]").textContent()).toContain(
          t("samples.simplified_debit_note"),
        );
        expect(await page.locator('.einv-steps [aria-current="step"]').getAttribute("data-step")).toBe("production");
        await fullPageScreenshot(page, `${SCREENSHOTS}/console-einvoicing-compliance-${locale}.png`);

        // Step 3: the production certificate; then the renewal form, the certificate's expiry, no warning.
        const production = page.locator('[data-step-panel="production"]');
        await hydrated(page, '[data-step-panel="production"] button[type=submit]');
        await production.getByRole("button", { name: t("production.submit") }).click();
        await eventually(() => status.getAttribute("data-einvoice-status"), 30_000).toBe("production");
        await production.locator("[data-in-production]").waitFor();
        expect(await page.locator('.einv-steps [data-state="done"]').count()).toBe(3);
        expect(await page.locator('.einv-steps [aria-current="step"]').count()).toBe(0);
        expect(
          Number(await page.locator("[data-certificate-days]").getAttribute("data-certificate-days")),
        ).toBeGreaterThan(30);
        expect(await page.locator("[data-certificate-warning]").count()).toBe(0);
        expect(await production.getByRole("button", { name: t("renew.submit") }).count()).toBe(1);

        // A paid order's invoice is signed, chained and reported: it shows up among the documents.
        const order = await buyThroughCheckout(base, await aProduct(base), 1, visitorIp(), { locale });
        await order.pay();
        const row = page.locator("[data-einvoice-documents] tbody tr", {
          has: page.locator(`a[href="/${locale}/admin/orders/${order.number}"]`),
        });
        // The cron's minute stamps what waits and reports it (wrangler's test trigger fires it now).
        await eventually(async () => {
          await fetch(`${base}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`);
          await page.reload();
          return (await row.count()) ? row.locator("[data-status]").getAttribute("data-status") : null;
        }, 60_000).toBe("reported");
        expect(await row.locator("[data-status]").textContent()).toBe(t("statuses.reported"));
        expect(await row.textContent()).toContain(t("samples.simplified_invoice"));
        expect(
          Number(await page.locator('[data-count="reported"] .console-stat__value').textContent()),
        ).toBeGreaterThanOrEqual(1);

        // Its XML opens through the console's own session (the tab's link carries no token).
        const xmlHref = await row.getByRole("link", { name: "XML", exact: false }).getAttribute("href");
        expect(xmlHref).toMatch(new RegExp(`^/${locale}/admin/einvoicing/documents/\\d+/xml$`));
        const xml = await context.request.get(`${base}${xmlHref}`);
        expect(xml.status()).toBe(200);
        expect(xml.headers()["content-type"]).toContain("xml");
        expect(await xml.text()).toContain("<Invoice");

        await hydrated(page, '[data-step-panel="production"] button[type=submit]');
        await fullPageScreenshot(page, `${SCREENSHOTS}/console-einvoicing-production-${locale}.png`);
        await expectAxeClean(page, `/${locale}/admin/einvoicing (production)`);
        // The wrong one-time password's 422 is the one failed request the browser reports.
        expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
        await context.close();
      },
    );

    it(
      `(${locale}) a manager reads the unit and its documents without the owner's forms, and raises an order's total with a debit note`,
      { timeout: 150_000 },
      async () => {
        const { worker, accounts } = shops.get(locale)!;
        const base = worker.url;
        const { page, context, errors } = await newPage(browser);
        await openConsole(page, base, locale, accounts.manager);
        await page.goto(`${base}/${locale}/admin/einvoicing`);
        await hydrated(page, ".console-nav a[href]");
        expect(await page.locator("h1").textContent()).toBe(t("title"));
        expect(await page.locator(".notice--info").textContent()).toBe(t("ownerOnly"));
        expect(await page.locator("[data-step-panel] form").count()).toBe(0);
        await page.locator("[data-einvoice-documents]").waitFor();
        await expectAxeClean(page, `/${locale}/admin/einvoicing (manager)`);

        // The manager raises a paid order's total: an empty reason is refused on its field, then
        // the debit note is issued, listed with the order's documents, and opens as a debit note.
        const order = await buyThroughCheckout(base, await aProduct(base), 1, visitorIp(), { locale });
        await order.pay();
        await page.goto(`${base}/${locale}/admin/orders/${order.number}`);
        const debit = page.locator("[data-debit-note]");
        await hydrated(page, "[data-debit-note] button[type=submit]");
        await debit.locator("summary").click();
        await debit.getByLabel(msg(locale, "console.debitNote.amount")).fill(locale === "ar" ? "٢٣٫٥٠" : "23.50");
        await debit.getByRole("button", { name: msg(locale, "console.debitNote.submit") }).click();
        await eventually(() => debit.locator(".field__error").textContent()).toBe(
          msg(locale, "console.debitNote.reasonRequired"),
        );
        await debit.getByLabel(msg(locale, "console.debitNote.reason")).fill("Redelivery fee");
        await debit.getByRole("button", { name: msg(locale, "console.debitNote.submit") }).click();
        const link = page.locator("[data-order-documents] a", { hasText: msg(locale, "console.orderDocs.debitNote") });
        await eventually(() => link.count()).toBe(1);
        await expectAxeClean(page, `/${locale}/admin/orders/:number (debit note)`);
        await link.click();
        await page.waitForURL(new RegExp(`/${locale}/admin/orders/${order.number}/debit-notes/\\d+$`));
        await eventually(() => page.locator(".tax-doc").textContent()).toContain("Redelivery fee");
        expect(await page.locator(".tax-doc").textContent()).toContain("23.50");
        expect(errors).toEqual([]);
        await context.close();
      },
    );
  }
});
