import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAxeClean, seriousViolations } from "../support/axe.ts";
import {
  fullPageScreenshot,
  journeyIt,
  launchBrowser,
  LOCALES,
  networkQuiet,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import { builtWorker } from "../support/http.ts";
import { say } from "../support/messages.ts";

const base = builtWorker().url;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  en: {
    name: "Full name",
    email: "Email",
    password: "Password",
    newPassword: "New password",
    confirmation: "Password confirmation",
    code: "6-digit code",
    createAccount: "Create an account",
    signIn: "Sign in",
    verify: "Verify",
    continue: "Continue",
    sendCode: "Send the code",
    savePassword: "Save the password",
    logout: "Sign out",
    verified: "Verified",
    unverified: "Not verified yet",
    verifyNow: "Verify my email",
    hello: "Hello,",
    invalidEmail: "Please enter a valid email address.",
    nameRequired: "Full name is required.",
    summary: "There were errors in your form.",
    formInvalid: "Sorry, not all fields are filled out correctly.",
    mismatch: "Password confirmation does not match.",
    passwordChanged: "Your password has been changed.",
    phone: "Mobile number",
    editAddress: "Edit: Home",
    deleteAddress: "Delete: Home",
    confirmDelete: "Yes, delete it",
    noAddresses: "You have no saved addresses yet.",
    saveAddress: "Save the address",
    saveProfile: "Save changes",
    currentPassword: "Current password",
    currentPasswordNeeded: "Enter your current password to change your email or mobile number.",
    notFound: "Page not found",
    searchCountries: "Search countries",
    saudi: "Saudi",
    kuwait: "Kuwait",
  },
  ar: {
    name: "الاسم الكامل",
    email: "البريد الإلكتروني",
    password: "كلمة المرور",
    newPassword: "كلمة المرور الجديدة",
    confirmation: "تأكيد كلمة المرور",
    code: "الرمز المكوّن من 6 أرقام",
    createAccount: "إنشاء حساب",
    signIn: "تسجيل الدخول",
    verify: "تحقّق",
    continue: "متابعة",
    sendCode: "إرسال الرمز",
    savePassword: "حفظ كلمة المرور",
    logout: "تسجيل الخروج",
    verified: "موثّق",
    unverified: "لم يُوثّق بعد",
    verifyNow: "توثيق بريدي الإلكتروني",
    hello: "مرحبًا يا",
    invalidEmail: "يرجى إدخال بريد إلكتروني صحيح.",
    nameRequired: "حقل الاسم الكامل مطلوب.",
    summary: "توجد أخطاء في النموذج.",
    formInvalid: "عذرًا، لم تُعبّأ جميع الحقول بشكل صحيح.",
    mismatch: "تأكيد كلمة المرور غير مطابق.",
    passwordChanged: "تم تغيير كلمة المرور",
    phone: "رقم الجوال",
    editAddress: "تعديل: Home",
    deleteAddress: "حذف: Home",
    confirmDelete: "نعم، احذفه",
    noAddresses: "لا توجد عناوين محفوظة بعد.",
    saveAddress: "حفظ العنوان",
    saveProfile: "حفظ التغييرات",
    currentPassword: "كلمة المرور الحالية",
    currentPasswordNeeded: "أدخل كلمة المرور الحالية لتغيير بريدك الإلكتروني أو رقم جوالك.",
    notFound: "Page not found",
    searchCountries: "ابحث عن دولة",
    saudi: "السعودية",
    kuwait: "الكويت",
  },
} as const;

const PASSWORD = "Falcon-Dunes-2026!";
const NEW_PASSWORD = "Palm-Harbour-7319?";
const THIRD_PASSWORD = "Cedar-Lantern-4482#";

/** A fresh context; failures surface in seconds, not the default 30. */
async function open() {
  const opened = await newPage(browser);
  opened.page.setDefaultTimeout(10_000);
  return opened;
}

/** Waits until React has hydrated, so handlers are attached before the test types. */
async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () => (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined,
  );
  await networkQuiet(page);
}

/** The newest code the development outbox holds for `to` and `purpose`. */
async function codeFromOutbox(to: string, purpose: "verify" | "reset"): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await fetch(`${base}/backend/dev/outbox?to=${encodeURIComponent(to)}`);
      const body = (await res.json()) as { data: { purpose: string; code: string }[] };
      code = body.data.find((m) => m.purpose === purpose)?.code;
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code as string;
}

