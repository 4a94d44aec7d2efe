import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { expectAxeClean } from "../support/axe.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyIt,
  launchBrowser,
  LOCALES,
  networkQuiet,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import { fillNewAddress, msg } from "../support/checkout-browser.ts";
import { builtWorker, NATIONAL_DELIVERY, visitorIp } from "../support/http.ts";
import { withLocalD1 } from "../support/local-d1.ts";
import mailAr from "../../worker/backend/messages/ar.json" with { type: "json" };
import mailEn from "../../worker/backend/messages/en.json" with { type: "json" };

const MAIL = { en: mailEn, ar: mailAr } as const;

/**
 * Cart reminders in Chromium, in both languages. A guest fills a cart, types an email at
 * checkout, ticks the reminder box (never ticked for them) and leaves; the clock moves on (the
 * cart's last change set back in D1, the cron fired) and exactly one reminder reaches the outbox,
 * in the guest's language; its link opened in a fresh browser with no cookies brings back the same
 * lines and quantities; the guest orders from there and no second reminder follows. A guest who
 * did not tick gets none.
 */
const base = builtWorker().url;
const persistDir = builtWorker().persistDir;
type Locale = (typeof LOCALES)[number];
let browser: Browser;
let products: { id: number; slug: string }[] = [];

const eventually = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 200 });

function sql(command: string, ...args: (string | number)[]): void {
  withLocalD1(persistDir, (db) => db.prepare(command).run(...args));
}
function one<T>(query: string, ...args: (string | number)[]): T | undefined {
  return withLocalD1(persistDir, (db) => db.prepare(query).get(...args) as T | undefined);
}

const fireCron = () => fetch(`${base}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`);

interface OutboxMessage {
  purpose: string;
  text: string;
  subject: string | null;
  lang?: string;
}
async function outbox(to: string): Promise<OutboxMessage[]> {
  const res = await fetch(`${base}/backend/dev/outbox?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as { data: OutboxMessage[] }).data.filter((m) => m.purpose === "shopper.cart_reminder");
}

/** The clock moves on: the cart was last changed `hours` ago, anything it has queued is due, the cron runs. */
async function timePasses(cartId: number, hours: number): Promise<void> {
  sql(
    "UPDATE carts SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?) WHERE id = ?",
    `-${Math.round(hours * 60)} minutes`,
    cartId,
  );
  await fireCron();
  // Quiet hours may have pushed it: its time has come.
  sql(
    "UPDATE shopper_messages SET due_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 minute') WHERE status = 'queued' AND substr(key, 1, length(?1)) = ?1",
    `cart_reminder:${cartId}:`,
  );
  await fireCron();
}

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=48&sort=newest`, {
    headers: { "content-language": "en" },
  });
  const body = (await res.json()) as {
    data: { id: number; slug: string; stock: number; max_per_order: number; variant_count?: number }[];
  };
  products = body.data.filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 10 && p.max_per_order >= 3);
  expect(products.length).toBeGreaterThanOrEqual(8);
});
afterAll(async () => {
  await browser?.close();
});

async function addFromProductPage(page: Page, locale: Locale, slug: string, id: number): Promise<void> {
  await page.goto(`${base}/${locale}/product-details/${slug}`);
  await hydrated(page, ".add-to-cart__button");
  await page.locator(".add-to-cart__button").click();
  await eventually(() => page.locator(`#cart-drawer [data-product-id="${id}"]`).count()).toBe(1);
  await page.keyboard.press("Escape");
}

/** The cart page's lines as product id → quantity. */
async function cartLines(page: Page): Promise<Record<string, string>> {
  const lines = page.locator(".cart-page__lines .cart-line");
  const out: Record<string, string> = {};
  for (let i = 0; i < (await lines.count()); i++) {
    const line = lines.nth(i);
    out[(await line.getAttribute("data-product-id"))!] = await line.locator(".stepper__input").inputValue();
  }
  return out;
}

/** A guest's cart of two products (two of the first) and the checkout with their email typed. */
async function checkoutWithCart(locale: Locale, pair: { id: number; slug: string }[], email: string) {
  const opened = await newPage(browser);
  const { page } = opened;
  page.on("pageerror", (e) => console.error(`page error at ${page.url()}: ${String(e)}`));
  for (const p of pair) await addFromProductPage(page, locale, p.slug, p.id);
  await page.goto(`${base}/${locale}/shopping-cart`);
  await hydrated(page, ".cart-page__lines");
  const first = page.locator(`.cart-page__lines [data-product-id="${pair[0]!.id}"]`);
  await first.locator(".stepper__input").fill("2");
  await first.locator(".stepper__input").press("Tab");
  await eventually(() => first.locator(".stepper__input").inputValue()).toBe("2");
  await networkQuiet(page);
  const lines = await cartLines(page);
  await page.goto(`${base}/${locale}/checkout`);
  await eventually(() => page.locator('input[name="shipping_method"]').count()).toBeGreaterThan(0);
  await fillNewAddress(page, locale, { email, name: locale === "ar" ? "سارة أحمد" : "Sara Ahmed" });
  const guestId = (await page.evaluate(() => sessionStorage.getItem("guestId")))!;
  const cartId = one<{ id: number }>("SELECT id FROM carts WHERE guest_id = ?", guestId)!.id;
  return { ...opened, lines, cartId };
}

