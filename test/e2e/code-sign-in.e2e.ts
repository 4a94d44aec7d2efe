import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ar from "../../locales/ar.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import { expectAxeClean } from "../support/axe.ts";
import { hydrated, journeyLocales, launchBrowser, newPage, SCREENSHOTS } from "../support/browser.ts";
import { builtWorker } from "../support/http.ts";

/**
 * Signing in with a code in Chromium, in both languages: a new shopper chooses the phone, is sent
 * a code (read from the development outbox), enters it, is asked the name and lands where they
 * were going, signed in; a shopper whose number was typed at password registration (never proven
 * by a code) is asked the account's password beside the code, then lands on the profile. The code and name steps are photographed in both directions and axe clean.
 */
const base = builtWorker().url;
const TEXT = { en, ar } as const;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

const freshNational = () => `05${String(Math.floor(Math.random() * 100_000_000)).padStart(8, "0")}`;
const e164 = (national: string) => `+966${national.slice(1)}`;

/** The newest sign-in code the development outbox holds for `to`. */
async function codeFromOutbox(to: string, after = ""): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await fetch(`${base}/backend/dev/outbox?to=${encodeURIComponent(to)}`);
      const body = (await res.json()) as { data: { purpose: string; code: string; created_at: string }[] };
      code = body.data.find((m) => m.purpose === "sign_in" && m.created_at > after)?.code;
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code as string;
}

/** Opens the sign-in page, chooses the phone and asks for a code to `national`. */
async function askCode(page: Page, locale: "en" | "ar", national: string, redirect = ""): Promise<void> {
  const t = TEXT[locale];
  await page.goto(`${base}/${locale}/auth/login${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ""}`);
  await hydrated(page, "input[name=login-channel][value=phone]");
  await page.locator("input[name=login-channel][value=phone]").check();
  // The phone input (and its numbering metadata) loads with the form.
  await page.locator(".code-signin .phone-input__country").waitFor();
  await hydrated(page, ".code-signin input[type=tel]");
  await page.locator(".code-signin input[type=tel]").pressSequentially(national);
  await page.getByRole("button", { name: t.codeSignIn.send }).click();
  // The code field appears and takes the focus.
  const code = page.getByLabel(t.codeSignIn.code);
  await code.waitFor().catch(async (e: unknown) => {
    await page.screenshot({ path: `${SCREENSHOTS}/code-sign-in-debug-${locale}.png` });
    throw e;
  });
  await expect.poll(() => code.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await code.getAttribute("autocomplete")).toBe("one-time-code");
  expect(await code.getAttribute("inputmode")).toBe("numeric");
}

