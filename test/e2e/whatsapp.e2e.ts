import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { expectAxeClean } from "../support/axe.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyIt,
  journeyLocales,
  launchBrowser,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import { msg } from "../support/checkout-browser.ts";
import { newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { startExtraWorker, TEST_VARS, visitorIp } from "../support/http.ts";
import type { RunningWorker } from "../../scripts/lib/worker.ts";

/**
 * WhatsApp in Chromium, in both languages (the message's language is the point): a signed-in
 * shopper opens "How we reach you" in the profile, chooses WhatsApp and saves; an order they
 * place is then recorded by the WhatsApp stand-in in their language with its variables filled,
 * and no SMS goes. With WhatsApp failing for their number, the next order's message arrives by
 * SMS (the development outbox) instead. The page is axe clean and photographed in both directions.
 * A shop of its own, since its stand-in is told to fail.
 */

const PASSWORD = "Whatsapp-Journey-2026!";
const eventually = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 250 });

let browser: Browser;
let shop: { worker: RunningWorker; stop: () => void; persistDir: string };
const base = () => shop.worker.url;

interface Shopper {
  email: string;
  phone: string;
  headers: Record<string, string>;
}

interface StandInMessage {
  template: string;
  lang: string;
  variables: string[];
  text: string;
}

interface Sent {
  purpose: string;
  channel: string;
  lang: string;
  text: string | null;
}

async function json<T>(res: Response): Promise<T> {
  return ((await res.json()) as { data: T }).data;
}

