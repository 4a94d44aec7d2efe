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
import { startExtraWorker, TEST_VARS, visitorIp } from "../support/http.ts";
import type { RunningWorker } from "../../scripts/lib/worker.ts";

/**
 * Back-in-stock alerts in Chromium, in both languages (the message's language is the point): a
 * shopper asks to be told on a sold-out variant; the console's inventory page shows one waiting;
 * staff record a delivery there; the outbox then holds exactly one message, in the shopper's
 * language, with the link to that variant; a second delivery sends nothing more. The form and the
 * console's column are axe clean and photographed in both directions. A shop of its own, since
 * its stock moves.
 */
const MESSAGES = { en, ar } as const;
type Locale = (typeof LOCALES)[number];

function msg(locale: Locale, key: string, params: Record<string, string | number> = {}): string {
  const value = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], MESSAGES[locale]);
  if (typeof value !== "string") throw new Error(`missing message ${key} in ${locale}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ""));
}

const eventually = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 250 });

let browser: Browser;
let shop: { worker: RunningWorker; stop: () => void };
let staff: Record<string, string>;
let bearer: Record<string, string>;

interface Variant {
  id: number;
  sku: string;
  stock: number;
  options: Record<string, string>;
}
interface Product {
  id: number;
  slug: string;
  name: string;
  variants: Variant[];
}
/** Each journey's own product of several variants, by locale. */
const products = new Map<Locale, Product>();
/** The SMS journey's own product. */
let smsProduct: Product;

const base = () => shop.worker.url;

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
  const res = await fetch(`${base()}/backend${path}`, {
    method,
    headers: bearer,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T };
  return { status: res.status, data: json.data };
}

interface Sent {
  purpose: string;
  code: string;
  lang: string;
  subject: string | null;
  text: string | null;
}

async function outbox(to: string): Promise<Sent[]> {
  const res = await fetch(`${base()}/backend/dev/outbox?to=${encodeURIComponent(to)}`, {
    headers: { accept: "application/json" },
  });
  return ((await res.json()) as { data: Sent[] }).data;
}

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const { worker, stop, persistDir } = await startExtraWorker(TEST_VARS, { database: "seeded" });
  shop = { worker, stop };
  staff = await newStaffAccounts(
    worker.url,
    Object.fromEntries([["api", "manager"], ...LOCALES.map((l) => [l, "manager"])]),
    persistDir,
  );
  const { token } = await consoleHttpSession(worker.url, staff.api);
  bearer = {
    "content-type": "application/json",
    accept: "application/json",
    authorization: `Bearer ${token}`,
    "cf-connecting-ip": visitorIp(),
  };
  // Two products of several variants, one per journey; each journey sells out one variant of its own.
  const list = await fetch(`${worker.url}/backend/products?per_page=48`, { headers: { "content-language": "en" } });
  const several = ((await list.json()) as { data: { slug: string; variant_count?: number }[] }).data.filter(
    (p) => (p.variant_count ?? 1) > 1,
  );
  expect(several.length).toBeGreaterThanOrEqual(LOCALES.length + 1);
  for (const [i, locale] of LOCALES.entries()) {
    const res = await fetch(`${worker.url}/backend/products/${several[i]!.slug}`, {
      headers: { "content-language": locale, "cache-control": "no-cache" },
    });
    products.set(locale, ((await res.json()) as { data: Product }).data);
  }
  const res = await fetch(`${worker.url}/backend/products/${several[LOCALES.length]!.slug}`, {
    headers: { "cache-control": "no-cache" },
  });
  smsProduct = ((await res.json()) as { data: Product }).data;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  shop?.stop();
});

/** Sets a variant's stock by a count in the console's API (the ledger's way). */
async function count(product: Product, variant: Variant, counted: number): Promise<void> {
  const res = await api("POST", "/admin/inventory/adjustments", {
    product_id: product.id,
    variant_id: variant.id,
    reason: "count",
    counted,
  });
  expect(res.status).toBe(201);
}

/** The row of the console's waiting table for a SKU. */
const waitingRow = (page: Page, sku: string) =>
  page.locator("section[aria-labelledby=stock-waiting] tbody tr", { hasText: sku });

describe("back-in-stock alerts", () => {
  for (const locale of LOCALES) {
    it(
      `(${locale}) a shopper subscribes on a sold-out variant; staff restock it in the console; one message, in ${locale}`,
      { timeout: 150_000 },
      async () => {
        const product = products.get(locale)!;
        const variant = product.variants[product.variants.length - 1]!;
        await count(product, variant, 0);
        const query = new URLSearchParams(variant.options).toString();
        const email = `alert-${locale}-${Date.now().toString(36)}@example.com`;

        // The shopper, on the sold-out variant's page.
        const shopper = await newPage(browser);
        const { page } = shopper;
        await page.goto(`${base()}/${locale}/product-details/${product.slug}?${query}`);
        await hydrated(page, ".stock-alert__toggle");
        const toggle = page.getByRole("button", { name: msg(locale, "stockAlerts.notify"), exact: true });
        expect(await toggle.getAttribute("aria-expanded")).toBe("false");
        await toggle.click();
        await eventually(() => page.locator("#stock-alert-email").count()).toBe(1);
        expect(await toggle.getAttribute("aria-expanded")).toBe("true");
        // Focus moves into the form: its first choice.
        await eventually(() =>
          page.evaluate(() => document.activeElement?.closest(".stock-alert__form") !== null),
        ).toBe(true);
        await page.getByLabel(msg(locale, "stockAlerts.emailLabel"), { exact: true }).fill(email);
        await expectAxeClean(page, `stock alert form ${locale}`);
        await page.locator(".stock-alert__panel").screenshot({ path: `${SCREENSHOTS}/stock-alert-form-${locale}.png` });
        await fullPageScreenshot(page, `${SCREENSHOTS}/stock-alert-page-${locale}.png`);

        // A bad address is refused next to the field, in the page's language.
        await page.getByLabel(msg(locale, "stockAlerts.emailLabel"), { exact: true }).fill("not-an-email");
        await page.getByRole("button", { name: msg(locale, "stockAlerts.submit"), exact: true }).click();
        await eventually(() => page.locator("#stock-alert-email").getAttribute("aria-invalid")).toBe("true");
        expect(await page.locator("#stock-alert-email-error").textContent()).toBeTruthy();

        await page.getByLabel(msg(locale, "stockAlerts.emailLabel"), { exact: true }).fill(email);
        await page.getByRole("button", { name: msg(locale, "stockAlerts.submit"), exact: true }).click();
        const done = page.getByRole("status").filter({ hasText: msg(locale, "stockAlerts.done") });
        await eventually(() => done.count()).toBe(1);
        await eventually(() => page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("status");
        await page.locator(".stock-alert__panel").screenshot({ path: `${SCREENSHOTS}/stock-alert-done-${locale}.png` });
        // The refused POST's 422 is the browser's only complaint.
        expect(shopper.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
        await shopper.context.close();

        // Staff see one shopper waiting for that variant, then record a delivery of it.
        const desk = await newPage(browser);
        await openConsole(desk.page, base(), locale, staff[locale]!);
        // The product's own page says who waits for which of its variants.
        await desk.page.goto(`${base()}/${locale}/admin/products/${product.id}`);
        const productWaiting = desk.page.locator("section[aria-labelledby=product-waiting] tbody tr", {
          hasText: variant.sku,
        });
        await eventually(() => productWaiting.count()).toBe(1);
        await desk.page.goto(`${base()}/${locale}/admin/inventory`);
        await hydrated(desk.page, "#stock-find");
        const row = waitingRow(desk.page, variant.sku);
        await eventually(() => row.count()).toBe(1);
        const cells = await row.locator("td").allTextContents();
        // SKU, product, waiting, email, SMS (the console writes Latin digits in both languages).
        expect(cells.slice(2, 5)).toEqual(["1", "1", "0"]);
        await expectAxeClean(desk.page, `inventory with waiting ${locale}`);
        await desk.page
          .locator("section[aria-labelledby=stock-waiting]")
          .screenshot({ path: `${SCREENSHOTS}/stock-alert-console-${locale}.png` });

        await row.getByRole("button").click();
        await eventually(() => desk.page.locator(".stock-chosen").textContent()).toContain(variant.sku);
        await desk.page.locator("#f-reason").selectOption("received");
        await desk.page.locator("#f-delta").fill("5");
        await desk.page.getByRole("button", { name: msg(locale, "console.inventory.record") }).click();
        // Recorded (a reload before the answer would abandon the request), and then told: no one
        // waits for it any more.
        await toastSays(desk.page, msg(locale, "console.inventory.recorded", { stock: "" }).split(":")[0]!);
        await desk.page.reload();
        await hydrated(desk.page, "#stock-find");
        await eventually(() => waitingRow(desk.page, variant.sku).count()).toBe(0);
        await desk.context.close();

        // Exactly one message, in the shopper's language, linking the variant's page.
        const alerts = async () => (await outbox(email)).filter((m) => m.purpose === "shopper.stock_alert");
        await eventually(async () => (await alerts()).length).toBe(1);
        const [sent] = await alerts();
        expect(sent!.lang).toBe(locale);
        expect(sent!.subject).toContain(product.name);
        expect(sent!.text).toContain(`/${locale}/product-details/${product.slug}?${query}`);
        expect(sent!.text).toContain(`/${locale}/unsubscribe?topic=stock_alert`);

        // Another delivery: nothing more is sent.
        await count(product, variant, 9);
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        expect(await alerts()).toHaveLength(1);
      },
    );
  }

  for (const locale of LOCALES) {
    journeyIt(locale, "ar")(
      `(${locale}) by SMS: the phone gets a code, the form asks for it and then confirms`,
      { timeout: 90_000 },
      async () => {
        const product = smsProduct;
        // A variant of each locale's own, as E2E_LOCALES=both runs this journey twice.
        const variant = product.variants[LOCALES.indexOf(locale)]!;
        await count(product, variant, 0);
        const query = new URLSearchParams(variant.options).toString();
        const national = `5${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
        const { context, page, errors } = await newPage(browser);
        await page.goto(`${base()}/${locale}/product-details/${product.slug}?${query}`);
        await hydrated(page, ".stock-alert__toggle");
        await page.getByRole("button", { name: msg(locale, "stockAlerts.notify"), exact: true }).click();
        await page.getByRole("radio", { name: msg(locale, "stockAlerts.channels.sms"), exact: true }).check();
        await eventually(() => page.locator("input#stock-alert-phone:not([readonly])").count()).toBe(1);
        await page.locator("#stock-alert-phone").fill(national);
        await page.getByRole("button", { name: msg(locale, "stockAlerts.submit"), exact: true }).click();
        // The code step: its field takes focus.
        await eventually(() => page.evaluate(() => document.activeElement?.id)).toBe("stock-alert-code");
        await expectAxeClean(page, `stock alert code ${locale}`);
        await page.locator(".stock-alert__panel").screenshot({ path: `${SCREENSHOTS}/stock-alert-sms-${locale}.png` });
        const phone = `+966${national}`;
        let code = "";
        await eventually(async () => {
          code = (await outbox(phone)).find((m) => m.purpose === "stock_alert")?.code ?? "";
          return code;
        }).toMatch(/^\d{6}$/);
        await page.locator("#stock-alert-code").fill(code);
        await page.getByRole("button", { name: msg(locale, "stockAlerts.confirm"), exact: true }).click();
        await eventually(() =>
          page
            .getByRole("status")
            .filter({ hasText: msg(locale, "stockAlerts.done") })
            .count(),
        ).toBe(1);
        expect(errors).toEqual([]);
        await context.close();
      },
    );
  }
});
