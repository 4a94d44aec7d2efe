import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  toastSays,
  type Locale,
} from "../support/browser.ts";
import {
  consoleHttpSession,
  newStaffAccounts,
  openConsole,
  registerAccount,
  STAFF_PASSWORD,
} from "../support/console-browser.ts";
import { builtWorker, jsonApi, visitorIp } from "../support/http.ts";
import { say } from "../support/messages.ts";

/**
 * Questions and answers in Chromium, in both languages (the asker's message is in their language,
 * and the section and the console page mirror in Arabic): a visitor follows "Sign in to ask" and
 * comes back to the product's questions, asks, and is thanked; a manager answers it in the console;
 * the asker's outbox holds the message with the link to the questions; a new visitor reads the
 * question with the store's answer on the product page. Screenshots of the section and the console
 * page in each language; axe on the product page with the section open.
 */
const base = builtWorker().url;
let browser: Browser;
let products: { id: number; slug: string; name: string }[] = [];
let managers: Record<string, string>;

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  managers = await newStaffAccounts(base, {
    "questions-en": "manager",
    "questions-ar": "manager",
    "buyers-en": "manager",
    "buyers-ar": "manager",
    "buyers-owner-en": "owner",
    "buyers-owner-ar": "owner",
    // A second owner per language for the API: one console session per account at a time here.
    "buyers-api-owner-en": "owner",
    "buyers-api-owner-ar": "owner",
  });
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=24&sort=newest`, {
    headers: { "content-language": "en" },
  });
  products = (
    (await res.json()) as { data: { id: number; slug: string; name: string; stock: number; variant_count?: number }[] }
  ).data.filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 5);
  expect(products.length).toBeGreaterThan(4);
});
afterAll(async () => {
  await browser?.close();
});

/** Signs `email` in over HTTP: its bearer token, for the shop's API as that shopper. */
async function tokenOf(email: string): Promise<string> {
  const api = jsonApi(base, { "cf-connecting-ip": visitorIp() });
  const login = await api("/backend/client/auth/login", { method: "POST", body: { email, password: STAFF_PASSWORD } });
  expect(login.status).toBe(200);
  return login.body.data.auth_data.access_token as string;
}

/** The account at `token` buys one of the product and pays; a manager (their API client) delivers it. */
async function deliveredOrder(token: string, productId: number, manager: ReturnType<typeof jsonApi>): Promise<void> {
  const api = jsonApi(base, { "cf-connecting-ip": visitorIp(), authorization: `Bearer ${token}` });
  expect(
    (await api("/backend/cart/add-product", { method: "POST", body: { product_id: productId, quantity: 1 } })).status,
  ).toBe(200);
  const placed = await api("/backend/checkout", {
    method: "POST",
    body: {
      idempotency_key: crypto.randomUUID(),
      address: { name: "Noura Buyer", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
      shipping_method: "standard",
      payment_method: "card",
    },
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const number = String(placed.body.data.number);
  const started = await api(`/backend/payments/${number}/start`, {
    method: "POST",
    body: { return_url: "/en/payment-status" },
  });
  expect(started.status).toBe(200);
  const paid = await fetch(`${base}${started.body.data.redirect_url}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base, "cf-connecting-ip": visitorIp() },
    body: new URLSearchParams({
      card_number: "4242 4242 4242 4242",
      expiry: "12/39",
      cvc: "123",
      action: "pay",
    }).toString(),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  for (const [step, body] of [
    ["process", {}],
    ["ship", { carrier: "SMSA", tracking_number: "SM20261206" }],
    ["deliver", {}],
  ] as const)
    expect((await manager(`/backend/admin/orders/${number}/${step}`, { method: "POST", body })).status).toBe(200);
}