describe("sign in with a code in Chromium", () => {
  for (const locale of journeyLocales("ar")) {
    const t = TEXT[locale];
    const national = freshNational();
    const name = locale === "en" ? "Huda Saleh" : "هدى صالح";

    it(`(${locale}) a new shopper signs in with a phone code, is asked the name and goes on`, async () => {
      const { context, page, errors } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      const target = `/${locale}/profile/addresses`;
      await askCode(page, locale, national, target);
      expect(await page.locator(".code-signin__sent bdi").textContent()).toBe(e164(national));
      // A wrong code is refused, announced beside the field.
      await page.getByLabel(t.codeSignIn.code).fill("000000");
      await page.locator(".code-signin form button[type=submit]").click();
      await expect.poll(() => page.locator("[role=alert], .form__alert").count()).toBeGreaterThan(0);
      expect(await page.getByRole("button", { name: t.auth.resend }).isDisabled()).toBe(true);
      await page.getByLabel(t.codeSignIn.code).fill(await codeFromOutbox(e164(national)));
      await page.screenshot({ path: `${SCREENSHOTS}/code-sign-in-code-${locale}.png` });
      await expectAxeClean(page);
      await page.locator(".code-signin form button[type=submit]").click();

      await page.waitForURL((url) => url.pathname === `/${locale}/auth/welcome`);
      await hydrated(page, "input[name=name]");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name");
      expect(await page.locator("html").getAttribute("dir")).toBe(locale === "ar" ? "rtl" : "ltr");
      await page.screenshot({ path: `${SCREENSHOTS}/code-sign-in-name-${locale}.png` });
      await expectAxeClean(page);
      await page.locator("input[name=name]").fill(name);
      await page.getByRole("button", { name: t.codeSignIn.saveName }).click();
      await page.waitForURL((url) => url.pathname === target);
      const user = await page.evaluate(async () => (await fetch("/api/get-user")).json());
      expect(user.data).toMatchObject({ name, phone: e164(national) });
      expect(user.data.email ?? null).toBeNull();
      // The one refusal is the wrong code the journey typed on purpose.
      expect(errors.filter((e) => !e.includes("422"))).toEqual([]);
      await context.close();
    });

    it(`(${locale}) a number typed at registration, never proven: the code asks for the password too, then signs in`, async () => {
      const returning = freshNational();
      const res = await fetch(`${base}/backend/client/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": "10.9.8.7" },
        body: JSON.stringify({
          name,
          email: `code-e2e-${locale}-${Date.now()}@example.com`,
          phone: e164(returning),
          password: "Falcon-Dunes-2026!",
          password_confirmation: "Falcon-Dunes-2026!",
        }),
      });
      expect(res.status).toBe(201);
      const { context, page, errors } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      await askCode(page, locale, returning);
      await page.getByLabel(t.codeSignIn.code).fill(await codeFromOutbox(e164(returning)));
      await page.locator(".code-signin form button[type=submit]").click();
      // The right code alone does not sign in: the sentence says why, and the password field takes the focus.
      await expect.poll(() => page.locator(".code-signin__confirm").textContent()).toBe(t.codeSignIn.confirmPassword);
      const password = page.locator(".code-signin input[name=password]");
      await expect.poll(() => password.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(page.url()).toContain("/auth/login");
      await page.screenshot({ path: `${SCREENSHOTS}/code-sign-in-password-${locale}.png` });
      await expectAxeClean(page);
      await password.fill("Falcon-Dunes-2026!");
      await page.locator(".code-signin form button[type=submit]").click();
      await page.waitForURL(`${base}/${locale}/profile`);
      await expect.poll(() => page.locator(".profile-summary h2").textContent()).toContain(name);
      // The one refusal is the backend's 409 asking for the password.
      expect(errors.filter((e) => !e.includes("409"))).toEqual([]);
      await context.close();
    });
  }

  for (const locale of journeyLocales("ar")) {
    const t = TEXT[locale];
    it(`(${locale}) a code-only account names itself and adds an email, proven by a fresh code`, async () => {
      const national = freshNational();
      const { context, page, errors } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      const target = `/${locale}/profile/edit`;
      await askCode(page, locale, national, target);
      const first = await codeFromOutbox(e164(national));
      await page.getByLabel(t.codeSignIn.code).fill(first);
      await page.locator(".code-signin form button[type=submit]").click();
      await page.waitForURL((url) => url.pathname === `/${locale}/auth/welcome`);
      await hydrated(page, "input[name=name]");
      await page.locator("input[name=name]").fill("Nora");
      await page.getByRole("button", { name: t.codeSignIn.saveName }).click();
      await page.waitForURL((url) => url.pathname === target);
      await hydrated(page, "input[name=email]");
      // No email yet, and no password: the email may stay empty, and "set a password" is offered.
      expect(await page.locator("input[name=email]").inputValue()).toBe("");
      expect(await page.locator("input[name=email]").getAttribute("required")).toBeNull();
      expect(await page.locator("input[name=current_password]").count()).toBe(0);
      await page.getByRole("link", { name: t.codeSignIn.profile.setPassword }).waitFor();
      // Its password section has no password to change: it offers to set one instead.
      await page.goto(`${base}/${locale}/profile/change-password`);
      await page.getByRole("link", { name: t.codeSignIn.profile.setPassword }).waitFor();
      expect(await page.locator("input[name=current_password]").count()).toBe(0);
      await page.goto(`${base}${target}`);
      await hydrated(page, "input[name=email]");
      // Adding an email asks for a code sent to the phone, not a password.
      const email = `code-only-${locale}-${Date.now()}@example.com`;
      await page.locator("input[name=email]").fill(email);
      await page.locator("input[name=code]").waitFor();
      await page.locator(".code-proof button").click();
      await expect.poll(() => page.locator(".code-proof [role=status]").textContent()).not.toBe("");
      // The fresh code: the number's second sign-in code (the first made the account).
      let fresh: string | undefined;
      await expect
        .poll(async () => {
          const res = await fetch(`${base}/backend/dev/outbox?to=${encodeURIComponent(e164(national))}`);
          const body = (await res.json()) as { data: { purpose: string; code: string }[] };
          fresh = body.data.find((m) => m.purpose === "sign_in" && m.code !== first)?.code;
          return fresh;
        })
        .toMatch(/^\d{6}$/);
      await page.locator("input[name=code]").fill(fresh as string);
      await page.screenshot({ path: `${SCREENSHOTS}/code-only-profile-${locale}.png`, fullPage: true });
      await expectAxeClean(page);
      await page.getByRole("button", { name: t.profile.save }).click();
      // The new email waits for its own code: the code page is next.
      await page
        .waitForURL((url) => url.pathname === `/${locale}/auth/otp`)
        .catch(async (e: unknown) => {
          await page.screenshot({ path: `${SCREENSHOTS}/code-only-profile-debug-${locale}.png`, fullPage: true });
          throw e;
        });
      const user = await page.evaluate(async () => (await fetch("/api/get-user")).json());
      expect(user.data).toMatchObject({ name: "Nora", phone: e164(national) });
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  for (const locale of journeyLocales("ar")) {
    const t = TEXT[locale];
    it(`(${locale}) the email offers a code too: a returning shopper signs in with a code by email`, async () => {
      const email = `code-mail-${locale}-${Date.now()}@example.com`;
      const res = await fetch(`${base}/backend/client/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": "10.9.8.6" },
        body: JSON.stringify({
          name: "Reem",
          email,
          password: "Falcon-Dunes-2026!",
          password_confirmation: "Falcon-Dunes-2026!",
        }),
      });
      expect(res.status).toBe(201);
      const { context, page, errors } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      await page.goto(`${base}/${locale}/auth/login`);
      await hydrated(page, "input[name=email]");
      await page.getByRole("button", { name: t.codeSignIn.useCode }).click();
      await page.locator(".code-signin input[type=email]").fill(email);
      await page.screenshot({ path: `${SCREENSHOTS}/code-sign-in-email-${locale}.png` });
      await expectAxeClean(page);
      await page.getByRole("button", { name: t.codeSignIn.send }).click();
      await page.getByLabel(t.codeSignIn.code).fill(await codeFromOutbox(email));
      await page.locator(".code-signin form button[type=submit]").click();
      await page.waitForURL(`${base}/${locale}/profile`);
      await expect.poll(() => page.locator(".profile-summary h2").textContent()).toContain("Reem");
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("the password form stays one click away on the phone", async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${base}/en/auth/login`);
    await hydrated(page, "input[name=login-channel][value=phone]");
    await page.locator("input[name=login-channel][value=phone]").check();
    await page.getByRole("button", { name: en.codeSignIn.usePassword }).click();
    await page.locator("input[name=password]").waitFor();
    await context.close();
  });
});
