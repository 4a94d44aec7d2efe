import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { shopMoment, SHOP_TIME_LABEL } from "../../contract/shop-time.ts";
import {
  hydrated,
  journeyLocales,
  launchBrowser,
  LOCALES,
  SCREENSHOTS,
  takeHydrationFailures,
  withoutServiceWorkers,
} from "../support/browser.ts";
import { consoleHttpSession, newStaffAccounts } from "../support/console-browser.ts";
import { backendJson, builtWorker, visitorIp } from "../support/http.ts";

/**
 * Dates and times on the shop's clock, whatever the reader's: an owner who also shops opens the
 * console's orders list, the order and the audit log, and their own orders, in a browser set to
 * Riyadh and in one set to UTC. The page the server sent (read with JavaScript off) and the page
 * after hydration say the same, in Riyadh time with the zone named, and React finds nothing to
 * repair (the check after every test, test/support/browser.ts).
 */
const base = builtWorker().url;
let browser: Browser;
let accounts: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  accounts = await newStaffAccounts(base, Object.fromEntries(LOCALES.map((l) => [`time-${l}`, "owner"] as const)));
});
afterAll(async () => {
  await browser?.close();
});

/** An order the account of `token` placed and staff then cancelled (so the audit log has a row). */
async function cancelledOrder(token: string, locale: string): Promise<{ number: string; created_at: string }> {
  const headers = { authorization: `Bearer ${token}`, "content-language": locale, "cf-connecting-ip": visitorIp() };
  const list = (await backendJson(base, "/backend/products?in_stock=1&per_page=48", headers)).data as unknown as {
    id: number;
    stock: number;
    /** Several: a product whose variants are chosen on its page (these fixtures take one of one). */
    variant_count?: number;
  }[];
  const product = list.filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 5).at(locale === "ar" ? -2 : 1)!;
  await backendJson(base, "/backend/cart/add-product", headers, { product_id: product.id, quantity: 1 });
  const order = (
    await backendJson(base, "/backend/checkout", headers, {
      idempotency_key: crypto.randomUUID(),
      email: `time-buyer-${locale}-${Date.now()}@example.com`,
      address: { name: "Noura Buyer", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
      shipping_method: "standard",
      payment_method: "card",
    })
  ).data;
  const number = String(order.number);
  await backendJson(base, `/backend/admin/orders/${number}/cancel`, headers, {});
  const read = (await backendJson(base, `/backend/orders/${encodeURIComponent(number)}`, headers)).data;
  return { number, created_at: String(read.created_at) };
}

/** A context signed in to the shop and the console as the session's account. */
async function signedIn(
  session: { token: string; cookie: string; userId: number },
  options: { timezoneId?: string; javaScriptEnabled?: boolean },
): Promise<BrowserContext> {
  const context = await browser.newContext({ ...options, serviceWorkers: "block" });
  await context.addInitScript(withoutServiceWorkers);
  const at = session.cookie.indexOf("=");
  await context.addCookies([{ name: session.cookie.slice(0, at), value: session.cookie.slice(at + 1), url: base }]);
  await context.addInitScript(
    ([t, u]) => {
      sessionStorage.setItem("token", t);
      sessionStorage.setItem("userId", u);
    },
    [session.token, String(session.userId)],
  );
  return context;
}

/** The lines of the page's main content that hold a time of day ("4:23 PM", "4:23 م"). */
const TIME_OF_DAY = /\d{1,2}:\d{2}\s?(AM|PM|ص|م)/;
async function timeLines(context: BrowserContext, url: string, ready?: string, shot?: string): Promise<string[]> {
  const page = await context.newPage();
  await page.goto(url);
  if (ready) await hydrated(page, ready);
  if (shot) await page.screenshot({ path: `${SCREENSHOTS}/${shot}.png` });
  const text = await page.locator("main").innerText();
  await page.close();
  return text.split(/\n|\t/).filter((line) => TIME_OF_DAY.test(line));
}

describe("dates and times on the shop's clock", () => {
  for (const locale of journeyLocales("ar")) {
    it(`the console's orders, order and audit log, and my orders, read the same from the server and after hydration, in Riyadh time (${locale})`, async () => {
      const session = await consoleHttpSession(base, accounts[`time-${locale}`]);
      const order = await cancelledOrder(session.token, locale);
      const placed = shopMoment(order.created_at, locale);
      expect(placed).toContain(SHOP_TIME_LABEL[locale]);

      // What the server sent, read once with JavaScript off: the same whatever the reader's zone.
      const server = await signedIn(session, { javaScriptEnabled: false });
      const paths = [`/admin/orders`, `/admin/orders/${order.number}`, `/admin/audit`];
      const sent = new Map<string, string[]>();
      for (const path of paths) {
        const lines = await timeLines(server, `${base}/${locale}${path}`);
        expect(lines.length, `${path}: times in the server's page`).toBeGreaterThan(0);
        for (const line of lines) expect(line, path).toContain(SHOP_TIME_LABEL[locale]);
        sent.set(path, lines);
      }
      expect(sent.get("/admin/orders")!.join("\n")).toContain(placed);
      // My orders: the list is in the page the server sends, not only after hydration.
      const mine = await server.newPage();
      await mine.goto(`${base}/${locale}/profile/orders`);
      expect(await mine.locator("main").innerText()).toContain(order.number);
      await mine.close();

      for (const timezoneId of ["Asia/Riyadh", "UTC"]) {
        const browserContext = await signedIn(session, { timezoneId });
        for (const path of paths) {
          const shot = `shop-time-${locale}-${timezoneId.replace("/", "-")}${path.replace(/\W+/g, "-")}`;
          const shown = await timeLines(browserContext, `${base}/${locale}${path}`, ".console-nav a[href]", shot);
          expect(shown, `${path} in a ${timezoneId} browser`).toEqual(sent.get(path));
          expect(takeHydrationFailures(), `${path} in a ${timezoneId} browser`).toEqual([]);
        }

        const page = await browserContext.newPage();
        await page.goto(`${base}/${locale}/profile/orders`);
        await hydrated(page, ".profile-main a[href]");
        expect(await page.locator("main").innerText()).toContain(order.number);
        expect(takeHydrationFailures(), `my orders in a ${timezoneId} browser`).toEqual([]);
        await browserContext.close();
      }
      await server.close();
    }, 180_000);
  }
});