/** A new account with a phone, registered through the API, and a bearer token of its own for the API calls. */
async function newShopper(locale: "en" | "ar"): Promise<Shopper> {
  const email = `wa-${locale}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const phone = `+9665${String(Math.floor(Math.random() * 100_000_000)).padStart(8, "0")}`;
  const headers = { "content-type": "application/json", accept: "application/json", "content-language": locale };
  const registered = await fetch(`${base()}/backend/client/auth/register`, {
    method: "POST",
    headers: { ...headers, "cf-connecting-ip": visitorIp() },
    body: JSON.stringify({ name: "Noura Test", email, phone, password: PASSWORD, password_confirmation: PASSWORD }),
  });
  expect(registered.status).toBeLessThan(300);
  const login = await fetch(`${base()}/backend/client/auth/login`, {
    method: "POST",
    headers: { ...headers, "cf-connecting-ip": visitorIp() },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const { auth_data } = await json<{ auth_data: { access_token: string } }>(login);
  return {
    email,
    phone,
    headers: { ...headers, authorization: `Bearer ${auth_data.access_token}`, "cf-connecting-ip": visitorIp() },
  };
}

/** Places an order as the shopper through the API (the checkout itself has journeys of its own). */
async function placeOrder(shopper: Shopper): Promise<string> {
  const list = await fetch(`${base()}/backend/products?per_page=24`, { headers: { accept: "application/json" } });
  const products = await json<{ id: number; in_stock?: boolean; stock?: number; variant_count?: number }[]>(list);
  const product = products.find((p) => (p.variant_count ?? 1) === 1 && (p.stock ?? 1) > 0 && p.in_stock !== false);
  expect(product).toBeDefined();
  const added = await fetch(`${base()}/backend/cart/add-product`, {
    method: "POST",
    headers: shopper.headers,
    body: JSON.stringify({ product_id: product!.id, quantity: 1 }),
  });
  expect(added.status).toBe(200);
  const placed = await fetch(`${base()}/backend/checkout`, {
    method: "POST",
    headers: shopper.headers,
    body: JSON.stringify({
      idempotency_key: crypto.randomUUID(),
      email: shopper.email,
      address: {
        name: "Noura Test",
        phone: "+966512345678",
        city: "Riyadh",
        district: "Olaya",
        street: "King Fahd Road",
        building: "2929",
        postal_code: "12211",
      },
      shipping_method: "standard",
      payment_method: "card",
    }),
  });
  expect(placed.status).toBe(201);
  return (await json<{ number: string }>(placed)).number;
}

const whatsappTo = async (phone: string) =>
  json<StandInMessage[]>(await fetch(`${base()}/backend/dev/whatsapp?to=${encodeURIComponent(phone)}`));
const outboxOf = async (phone: string) =>
  json<Sent[]>(await fetch(`${base()}/backend/dev/outbox?to=${encodeURIComponent(phone)}`));

async function signIn(page: Page, locale: "en" | "ar", shopper: Shopper): Promise<void> {
  await page.goto(`${base()}/${locale}/auth/login`);
  await hydrated(page, "form.auth-form");
  await page.locator("input[name=email]").fill(shopper.email);
  await page.locator("input[name=password]").fill(PASSWORD);
  await page.locator("form.auth-form button[type=submit]").click();
  await page.waitForURL((url) => !url.pathname.endsWith("/auth/login"));
}

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  shop = await startExtraWorker(TEST_VARS, { database: "seeded" });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  shop?.stop();
});

describe("WhatsApp for order messages", () => {
  for (const locale of journeyLocales("ar")) {
    journeyIt(locale, "ar")(
      `${locale}: a shopper chooses WhatsApp in the profile; the order message goes there in ${locale}, and by SMS when WhatsApp fails`,
      async () => {
        const shopper = await newShopper(locale);
        const { context, page } = await newPage(browser);
        try {
          await signIn(page, locale, shopper);
          // From the profile's navigation to the section.
          await page.goto(`${base()}/${locale}/profile`);
          await page.locator(".profile-nav a", { hasText: msg(locale, "messageChannel.nav") }).click();
          await page.waitForURL(`${base()}/${locale}/profile/messages`);
          await hydrated(page, ".message-channel form");
          // Each choice is a radio named by its label (its name, then its explanation).
          const sms = page.getByRole("radio", { name: new RegExp(`^${msg(locale, "messageChannel.sms")} `) });
          const whatsapp = page.getByRole("radio", { name: new RegExp(`^${msg(locale, "messageChannel.whatsapp")} `) });
          expect(await sms.isChecked()).toBe(true);
          // The opt-in sentence names the number WhatsApp messages will go to.
          expect(await page.locator(".message-channel").textContent()).toContain(shopper.phone);
          await expectAxeClean(page, `profile messages (${locale})`);
          await fullPageScreenshot(page, `${SCREENSHOTS}/whatsapp-profile-${locale}.png`);

          await whatsapp.check();
          await page.locator(".message-channel button[type=submit]").click();
          // The page says since when: the opt-in was recorded.
          await page.locator(".message-channel p[role=status]").waitFor();
          expect(await whatsapp.isChecked()).toBe(true);
          await expectAxeClean(page, `profile messages, WhatsApp chosen (${locale})`);
          await fullPageScreenshot(page, `${SCREENSHOTS}/whatsapp-profile-chosen-${locale}.png`);
          // A reload shows the choice kept.
          await page.reload();
          await hydrated(page, ".message-channel form");
          expect(await whatsapp.isChecked()).toBe(true);
        } finally {
          await context.close();
        }

        const number = await placeOrder(shopper);
        await eventually(async () =>
          (await whatsappTo(shopper.phone)).find((m) => m.variables[0] === number),
        ).toBeTruthy();
        const message = (await whatsappTo(shopper.phone)).find((m) => m.variables[0] === number)!;
        expect(message.template).toBe("souq_order_placed");
        expect(message.lang).toBe(locale);
        expect(message.text).toContain(number);
        expect(message.text).not.toContain("{{");
        if (locale === "ar") expect(message.text).toMatch(/[\u0600-\u06FF]/);
        else expect(message.text).toMatch(/^Your Souq order/);
        expect((await outboxOf(shopper.phone)).filter((m) => (m.text ?? "").includes(number))).toEqual([]);

        // WhatsApp now refuses the number: the next order's message arrives by SMS instead.
        const failed = await fetch(`${base()}/backend/dev/whatsapp/fail`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ to: shopper.phone, mode: "error" }),
        });
        expect(failed.status).toBe(200);
        const second = await placeOrder(shopper);
        await eventually(async () =>
          (await outboxOf(shopper.phone)).filter((m) => m.channel === "sms" && (m.text ?? "").includes(second)),
        ).toHaveLength(1);
        const [text] = (await outboxOf(shopper.phone)).filter((m) => (m.text ?? "").includes(second));
        expect(text).toMatchObject({ purpose: "order.placed", lang: locale });
        expect((await whatsappTo(shopper.phone)).filter((m) => m.variables[0] === second)).toEqual([]);

        // The console's order page says how each phone message went: read on WhatsApp, or SMS after a failure.
        const staff = await newStaffAccounts(base(), { [`wa-${locale}`]: "manager" }, shop.persistDir);
        const desk = await newPage(browser);
        try {
          await openConsole(desk.page, base(), locale, staff[`wa-${locale}`]!);
          const messagesOf = async (order: string) => {
            await desk.page.goto(`${base()}/${locale}/admin/orders/${order}`);
            await desk.page.locator("#order-messages").waitFor();
            return (await desk.page.locator("section[aria-labelledby=order-messages] table").textContent()) ?? "";
          };
          await eventually(async () => messagesOf(number)).toContain(
            msg(locale, "console.orders.messages.whatsappStatuses.read"),
          );
          expect(await messagesOf(number)).toContain(msg(locale, "console.orders.messages.channels.whatsapp"));
          await expectAxeClean(desk.page, `console order messages (${locale})`);
          await fullPageScreenshot(desk.page, `${SCREENSHOTS}/whatsapp-console-order-${locale}.png`);
          expect(await messagesOf(second)).toContain(msg(locale, "console.orders.messages.channels.smsFallback"));
        } finally {
          await desk.context.close();
        }
      },
      180_000,
    );
  }
});
