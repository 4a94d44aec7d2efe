import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { say } from "../support/messages.ts";
import { afterAll, beforeAll, describe, expect } from "vitest";
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
import { newStaffAccounts, openConsole, STAFF_PASSWORD } from "../support/console-browser.ts";
import { builtWorker } from "../support/http.ts";

/**
 * Promo codes, customers and the dashboard in Chromium, in both languages: a manager creates a
 * code, a shopper applies it in the cart, the manager pauses it and the shopper's next try is
 * refused; support opens a customer and the page never holds the customer's full email.
 */
const base = builtWorker().url;
type Locale = (typeof LOCALES)[number];
let browser: Browser;
let products: { id: number; slug: string }[] = [];

const msg = say;

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/** Each test's own staff account, by its label. */
let accounts: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  accounts = await newStaffAccounts(
    base,
    Object.fromEntries(LOCALES.flatMap((l) => [[`promo-${l}`, "manager"] as const, [`cust-${l}`, "support"] as const])),
  );
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=24&sort=newest`, {
    headers: { "content-language": "en" },
  });
  products = (
    (await res.json()) as { data: { id: number; slug: string; stock: number; variant_count?: number }[] }
  ).data.filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 5);
  expect(products.length).toBeGreaterThan(3);
});
afterAll(async () => {
  await browser?.close();
});

/** The page lays out without sideways scrolling at 390 px; a screenshot is kept to look at. */
async function atPhoneWidth(page: Page, name: string): Promise<void> {
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await fullPageScreenshot(page, `${SCREENSHOTS}/${name}-390.png`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, name).toBeLessThanOrEqual(0);
  await page.setViewportSize(size);
}

/** The shopper's cart page with one product in it (added from its page, as a shopper does). */
async function cartWithProduct(page: Page, locale: Locale, slug: string): Promise<void> {
  await page.goto(`${base}/${locale}/product-details/${slug}`);
  await hydrated(page, ".add-to-cart__button");
  await page.locator(".add-to-cart__button").click();
  await eventually(() => page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
  await page.goto(`${base}/${locale}/shopping-cart`);
  await hydrated(page, "#promo-code");
}

const visitor = () =>
  `10.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/** A customer through the shop's API: registered, with a saved address and one order. */