/** Signs in through the shop's sign-in page, which sends the shopper back to `redirect`. */
async function signIn(page: Page, locale: Locale, email: string, redirect: string): Promise<void> {
  await page.goto(`${base}/${locale}/auth/login?redirect=${encodeURIComponent(redirect)}`);
  await hydrated(page, "form.auth-form");
  await page.locator("input[name=email]").fill(email);
  await page.locator("input[name=password]").fill(STAFF_PASSWORD);
  await page.locator("form.auth-form button[type=submit]").click();
  await page.waitForURL((url) => url.pathname === redirect.replace(/#.*$/, ""));
}

/** The product page scrolled to its questions, with the section loaded. */
async function openQuestions(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page, "#questions h2");
  await page.locator("#questions").scrollIntoViewIfNeeded();
  await page.waitForSelector("#questions .questions__body", { timeout: 20_000 });
}

/** What the development outbox delivered to `to` for `purpose`, once it is there. */
async function delivered(to: string, purpose: string): Promise<{ subject: string; text: string }> {
  let found: { subject: string; text: string } | undefined;
  await eventually(async () => {
    const res = await fetch(`${base}/backend/dev/outbox?to=${encodeURIComponent(to)}`);
    const body = (await res.json()) as { data: { purpose: string; subject: string; text: string }[] };
    found = body.data.find((m) => m.purpose === purpose);
    return found !== undefined;
  }).toBe(true);
  return found!;
}

describe("questions and answers on a product page", () => {
  // Both languages always: the message is in the asker's language and the pages mirror in Arabic.
  for (const locale of LOCALES) {
    const t = (key: string, params?: Record<string, string | number>) => say(locale, key, params);

    it(`a shopper asks, staff answer in the console, the asker is told, and a new visitor reads it (${locale})`, async () => {
      const product = products[locale === "en" ? 0 : 1]!;
      const productUrl = `${base}/${locale}/product-details/${product.slug}`;
      const email = `asker-${locale}-${Date.now().toString(36)}@example.com`;
      await registerAccount(base, email, locale === "ar" ? "سارة" : "Sara");
      const question =
        locale === "ar"
          ? `هل يأتي مع شاحن في العلبة؟ <script>alert(1)</script> ${Date.now().toString(36)}`
          : `Does it come with a charger in the box? <script>alert(1)</script> ${Date.now().toString(36)}`;

      // A visitor is asked to sign in, and comes back to the questions.
      const shopper = await newPage(browser);
      await openQuestions(shopper.page, productUrl);
      const signIn = shopper.page.getByRole("link", { name: t("questions.signIn") });
      await signIn.click();
      await shopper.page.waitForURL(/\/auth\/login\?redirect=/);
      await hydrated(shopper.page, "form.auth-form");
      await shopper.page.locator("input[name=email]").fill(email);
      await shopper.page.locator("input[name=password]").fill(STAFF_PASSWORD);
      await shopper.page.locator("form.auth-form button[type=submit]").click();
      await shopper.page.waitForURL((url) => url.pathname.endsWith(`/product-details/${product.slug}`));
      await shopper.page.waitForSelector("#questions textarea", { timeout: 20_000 });

      // Too short: refused on the field before anything is sent.
      const field = shopper.page.getByLabel(t("questions.askLabel"));
      await field.fill("Charger?");
      await shopper.page.getByRole("button", { name: t("questions.askSubmit") }).click();
      await eventually(() => shopper.page.locator("#questions .field__error").textContent()).toBe(
        say(locale, "form.minLength", { name: t("questions.askLabel"), min: 10 }),
      );
      await field.fill(question);
      await shopper.page.getByRole("button", { name: t("questions.askSubmit") }).click();
      await eventually(() => shopper.page.locator("#questions [role=status]").textContent()).toBe(
        t("questions.thanks"),
      );
      // Pending: not on the page yet.
      expect(await shopper.page.locator(".questions__item").filter({ hasText: question }).count()).toBe(0);
      await shopper.page.locator("#questions").screenshot({ path: `${SCREENSHOTS}/questions-asked-${locale}.png` });
      expect(shopper.errors).toEqual([]);
      await shopper.context.close();

      // A manager answers it in the console.
      const staff = await newPage(browser);
      await openConsole(staff.page, base, locale, managers[`questions-${locale}`]!);
      await staff.page.goto(`${base}/${locale}/admin/questions`);
      await hydrated(staff.page, ".console-question-tabs a");
      const card = staff.page.locator(".console-question").filter({ hasText: question });
      await eventually(() => card.count()).toBe(1);
      // The script is shown as the shopper typed it, never run.
      expect(await card.locator(".console-question__text").first().textContent()).toBe(question);
      await staff.page
        .locator(".console-questions")
        .screenshot({ path: `${SCREENSHOTS}/questions-console-${locale}.png` });
      await fullPageScreenshot(staff.page, `${SCREENSHOTS}/questions-console-page-${locale}.png`);
      await card.getByRole("button", { name: t("console.questions.actions.answer"), exact: true }).click();
      const dialog = staff.page.locator("dialog[open]");
      await eventually(() => dialog.count()).toBe(1);
      const answerText = locale === "ar" ? "نعم، يأتي مع شاحن بقدرة 20 واط." : "Yes, a 20 W charger is in the box.";
      await dialog.getByLabel(t("console.questions.answerLabel")).fill(answerText);
      await staff.page.screenshot({ path: `${SCREENSHOTS}/questions-console-answer-${locale}.png` });
      await dialog.getByRole("button", { name: t("console.questions.answerSubmit") }).click();
      await toastSays(staff.page, t("console.questions.done.answer"));
      // Answered: it left the pending tab.
      await eventually(() => card.count()).toBe(0);
      await expectAxeClean(staff.page, `the console's questions page (${locale})`);
      expect(staff.errors).toEqual([]);
      await staff.context.close();

      // The asker's message, in their language, links to the product's questions.
      const message = await delivered(email, "shopper.question_answered");
      expect(message.text).toContain(`/${locale}/product-details/${product.slug}#questions`);
      expect(message.subject).toContain(locale === "ar" ? "وصلت إجابة عن سؤالك" : "Your question about");
      if (locale === "en") expect(message.subject).toContain(product.name);

      // A new visitor reads the question and the store's answer.
      const visitor = await newPage(browser);
      const link = message.text.match(/https?:\/\/\S+#questions/)![0];
      await visitor.page.goto(link.replace(/^https?:\/\/[^/]+/, base));
      await hydrated(visitor.page, "#questions h2");
      const item = visitor.page.locator(".questions__item").filter({ hasText: question });
      await eventually(() => item.count()).toBe(1);
      expect(await item.locator(".questions__question .questions__text").textContent()).toBe(question);
      expect(await item.locator(".questions__answer .questions__text").textContent()).toBe(answerText);
      expect(await item.locator(".questions__badge--store").textContent()).toBe(t("questions.store"));
      // Text stays text: no element came of the shopper's markup.
      expect(await visitor.page.locator("#questions script").count()).toBe(0);
      expect(await visitor.page.locator("html").getAttribute("dir")).toBe(locale === "ar" ? "rtl" : "ltr");
      await item.scrollIntoViewIfNeeded();
      await visitor.page.locator("#questions").screenshot({ path: `${SCREENSHOTS}/questions-section-${locale}.png` });
      await expectAxeClean(visitor.page, `the product page with its questions (${locale})`);
      // On a phone nothing sticks out sideways.
      await visitor.page.setViewportSize({ width: 390, height: 844 });
      await visitor.page
        .locator("#questions")
        .screenshot({ path: `${SCREENSHOTS}/questions-section-${locale}-390.png` });
      expect(await visitor.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(visitor.errors).toEqual([]);
      await visitor.context.close();
    });

    journeyIt(locale, "en")(
      `with the store's leave, a buyer of the product answers; once approved it reads "Verified buyer" (${locale})`,
      async () => {
        const product = products[locale === "en" ? 2 : 3]!;
        const path = `/${locale}/product-details/${product.slug}`;
        const stamp = Date.now().toString(36);
        const [askerEmail, buyerEmail] = [`q-asker-${stamp}@example.com`, `q-buyer-${stamp}@example.com`];
        await registerAccount(base, askerEmail, "Asker");
        await registerAccount(base, buyerEmail, "Buyer");
        const owner = jsonApi(base, {
          "cf-connecting-ip": visitorIp(),
          authorization: `Bearer ${(await consoleHttpSession(base, managers[`buyers-api-owner-${locale}`]!)).token}`,
        });
        const allow = (on: boolean) =>
          owner("/backend/admin/settings/questions", { method: "PUT", body: { buyers_answer: on } });
        // The owner lets buyers answer, in the console's settings.
        const settings = await newPage(browser);
        await openConsole(settings.page, base, locale, managers[`buyers-owner-${locale}`]!);
        await settings.page.goto(`${base}/${locale}/admin/settings`);
        await hydrated(settings.page, "#settings-questions-buyers_answer");
        await settings.page.locator("#settings-questions-buyers_answer").selectOption("on");
        const title = t("console.settings.sections.questions");
        await settings.page.getByRole("button", { name: t("console.settings.save", { section: title }) }).click();
        await toastSays(settings.page, t("console.settings.saved"));
        // The section starts again from what was saved.
        await eventually(() => settings.page.locator("#settings-questions-buyers_answer").inputValue()).toBe("on");
        // After the page's data came again (the saved section's form is made anew from it).
        await networkQuiet(settings.page);
        await settings.page
          .locator("section.settings-section", { has: settings.page.locator("#settings-questions-title") })
          .screenshot({ path: `${SCREENSHOTS}/questions-settings-${locale}.png` });
        expect(settings.errors).toEqual([]);
        await settings.context.close();
        try {
          // A published question, asked and approved through the API.
          const asker = jsonApi(base, {
            "cf-connecting-ip": visitorIp(),
            "content-language": locale,
            authorization: `Bearer ${await tokenOf(askerEmail)}`,
          });
          const question = `Is the battery replaceable? ${stamp}`;
          const asked = await asker("/backend/client/questions", {
            method: "POST",
            body: { product: product.slug, text: question },
          });
          expect(asked.status).toBe(201);
          const manager = jsonApi(base, {
            "cf-connecting-ip": visitorIp(),
            authorization: `Bearer ${(await consoleHttpSession(base, managers[`buyers-${locale}`]!)).token}`,
          });
          expect(
            (await manager(`/backend/admin/questions/${asked.body.data.id}/approve`, { method: "POST", body: {} }))
              .status,
          ).toBe(200);
          await deliveredOrder(await tokenOf(buyerEmail), product.id, manager);

          // The buyer answers on the product page.
          const buyer = await newPage(browser);
          await signIn(buyer.page, locale, buyerEmail, `${path}#questions`);
          await buyer.page.locator("#questions").scrollIntoViewIfNeeded();
          const item = buyer.page.locator(".questions__item").filter({ hasText: question });
          await eventually(() => item.count()).toBe(1);
          const open = item.getByRole("button", { name: t("questions.answer") });
          await eventually(() => open.count()).toBe(1);
          await open.click();
          const field = item.getByLabel(t("questions.answerLabel"));
          // The form puts the reader in its field.
          await eventually(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
          const reply = "Yes: two screws at the back, and the store sells the battery.";
          await field.fill(reply);
          await item.screenshot({ path: `${SCREENSHOTS}/questions-buyer-form-${locale}.png` });
          await item.getByRole("button", { name: t("questions.answerSubmit") }).click();
          await eventually(() => item.locator("[role=status]").textContent()).toBe(t("questions.answerThanks"));
          await item.screenshot({ path: `${SCREENSHOTS}/questions-buyer-answered-${locale}.png` });
          expect(buyer.errors).toEqual([]);
          await buyer.context.close();

          // Approved in the console's API, it shows to everyone with its badge.
          const queue = await manager("/backend/admin/questions?tab=pending");
          const pending = (queue.body.data.data as { id: number; answers: { id: number; text: string }[] }[])
            .find((q) => q.id === asked.body.data.id)!
            .answers.find((a) => a.text === reply)!;
          expect(
            (await manager(`/backend/admin/answers/${pending.id}/approve`, { method: "POST", body: {} })).status,
          ).toBe(200);
          const visitor = await newPage(browser);
          await openQuestions(visitor.page, `${base}${path}`);
          const shown = visitor.page.locator(".questions__item").filter({ hasText: question });
          await eventually(() => shown.locator(".questions__answer").count()).toBe(1);
          expect(await shown.locator(".questions__badge").textContent()).toBe(t("questions.verifiedBuyer"));
          // A visitor is offered no answer form.
          expect(await shown.getByRole("button", { name: t("questions.answer") }).count()).toBe(0);
          expect(visitor.errors).toEqual([]);
          await visitor.context.close();
          expect((await delivered(askerEmail, "shopper.question_answered")).text).toContain(`${path}#questions`);
        } finally {
          await allow(false);
        }
      },
    );
  }
});
