import { mkdirSync, readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { expectAxeClean } from "../support/axe.ts";
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
import en from "../../locales/en.json" with { type: "json" };
import ar from "../../locales/ar.json" with { type: "json" };

/**
 * "Privacy and your data" (PDPL) in the browser, in both locales: a consent given and withdrawn
 * in one click each with its history shown, the data file downloaded and read, and the account
 * deleted through the dialog, ending signed out.
 */

const base = builtWorker().url;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

const WORDS = { en: en.privacy, ar: ar.privacy } as const;
const PASSWORD = "Falcon-Dunes-2026!";

async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () => (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined,
  );
  await networkQuiet(page);
}

describe("PDPL: privacy and your data", () => {
  for (const locale of LOCALES) {
    journeyIt(locale, "ar")(`${locale}: consents, the data file and deleting the account`, async () => {
      const w = WORDS[locale];
      const { page, context } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      try {
        const email = `pdpl-e2e-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
        await page.goto(`${base}/${locale}/auth/register`);
        await hydrated(page);
        await page.locator("input[name=name]").fill("Reem Pdpl");
        await page.locator("input[name=email]").fill(email);
        await page.locator("input[name=password]").fill(PASSWORD);
        await page.locator("input[name=password_confirmation]").fill(PASSWORD);
        // The sign-up's marketing box is there, unticked.
        await expect.poll(() => page.locator("#register-marketing").isChecked()).toBe(false);
        await page.locator("form.auth-form button[type=submit]").click();
        await page.waitForURL((url) => url.pathname === `/${locale}/auth/otp`);

        await page.goto(`${base}/${locale}/profile/privacy`);
        await hydrated(page);
        await expect.poll(() => page.locator("h1").innerText()).toBe(w.title);
        await expect.poll(() => page.getByText(w.historyEmpty).count()).toBe(1);

        // One click gives the consent, one click withdraws it; the history shows both.
        const box = page.locator("#consent-marketing");
        await box.click();
        await expect.poll(() => page.locator(".privacy-data__status").innerText()).toBe(w.consentGiven);
        await expect.poll(() => page.locator(".privacy-data__table tbody tr").count()).toBe(1);
        await box.click();
        await expect.poll(() => page.locator(".privacy-data__status").innerText()).toBe(w.consentWithdrawn);
        await expect.poll(() => page.locator(".privacy-data__table tbody tr").count()).toBe(2);
        const rows = await page.locator(".privacy-data__table tbody tr").allInnerTexts();
        expect(rows[0]).toContain(w.history.withdrawn);
        expect(rows[1]).toContain(w.history.granted);
        expect(rows[1]).toContain(w.languages[locale]);
        expect(rows[1]).toContain((locale === "en" ? en : ar).consents.marketing);

        await expectAxeClean(page);
        await fullPageScreenshot(page, `${SCREENSHOTS}/privacy-${locale}.png`);

        // The data file.
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.getByRole("button", { name: w.download }).click(),
        ]);
        expect(download.suggestedFilename()).toMatch(/^souq-edge-data-\d{4}-\d\d-\d\d\.json$/);
        const file = JSON.parse(readFileSync((await download.path())!, "utf8"));
        expect(file).toMatchObject({ format_version: 1, account: { email, name: "Reem Pdpl" } });
        expect(file.consents).toHaveLength(2);
        expect(JSON.stringify(file)).not.toContain("pbkdf2");

        // Deleting: the dialog takes focus, a wrong password is said, the right one ends it all.
        const opener = page.locator("section[aria-labelledby=privacy-delete] > button");
        await opener.click();
        const dialog = page.locator("dialog.privacy-dialog");
        await expect.poll(() => dialog.isVisible()).toBe(true);
        await expect
          .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type))
          .toBe("password");
        await expectAxeClean(page);
        await fullPageScreenshot(page, `${SCREENSHOTS}/privacy-dialog-${locale}.png`);
        await page.keyboard.press("Escape");
        await expect.poll(() => dialog.isVisible()).toBe(false);
        await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(w.delete);

        await opener.click();
        await dialog.locator("input[type=password]").fill("not my password");
        await dialog.locator("button[type=submit]").click();
        await expect.poll(() => dialog.locator("[role=alert]").count()).toBe(1);
        await dialog.locator("input[type=password]").fill(PASSWORD);
        await dialog.locator("button[type=submit]").click();
        await page.waitForURL((url) => url.pathname === `/${locale}` || url.pathname === `/${locale}/`);

        // Signed out: the profile shows the way in, and the old password opens nothing.
        await page.goto(`${base}/${locale}/profile/privacy`);
        await page.waitForURL((url) => url.pathname.startsWith(`/${locale}/auth/login`));
        const login = await fetch(`${base}/backend/client/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ email, password: PASSWORD }),
        });
        expect(login.status).toBe(422);
      } finally {
        await context.close();
      }
    });
  }
});