async function customerWithOrder(email: string, name: string, productId: number): Promise<void> {
  const ip = visitor();
  const send = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(`${base}/backend${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "cf-connecting-ip": ip,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { data: { auth_data?: { access_token: string } } };
  };
  const registered = await send("/client/auth/register", {
    name,
    email,
    phone: "",
    password: STAFF_PASSWORD,
    password_confirmation: STAFF_PASSWORD,
  });
  const token = registered.data.auth_data!.access_token;
  await send("/client/addresses", { ...CUSTOMER_ADDRESS, name, is_default: true }, token);
  await send("/cart/add-product", { product_id: productId, quantity: 1 }, token);
  await send(
    "/checkout",
    {
      idempotency_key: crypto.randomUUID(),
      address: { ...CUSTOMER_ADDRESS, name },
      shipping_method: "standard",
      payment_method: "card",
    },
    token,
  );
}

const CUSTOMER_ADDRESS = {
  phone: "+966551234567",
  city: "Riyadh",
  district: "Al Malqa",
  street: "Anas Ibn Malik Road",
  building: "7351",
  postal_code: "13521",
  short_address: "MQZA7351",
};

async function applyCode(page: Page, locale: Locale, code: string): Promise<void> {
  await page.locator("#promo-code").fill(code);
  await page.getByRole("button", { name: msg(locale, "cart.promo.apply") }).click();
}

describe("promo codes, customers and the dashboard in the console", () => {
  for (const [index, locale] of LOCALES.entries()) {
    journeyIt(locale, "ar")(
      `${locale}: a manager creates a code, a shopper applies it, the manager pauses it and the shopper's next try is refused`,
      async () => {
        const manager = accounts[`promo-${locale}`];
        const code = `E2E${locale.toUpperCase()}${Date.now().toString(36).toUpperCase()}`;
        const staff = await newPage(browser);
        const staffPage = staff.page;
        await openConsole(staffPage, base, locale, manager);

        // The dashboard first: the manager sees revenue (and, as everyone, the share delivered on time).
        await eventually(() => staffPage.locator(".console-stat").count()).toBe(7);
        await fullPageScreenshot(staffPage, `${SCREENSHOTS}/console-dashboard-${locale}.png`);
        await expectAxeClean(staffPage, `dashboard ${locale}`);
        await atPhoneWidth(staffPage, `console-dashboard-${locale}`);

        // Promo codes → New code → the form.
        await staffPage.getByRole("link", { name: msg(locale, "console.nav.promoCodes"), exact: true }).click();
        await staffPage.waitForURL(`${base}/${locale}/admin/promo-codes`);
        await hydrated(staffPage, ".console-titlebar a");
        await expectAxeClean(staffPage, `promo codes ${locale}`);
        await staffPage.getByRole("link", { name: msg(locale, "console.promoCodes.new") }).click();
        await staffPage.waitForURL(`${base}/${locale}/admin/promo-codes/new`);
        await hydrated(staffPage, "#f-code");
        // An empty submit names what is missing, on the fields.
        await staffPage.getByRole("button", { name: msg(locale, "console.promoCodes.create") }).click();
        await eventually(() => staffPage.locator("#f-code-error").count()).toBe(1);
        await staffPage.locator("#f-code").fill(code);
        await staffPage.locator("#f-discount_type").selectOption("1");
        // A percentage above 100 is the server's refusal, shown on the field.
        await staffPage.locator("#f-value").fill("150");
        await staffPage.getByRole("button", { name: msg(locale, "console.promoCodes.create") }).click();
        await eventually(() => staffPage.locator("#f-value-error").textContent()).toBe(
          locale === "ar" ? "النسبة المئوية عدد صحيح من 1 إلى 100." : "A percentage is a whole number from 1 to 100.",
        );
        await fullPageScreenshot(staffPage, `${SCREENSHOTS}/console-promo-new-${locale}.png`);
        await staffPage.locator("#f-value").fill("10");
        // A cap typed with Arabic-Indic digits and the Arabic decimal separator is read as riyals.
        await staffPage.locator("#f-max_discount").fill("٤٩٫٥٠");
        await staffPage.getByRole("button", { name: msg(locale, "console.promoCodes.create") }).click();
        await toastSays(staffPage, msg(locale, "console.promoCodes.created"));
        await staffPage.waitForURL(new RegExp(`/${locale}/admin/promo-codes/\\d+$`));
        await eventually(() => staffPage.locator("h1 bdi").textContent()).toBe(code);
        // Stored as 4950 halalas, shown again as the riyals typed.
        await eventually(() => staffPage.locator("#f-max_discount").inputValue()).toBe("49.50");
        await fullPageScreenshot(staffPage, `${SCREENSHOTS}/console-promo-${locale}.png`);
        await expectAxeClean(staffPage, `promo code ${locale}`);
        await atPhoneWidth(staffPage, `console-promo-${locale}`);

        // The shopper applies it in the cart.
        const shopper = await newPage(browser);
        await cartWithProduct(shopper.page, locale, products[index]!.slug);
        await applyCode(shopper.page, locale, code.toLowerCase());
        await eventually(() => shopper.page.locator("#promo-message").getAttribute("class")).toContain(
          "promo__message--valid",
        );

        // The manager pauses it, after confirming.
        await staffPage.getByRole("button", { name: msg(locale, "console.promoCodes.pause"), exact: true }).click();
        const dialog = staffPage.locator("dialog.console-dialog[open]");
        await eventually(() => dialog.count()).toBe(1);
        expect(await dialog.locator("h2").textContent()).toBe(msg(locale, "console.promoCodes.pauseTitle", { code }));
        // Focus starts on Cancel, so a stray Enter never pauses.
        expect(await staffPage.evaluate(() => document.activeElement?.textContent)).toBe(
          msg(locale, "console.actions.cancel"),
        );
        await expectAxeClean(staffPage, `pause dialog ${locale}`);
        await dialog.getByRole("button", { name: msg(locale, "console.promoCodes.pause") }).click();
        await toastSays(staffPage, msg(locale, "console.promoCodes.paused"));
        await eventually(() => staffPage.locator(".console-titlebar .console-badge").textContent()).toBe(
          msg(locale, "console.promoCodes.states.paused"),
        );
        await eventually(() =>
          staffPage.getByRole("button", { name: msg(locale, "console.promoCodes.resume") }).count(),
        ).toBe(1);

        // The shopper's next try is refused.
        await shopper.page.getByRole("button", { name: msg(locale, "cart.promo.remove") }).click();
        await eventually(() =>
          shopper.page.getByRole("button", { name: msg(locale, "cart.promo.apply") }).count(),
        ).toBe(1);
        await applyCode(shopper.page, locale, code);
        await eventually(() => shopper.page.locator("#promo-message").textContent()).toBe(
          locale === "ar" ? "رمز الخصم هذا غير موجود." : "This promo code does not exist.",
        );

        // The list shows it paused; the filter finds it there.
        await staffPage.goto(`${base}/${locale}/admin/promo-codes?status=paused&search=${code}`);
        await eventually(() => staffPage.locator(".console-table tbody").textContent()).toContain(code);
        await fullPageScreenshot(staffPage, `${SCREENSHOTS}/console-promo-codes-${locale}.png`);
        await atPhoneWidth(staffPage, `console-promo-codes-${locale}`);

        expect(staff.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
        await shopper.context.close();
        await staff.context.close();
      },
    );

    journeyIt(locale, "en")(
      `${locale}: support opens a customer and sees the contact data masked, never the full email`,
      async () => {
        const support = accounts[`cust-${locale}`];
        const customer = `customer-${locale}-${Date.now().toString(36)}@example.com`;
        await customerWithOrder(customer, locale === "ar" ? "نورة العتيبي" : "Noura Alotaibi", products[index + 2]!.id);
        const { context, page, errors } = await newPage(browser);
        await openConsole(page, base, locale, support);
        // Support's dashboard: counts and the on-time share, no revenue.
        await eventually(() => page.locator(".console-stat").count()).toBe(5);

        await page.getByRole("link", { name: msg(locale, "console.nav.customers"), exact: true }).click();
        await page.waitForURL(`${base}/${locale}/admin/customers`);
        await hydrated(page, "#customer-search");
        // Part of the email finds nothing for support; the whole of it finds the customer, masked.
        await page.locator("#customer-search").fill(customer.slice(0, 14));
        await page.locator("#customer-search").press("Enter");
        await eventually(() => page.locator(".console-table__empty").count()).toBe(1);
        await page.locator("#customer-search").fill(customer);
        await page.locator("#customer-search").press("Enter");
        const row = page.locator(".console-table tbody tr");
        await eventually(() => row.textContent()).toContain(`${customer[0]}***@e***.com`);
        expect(await row.count()).toBe(1);
        // Nor does support's list sort by email.
        expect(
          await page
            .getByRole("link", {
              name: msg(locale, "console.table.sortBy", { column: msg(locale, "console.customers.email") }),
            })
            .count(),
        ).toBe(0);
        // The search field holds what support typed; the table never the customer's email.
        expect(await page.locator(".console-table").innerHTML()).not.toContain(customer);
        await fullPageScreenshot(page, `${SCREENSHOTS}/console-customers-support-${locale}.png`);
        await expectAxeClean(page, `customers ${locale}`);

        await row.getByRole("link").click();
        await page.waitForURL(new RegExp(`/${locale}/admin/customers/\\d+$`));
        await eventually(() => page.locator(".console-facts").textContent()).toContain(`${customer[0]}***@e***.com`);
        expect(await page.content()).not.toContain(customer);
        // Nor does a fresh load of the page carry it anywhere (the server's HTML and its data).
        const html = await (await page.request.get(page.url())).text();
        expect(html).toContain(`${customer[0]}***@e***.com`);
        expect(html).not.toContain(customer);
        for (const secret of [CUSTOMER_ADDRESS.street, CUSTOMER_ADDRESS.short_address, CUSTOMER_ADDRESS.phone]) {
          expect(html).not.toContain(secret);
          expect(await page.content()).not.toContain(secret);
        }
        // The city and the order stay readable.
        expect(await page.locator(".console-card address").textContent()).toContain(CUSTOMER_ADDRESS.city);
        expect(await page.locator('section[aria-labelledby="customer-orders"] tbody tr').count()).toBe(1);
        expect(await page.locator("[role=note]").textContent()).toBe(msg(locale, "console.customers.maskedNote"));
        await fullPageScreenshot(page, `${SCREENSHOTS}/console-customer-support-${locale}.png`);
        await expectAxeClean(page, `customer ${locale}`);
        await atPhoneWidth(page, `console-customer-support-${locale}`);
        expect(errors).toEqual([]);
        await context.close();
      },
    );
  }
});