describe("cart reminders in Chromium", () => {
  for (const [index, locale] of LOCALES.entries()) {
    journeyIt(locale, "ar")(
      `${locale}: a guest who ticks the box at checkout gets one reminder whose link restores the cart in a fresh browser, and none after ordering`,
      { timeout: 150_000 },
      async () => {
        const email = `left-${locale}-${Date.now()}@example.com`;
        const pair = products.slice(index * 4, index * 4 + 2);
        const { context, page, lines, cartId } = await checkoutWithCart(locale, pair, email);
        expect(lines).toEqual({ [pair[0]!.id]: "2", [pair[1]!.id]: "1" });

        // Asked apart from the order, in the words the consent log keeps, never ticked for them.
        const box = page.getByRole("checkbox", { name: msg(locale, "consents.cart_reminders") });
        await eventually(() => box.count()).toBe(1);
        expect(await box.isChecked()).toBe(false);
        await page.locator(".checkout__reminder").scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SCREENSHOTS}/cart-reminder-checkout-${locale}.png` });
        await expectAxeClean(page, `checkout with the reminder box, ${locale}`);
        await box.check();
        await eventually(() => page.locator(".checkout__reminder [role=status]").textContent()).toBe(
          msg(locale, "cartReminders.checkout.saved"),
        );
        const consent = one<{ granted: number; source: string; lang: string }>(
          "SELECT c.granted, c.source, c.lang FROM consents c JOIN cart_contacts cc ON cc.recipient_hash = c.recipient_hash WHERE cc.cart_id = ? ORDER BY c.id DESC LIMIT 1",
          cartId,
        );
        expect(consent).toEqual({ granted: 1, source: "checkout", lang: locale });
        // The guest leaves.
        await context.close();

        // Not yet: the cart was left a moment ago.
        await fireCron();
        expect(await outbox(email)).toEqual([]);
        await timePasses(cartId, 4);
        await eventually(async () => (await outbox(email)).length).toBe(1);
        const [reminder] = await outbox(email);
        // In the guest's language.
        expect(reminder!.subject).toBe(MAIL[locale].mail.shopper.cart_reminder.subject);
        const link = reminder!.text.match(/https?:\/\/\S+\/cart\/restore\/[0-9a-f]{64}/)?.[0];
        expect(link, reminder!.text).toBeTruthy();
        const path = new URL(link!).pathname;
        expect(path.startsWith(`/${locale}/cart/restore/`)).toBe(true);

        // A fresh browser, no cookies, no storage: the link brings the same lines back.
        const fresh = await newPage(browser);
        await fresh.page.goto(`${base}${path}`);
        await fresh.page.waitForURL(`${base}/${locale}/shopping-cart`, { timeout: 20_000 });
        await hydrated(fresh.page, ".cart-page__lines");
        await eventually(() => fresh.page.locator(".cart-restored").textContent()).toContain(
          msg(locale, "cartReminders.restored.title"),
        );
        await eventually(() => cartLines(fresh.page)).toEqual(lines);
        await fullPageScreenshot(fresh.page, `${SCREENSHOTS}/cart-reminder-restored-${locale}.png`);
        await expectAxeClean(fresh.page, `restored cart, ${locale}`);

        // The guest orders from the restored cart (through the API with that browser's guest id).
        const guestId = (await fresh.page.evaluate(() => sessionStorage.getItem("guestId")))!;
        const placed = await fetch(`${base}/backend/checkout`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "content-language": locale,
            "guest-id": guestId,
            "cf-connecting-ip": visitorIp(),
          },
          body: JSON.stringify({
            idempotency_key: crypto.randomUUID(),
            email,
            address: NATIONAL_DELIVERY,
            shipping_method: "standard",
            payment_method: "card",
          }),
        });
        expect(placed.status, await placed.clone().text()).toBe(201);
        await fresh.context.close();

        // A day later the left cart would owe its second reminder: the order ended them.
        await timePasses(cartId, 25);
        await fireCron();
        expect(await outbox(email)).toHaveLength(1);
      },
    );

    journeyIt(locale, "en")(
      `${locale}: a guest who does not tick the box gets no reminder`,
      { timeout: 90_000 },
      async () => {
        const email = `silent-${locale}-${Date.now()}@example.com`;
        const pair = products.slice(index * 4 + 2, index * 4 + 4);
        const { context, page, cartId } = await checkoutWithCart(locale, pair, email);
        await eventually(() =>
          page.getByRole("checkbox", { name: msg(locale, "consents.cart_reminders") }).count(),
        ).toBe(1);
        await context.close();
        await timePasses(cartId, 30);
        await fireCron();
        expect(await outbox(email)).toEqual([]);
        expect(one("SELECT 1 AS x FROM cart_reminders WHERE cart_id = ?", cartId)).toBeUndefined();
      },
    );
  }
});