async function signInWith(
  page: Page,
  locale: (typeof LOCALES)[number],
  email: string,
  password: string,
): Promise<void> {
  await page.locator("input[name=email]").fill(email);
  await page.locator("input[name=password]").fill(password);
  await page.locator("form.auth-form button[type=submit]").click();
}

for (const locale of LOCALES) {
  const t = TEXT[locale];
  const email = `e2e-${locale}-${Date.now()}@example.com`;
  const name = locale === "en" ? "Layla Haddad" : "ليلى حداد";

  describe(`accounts in Chromium (${locale})`, () => {
    journeyIt(locale, "ar")(
      "a visitor registers, reads the code from the outbox, is verified and lands on the profile",
      async () => {
        const { context, page, errors } = await open();
        await page.goto(`${base}/${locale}/auth/register`);
        await hydrated(page);
        await page.locator("input[name=name]").fill(name);
        await page.locator("input[name=email]").fill(email);
        await page.locator("input[name=password]").fill(PASSWORD);
        await page.locator("input[name=password_confirmation]").fill(PASSWORD);
        await page.locator("form.auth-form button[type=submit]").click();

        await page.waitForURL(
          (url) => url.pathname === `/${locale}/auth/otp` && url.searchParams.get("purpose") === "verify",
        );
        expect(new URL(page.url()).searchParams.get("to")).toBe(email);
        const session = await page.evaluate(() => ({
          token: sessionStorage.getItem("token"),
          userId: sessionStorage.getItem("userId"),
        }));
        expect(session.token).toMatch(/.{20,}/);
        expect(session.userId).toMatch(/^\d+$/);

        await hydrated(page);
        await page.locator("input[name=code]").fill(await codeFromOutbox(email, "verify"));
        await page.locator("form.auth-form button[type=submit]").click();
        await page.waitForURL(`${base}/${locale}/profile`);
        await expect.poll(() => page.locator(".profile-summary h2").textContent()).toContain(name);
        expect(await page.locator(".profile-badge").first().textContent()).toBe(t.verified);
        // The own server now knows the visitor: the header offers the account, not sign-in.
        const user = await page.evaluate(async () => (await fetch("/api/get-user")).json());
        expect(user.data.email).toBe(email);
        await fullPageScreenshot(page, `${SCREENSHOTS}/profile-${locale}.png`);
        await expectAxeClean(page);
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    journeyIt(locale, "ar")(
      "a signed-in visitor logs out (all session storage cleared) and logs in again",
      async () => {
        const { context, page } = await open();
        await page.goto(`${base}/${locale}/auth/login`);
        await hydrated(page);
        await signInWith(page, locale, email, PASSWORD);
        await page.waitForURL(`${base}/${locale}/profile`);
        expect(await page.evaluate(() => sessionStorage.getItem("token"))).toBeTruthy();

        await page.getByRole("button", { name: t.logout }).click();
        await page.waitForURL(`${base}/${locale}`);
        // Everything of the signed-in visitor is gone; the cart may since have started afresh as a guest.
        const left = await page.evaluate(() => Object.keys(sessionStorage));
        // The guest's own: its id, its cart flag, and the offline cart's tab key and last cart seen.
        const guests = ["guestId", "products", "offlineCartTab", "offlineCartSnapshot"];
        expect(left.filter((k) => !guests.includes(k))).toEqual([]);
        // A last cart kept for the offline cart is the new guest's (empty), never the account's.
        const snapshot = await page.evaluate(() => sessionStorage.getItem("offlineCartSnapshot"));
        if (snapshot) expect((JSON.parse(snapshot) as { products: unknown[] }).products).toEqual([]);
        expect(await page.evaluate(async () => (await fetch("/api/get-user")).status)).toBe(401);
        // The server-rendered profile now shows the way in.
        await page.goto(`${base}/${locale}/profile`);
        await expect.poll(() => page.locator(".profile-guest").isVisible()).toBe(true);

        await page.goto(`${base}/${locale}/auth/login`);
        await hydrated(page);
        await signInWith(page, locale, email, PASSWORD);
        await page.waitForURL(`${base}/${locale}/profile`);
        await expect.poll(() => page.locator(".profile-summary h2").textContent()).toContain(t.hello);
        await context.close();
      },
    );

    journeyIt(locale, "ar")(
      "a forgotten password: code from the outbox, a new password, then sign in with it",
      async () => {
        const { context, page, errors } = await open();
        await page.goto(`${base}/${locale}/auth/forget-password`);
        await hydrated(page);
        await page.locator("input[name=email]").fill(email);
        await page.getByRole("button", { name: t.sendCode }).click();
        await page.waitForURL(
          (url) => url.pathname === `/${locale}/auth/otp` && url.searchParams.get("purpose") === "reset",
        );

        await hydrated(page);
        await page.locator("input[name=code]").fill(await codeFromOutbox(email, "reset"));
        await page.getByRole("button", { name: t.continue }).click();
        await page.waitForURL(`${base}/${locale}/auth/confirm-password`);
        // The reset token is held for this step only, never in the URL.
        const held = await page.evaluate(() => sessionStorage.getItem("resetToken"));
        expect(held).toMatch(/^[A-Za-z0-9_-]{20,}$/);
        expect(page.url()).not.toContain(held as string);

        await hydrated(page);
        await page.locator("input[name=password]").fill(NEW_PASSWORD);
        await page.locator("input[name=password_confirmation]").fill(NEW_PASSWORD);
        await page.getByRole("button", { name: t.savePassword }).click();
        await page.waitForURL(`${base}/${locale}/auth/login`);
        await expect
          .poll(() => page.locator("[data-sonner-toast]").allTextContents())
          .toEqual(expect.arrayContaining([expect.stringContaining(t.passwordChanged)]));
        expect(await page.evaluate(() => sessionStorage.getItem("resetToken"))).toBeNull();

        await hydrated(page);
        await signInWith(page, locale, email, PASSWORD);
        // The old password is refused with a 422: its message lands on the field and in the summary.
        await expect.poll(() => page.locator(".form__summary").textContent()).toContain(t.summary);
        expect(await page.locator("input[name=email]").getAttribute("aria-invalid")).toBe("true");
        expect(page.url()).toContain("/auth/login");
        await page.locator("input[name=password]").fill(NEW_PASSWORD);
        await page.locator("form.auth-form button[type=submit]").click();
        await page.waitForURL(`${base}/${locale}/profile`);
        expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
        await context.close();
      },
    );

    journeyIt(locale, "ar")(
      `an anonymous visit to /${locale}/orders goes to login and returns there after it`,
      async () => {
        const { context, page } = await open();
        await page.goto(`${base}/${locale}/orders`);
        await page.waitForURL((url) => url.pathname === `/${locale}/auth/login`);
        expect(new URL(page.url()).searchParams.get("redirect")).toBe(`/${locale}/orders`);
        // No social provider is configured, so no social sign-in button is offered.
        expect(await page.locator(".social-buttons").count()).toBe(0);
        await hydrated(page);
        await signInWith(page, locale, email, NEW_PASSWORD);
        await page.waitForURL(`${base}/${locale}/orders`);
        // The server guard lets them in on a full load too (the own-server cookie is set).
        await page.reload();
        expect(new URL(page.url()).pathname).toBe(`/${locale}/orders`);
        // And a signed-in visitor on the login page goes to the profile.
        await page.goto(`${base}/${locale}/auth/login`);
        await page.waitForURL(`${base}/${locale}/profile`);
        await context.close();
      },
    );

    journeyIt(locale, "ar")(
      "a signed-in visitor keeps addresses, edits the profile and changes the password; an unknown section is a 404",
      async () => {
        const { context, page, errors } = await open();
        const refused: string[] = [];
        page.on("response", (r) => {
          if (r.status() === 401) refused.push(`${r.request().method()} ${r.url()}`);
        });
        await page.goto(`${base}/${locale}/auth/login?redirect=${encodeURIComponent(`/${locale}/profile/addresses`)}`);
        await hydrated(page);
        await signInWith(page, locale, email, NEW_PASSWORD);
        await page.waitForURL(`${base}/${locale}/profile/addresses`);
        await hydrated(page);

        // No address yet: the form is open. The phone input starts on Saudi Arabia here.
        const form = page.locator("form.address-form");
        // The phone input (and its numbering metadata) loads with the form.
        await form.locator(".phone-input__country").waitFor();
        await form.locator("input[name=label]").fill("Home");
        await form.locator("input[name=name]").fill(name);
        await form.locator("input[name=phone]").pressSequentially("0501234567");
        await form.locator("input[name=city]").fill(locale === "en" ? "Riyadh" : "الرياض");
        await form.locator("input[name=district]").fill(locale === "en" ? "Al Olaya" : "العليا");
        await form.locator("input[name=street]").fill(locale === "en" ? "King Fahd Road" : "طريق الملك فهد");
        // The national address: a short address naming another building comes back on its field.
        await form.locator("input[name=short_address]").fill("rrrd ٢٩٢٩");
        // The short address gives the building number as it is typed, as at checkout.
        await expect.poll(() => form.locator("input[name=building]").inputValue()).toBe("2929");
        await form.locator("input[name=building]").fill("1111");
        await form.locator("input[name=additional_number]").fill("6789");
        await form.locator("input[name=postal_code]").fill("12211");
        await expectAxeClean(page);
        await form.getByRole("button", { name: t.saveAddress }).click();
        await expect.poll(() => form.locator("input[name=short_address]").getAttribute("aria-invalid")).toBe("true");
        expect(await form.textContent()).toContain(say(locale, "address.shortAddressInvalid"));
        await page.screenshot({ path: `${SCREENSHOTS}/address-form-national-${locale}.png`, fullPage: true });
        await form.locator("input[name=building]").fill("2929");
        await form.getByRole("button", { name: t.saveAddress }).click();
        const card = page.locator(".address-card").first();
        await expect.poll(() => card.textContent()).toContain("+966501234567");
        expect(await card.textContent()).toContain("Home");
        expect(await card.textContent()).toContain(
          `${say(locale, "address.shortAddressIs", { code: "RRRD2929" })} · ${say(locale, "address.additionalNumberIs", { number: "6789" })}`,
        );

        await page.getByRole("button", { name: t.editAddress }).click();
        await page.locator(".address-card form input[name=city]").fill(locale === "en" ? "Jeddah" : "جدة");
        await page.locator(".address-card form").getByRole("button", { name: t.saveAddress }).click();
        await expect.poll(() => card.textContent()).toContain(locale === "en" ? "Jeddah" : "جدة");

        await page.getByRole("button", { name: t.deleteAddress }).click();
        await page.getByRole("button", { name: t.confirmDelete }).click();
        await expect.poll(() => page.getByText(t.noAddresses).count()).toBe(1);

        await page.goto(`${base}/${locale}/profile/edit`);
        await hydrated(page);
        const newName = `${name} Q`;
        await page.locator("input[name=name]").fill(newName);
        await page.getByRole("button", { name: t.saveProfile }).click();
        await expect.poll(() => page.locator("[data-sonner-toast][data-type=success]").count()).toBeGreaterThan(0);
        // The own server keeps the new name too.
        expect(
          await page.evaluate(
            async () => ((await (await fetch("/api/get-user")).json()) as { data: { name: string } }).data.name,
          ),
        ).toBe(newName);
        await expectAxeClean(page);
        // The name alone asked for no password.
        expect(await page.locator("input[name=current_password]").count()).toBe(0);

        // A new email asks for the current password, then waits for the code sent to it (M4).
        const newEmail = `e2e-moved-${locale}-${Date.now()}@example.com`;
        await page.locator("input[name=email]").fill(newEmail);
        await page.getByLabel(t.currentPassword).waitFor();
        await page.getByRole("button", { name: t.saveProfile }).click();
        await expect.poll(() => page.locator(".form__summary").textContent()).toContain(t.currentPasswordNeeded);
        await page.locator("input[name=current_password]").fill(NEW_PASSWORD);
        await page.getByRole("button", { name: t.saveProfile }).click();
        await page.waitForURL(
          (url) => url.pathname === `/${locale}/auth/otp` && url.searchParams.get("to") === newEmail,
        );
        await hydrated(page);
        await page.locator("input[name=code]").fill(await codeFromOutbox(newEmail, "verify"));
        await page.locator("form.auth-form button[type=submit]").click();
        await page.waitForURL(`${base}/${locale}/profile`);
        await page.goto(`${base}/${locale}/profile/edit`);
        expect(await page.locator("input[name=email]").inputValue()).toBe(newEmail);

        await page.goto(`${base}/${locale}/profile/change-password`);
        await hydrated(page);
        await page.locator("input[name=current_password]").fill("not-my-password");
        await page.locator("input[name=password]").fill(THIRD_PASSWORD);
        await page.locator("input[name=password_confirmation]").fill(THIRD_PASSWORD);
        await page.locator(".profile-card form button[type=submit]").click();
        await expect.poll(() => page.locator(".form__summary").textContent()).toContain(t.summary);
        expect(await page.locator("input[name=current_password]").getAttribute("aria-invalid")).toBe("true");
        await page.locator("input[name=current_password]").fill(NEW_PASSWORD);
        await page.locator(".profile-card form button[type=submit]").click();
        await expect.poll(() => page.locator(".form__success").isVisible()).toBe(true);
        await expectAxeClean(page);

        const res = await page.goto(`${base}/${locale}/profile/not-a-section`);
        expect(res?.status()).toBe(404);
        expect(await page.locator("main").textContent()).toContain(`${t.notFound}: /${locale}/profile/not-a-section`);
        expect(refused).toEqual([]);
        expect(errors.filter((e) => !/status of (404|422)/.test(e))).toEqual([]);
        await context.close();
      },
    );

    journeyIt(locale, "en")("a visitor who left before entering the code verifies later from the profile", async () => {
      const { context, page, errors } = await open();
      const later = `e2e-later-${locale}-${Date.now()}@example.com`;
      await page.goto(`${base}/${locale}/auth/register`);
      await hydrated(page);
      await page.locator("input[name=name]").fill(name);
      await page.locator("input[name=email]").fill(later);
      await page.locator("input[name=password]").fill(PASSWORD);
      await page.locator("input[name=password_confirmation]").fill(PASSWORD);
      await page.locator("form.auth-form button[type=submit]").click();
      await page.waitForURL((url) => url.pathname === `/${locale}/auth/otp`);

      await page.goto(`${base}/${locale}/profile`);
      await expect.poll(() => page.locator(".profile-badge").first().textContent()).toBe(t.unverified);
      await hydrated(page);
      await page.getByRole("link", { name: t.verifyNow }).click();
      await page.waitForURL(
        (url) =>
          url.pathname === `/${locale}/auth/otp` &&
          url.searchParams.get("to") === later &&
          !url.searchParams.has("send"),
      );
      await hydrated(page);
      await page.locator("input[name=code]").fill(await codeFromOutbox(later, "verify"));
      await page.locator("form.auth-form button[type=submit]").click();
      await page.waitForURL(`${base}/${locale}/profile`);
      await expect.poll(() => page.locator(".profile-badge").first().textContent()).toBe(t.verified);
      expect(errors).toEqual([]);
      await context.close();
    });

    journeyIt(locale, "en")(
      "§5: validation messages become visible after a field is dirty (not when only tabbed past), and all of them with the summary after a refused submit",
      async () => {
        const { context, page } = await open();
        await page.goto(`${base}/${locale}/auth/register`);
        await hydrated(page);
        // Tabbing through the empty name field (touched and validated, never changed) shows nothing.
        const nameInput = page.locator("input[name=name]");
        await nameInput.focus();
        await page.keyboard.press("Tab");
        await expect
          .poll(() => page.locator("input[name=email]").evaluate((el) => el === document.activeElement))
          .toBe(true);
        await page.waitForTimeout(300);
        expect(await page.locator(".field__error").count()).toBe(0);
        expect(await nameInput.getAttribute("aria-invalid")).toBeNull();
        const emailInput = page.locator("input[name=email]");
        await emailInput.fill("not-an-email");
        expect(await page.locator(".field__error").count()).toBe(0);
        await emailInput.press("Tab");
        await expect.poll(() => page.locator(".field__error").allTextContents()).toEqual([t.invalidEmail]);
        expect(await emailInput.getAttribute("aria-invalid")).toBe("true");
        const describedBy = (await emailInput.getAttribute("aria-describedby")) ?? "";
        expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(t.invalidEmail);
        // The name was tabbed past but never changed: no message for it yet.
        expect(await page.getByText(t.nameRequired).count()).toBe(0);

        await page.locator("input[name=password]").fill(PASSWORD);
        await page.locator("input[name=password_confirmation]").fill(`${PASSWORD}x`);
        await page.locator("form.auth-form button[type=submit]").click();
        const summary = page.locator(".form__summary");
        await expect.poll(() => summary.isVisible()).toBe(true);
        expect(await summary.textContent()).toContain(t.summary);
        expect(await summary.textContent()).toContain(t.formInvalid);
        expect(await summary.textContent()).toContain(t.nameRequired);
        expect(await summary.textContent()).toContain(t.mismatch);
        expect(await summary.evaluate((el) => el === document.activeElement)).toBe(true);

        // The confirmation refuses pasting.
        const pasted = await page.locator("input[name=password_confirmation]").evaluate((input: HTMLInputElement) => {
          const event = new ClipboardEvent("paste", {
            clipboardData: new DataTransfer(),
            cancelable: true,
            bubbles: true,
          });
          return input.dispatchEvent(event);
        });
        expect(pasted).toBe(false);
        await context.close();
      },
    );

    journeyIt(locale, "ar")(
      "§5: the phone input blocks every key but digits, Backspace, Delete and plus, stops at the country's maximum length and switches country from the list",
      async () => {
        const { context, page } = await open();
        await page.goto(`${base}/${locale}/auth/register`);
        await hydrated(page);
        const phone = page.locator("input[type=tel]");
        expect(await phone.getAttribute("dir")).toBe("ltr");
        await phone.pressSequentially("abc");
        expect(await phone.inputValue()).toBe("");
        // Saudi Arabia, the shop's country, by default: ten national digits at most.
        await phone.pressSequentially("5012345679999");
        expect(await phone.inputValue()).toBe("5012345679");
        // §5: every key but digits, Backspace, Delete and plus is blocked: the caret stays at the end
        // through the arrows and Home, and Enter submits nothing; Backspace deletes; Tab leaves the field.
        const caret = () => phone.evaluate((el) => (el as HTMLInputElement).selectionStart);
        for (const key of ["ArrowLeft", "Home", "Enter", "Escape"]) await phone.press(key);
        expect(await caret()).toBe(10);
        expect(new URL(page.url()).pathname).toBe(`/${locale}/auth/register`);
        await phone.press("Backspace");
        expect(await phone.inputValue()).toBe("501234567");
        await phone.press("Tab");
        expect(await phone.evaluate((el) => el === document.activeElement)).toBe(false);
        // A valid number for the country: no message after leaving the field.
        expect(await page.locator(".field__error").allTextContents()).toEqual([]);

        const countryButton = page.locator(".phone-input__country");
        expect(await countryButton.textContent()).toContain("+966");
        await countryButton.click();
        const search = page.getByRole("combobox", { name: t.searchCountries });
        await search.fill(t.kuwait);
        await expect.poll(() => page.getByRole("option").first().textContent()).toContain("+965");
        await search.press("Enter");
        await expect.poll(() => countryButton.textContent()).toContain("+965");
        expect(await page.locator(".phone-input__list").count()).toBe(0);

        await phone.fill("");
        // The plus as a keyboard types it: Shift held with the = key.
        await phone.focus();
        await page.keyboard.down("Shift");
        await page.keyboard.press("Equal");
        await page.keyboard.up("Shift");
        expect(await phone.inputValue()).toBe("+");
        await phone.pressSequentially("4478");
        await expect.poll(() => countryButton.textContent()).toContain("+44");
        await context.close();
      },
    );

    journeyIt(locale, "en")(
      "§9 row 124: the country search filters 100 ms after the last key, not before",
      async () => {
        const { context, page } = await open();
        await page.clock.install();
        await page.goto(`${base}/${locale}/auth/register`);
        await hydrated(page);
        await page.locator(".phone-input__country").click();
        const search = page.getByRole("combobox", { name: t.searchCountries });
        const firstOption = () => page.getByRole("option").first().textContent();
        const unfiltered = await firstOption();
        expect(unfiltered).not.toContain("+966");
        // The page's clock stands still from here; only runFor moves it.
        await page.clock.pauseAt(Date.now() + 60_000);
        await search.fill(t.saudi);
        await page.clock.runFor(99);
        await page.waitForTimeout(300);
        expect(await firstOption()).toBe(unfiltered);
        await page.clock.runFor(1);
        await expect.poll(firstOption).toContain("+966");
        await context.close();
      },
    );

    it("the sign-in pages have no serious accessibility issue and fit a 360 px phone", async () => {
      const { context, page, errors } = await open();
      const pages = [
        "auth/login",
        "auth/register",
        `auth/otp?purpose=verify&to=${encodeURIComponent("someone@example.com")}`,
        "auth/forget-password",
        "auth/confirm-password",
        "profile",
      ];
      for (const path of pages) {
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`${base}/${locale}/${path}`);
        await hydrated(page);
        const violations = await seriousViolations(page);
        expect(violations, `${path}: ${JSON.stringify(violations)}`).toEqual([]);
        const slug = path.split("?")[0].replace(/\//g, "-");
        if (slug === "auth-login" || slug === "auth-register")
          await fullPageScreenshot(page, `${SCREENSHOTS}/${slug}-${locale}.png`);
        await page.setViewportSize({ width: 360, height: 780 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, path).toBeLessThanOrEqual(0);
        if (slug === "auth-register") await fullPageScreenshot(page, `${SCREENSHOTS}/${slug}-${locale}-360.png`);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
