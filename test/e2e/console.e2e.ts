import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { seriousViolations } from "../support/axe.ts";
import { fullPageScreenshot, hydrated, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import {
  newStaffAccounts,
  openConsole,
  registerAccount,
  verifyAccount,
  signInToConsole,
  STAFF_PASSWORD,
} from "../support/console-browser.ts";
import { builtWorker } from "../support/http.ts";

/**
 * The operator console's door and its owner pages in Chromium, in both languages: staff sign in
 * with their account plus an emailed code; a shopper finds no console; an owner manages the staff
 * and reads the audit log; support's console shows only what support may use.
 */
const base = builtWorker().url;
let browser: Browser;
/** Each test's own staff account, by `${role}-${locale}`. */
let staff: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  staff = await newStaffAccounts(
    base,
    Object.fromEntries(
      LOCALES.flatMap((l) => [[`owner-${l}`, "owner"] as const, [`support-${l}`, "support"] as const]),
    ),
  );
});
afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  en: {
    signInTitle: "Open the console",
    staff: "Staff",
    audit: "Audit log",
    orders: "Orders",
    added: "Added to the staff.",
    changeContact: "Change email or phone",
    contactSaved: "Email and phone saved.",
    staffAdded: "Staff member added",
    contactChanged: "Staff contact details changed",
    noAccess: "You don't have access to this page",
  },
  ar: {
    signInTitle: "فتح لوحة الإدارة",
    staff: "الفريق",
    audit: "سجل التدقيق",
    orders: "الطلبات",
    added: "أُضيف إلى الفريق.",
    changeContact: "تغيير البريد أو الجوال",
    contactSaved: "تم حفظ البريد والجوال.",
    staffAdded: "إضافة عضو إلى الفريق",
    contactChanged: "تغيير بيانات التواصل لعضو في الفريق",
    noAccess: "لا تملك صلاحية الوصول إلى هذه الصفحة",
  },
};

for (const locale of LOCALES) {
  const t = TEXT[locale];
  describe(`the console's door (${locale})`, () => {
    it("a shopper who is signed in finds no console: the shop's 404", async () => {
      const email = `shopper-${locale}-${Date.now()}@example.com`;
      await registerAccount(base, email);
      const { context, page } = await newPage(browser);
      await page.goto(`${base}/${locale}/auth/login`);
      await hydrated(page, "form.auth-form");
      await page.locator("input[name=email]").fill(email);
      await page.locator("input[name=password]").fill(STAFF_PASSWORD);
      await page.locator("form.auth-form button[type=submit]").click();
      await page.waitForURL((url) => !url.pathname.endsWith("/auth/login"));
      for (const path of ["/admin", "/admin/sign-in", "/admin/orders", "/admin/staff"]) {
        const res = await page.goto(`${base}/${locale}${path}`);
        expect(res?.status(), path).toBe(404);
      }
      await context.close();
    });

    it("an owner signs in with the emailed code, adds a staff member, and finds it in the audit log", async () => {
      const owner = staff[`owner-${locale}`];
      const recruit = `recruit-${locale}-${Date.now()}@example.com`;
      await registerAccount(base, recruit);
      await verifyAccount(base, recruit);
      const { context, page, errors } = await newPage(browser);
      await signInToConsole(page, base, locale, owner);
      await expect.poll(() => page.locator("html").getAttribute("dir")).toBe(locale === "ar" ? "rtl" : "ltr");

      await page.getByRole("link", { name: t.staff, exact: true }).click();
      await page.waitForURL(`${base}/${locale}/admin/staff`);
      await hydrated(page, "#f-email");
      await page.locator("#f-email").fill(recruit);
      await page.locator("#f-role").selectOption("manager");
      await page.locator(".console-form--inline button[type=submit]").click();
      await expect
        .poll(() => page.locator("[data-sonner-toast]").allTextContents())
        .toEqual(expect.arrayContaining([expect.stringContaining(t.added)]));
      await expect.poll(() => page.locator(".console-table tbody").textContent()).toContain(recruit);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-staff-${locale}.png`);
      expect(JSON.stringify(await seriousViolations(page))).toEqual("[]");

      // Staff cannot move their email in the shop: the owner does it here, for the recruit.
      const moved = `moved-${recruit}`;
      await page
        .locator(".console-table tbody tr", { hasText: recruit })
        .getByRole("button", { name: t.changeContact })
        .click();
      const dialog = page.locator("dialog.console-dialog[open]");
      await dialog.locator("#staff-new-email").fill(moved);
      // A number of its own: phones are unique across accounts (the other locale's run uses one too).
      await dialog.locator("#staff-new-phone").fill(`+9665${String(Date.now()).slice(-8)}`);
      expect(JSON.stringify(await seriousViolations(page))).toEqual("[]");
      await dialog.getByRole("button", { name: t.changeContact }).click();
      await expect
        .poll(() => page.locator("[data-sonner-toast]").allTextContents())
        .toEqual(expect.arrayContaining([expect.stringContaining(t.contactSaved)]));
      await expect.poll(() => page.locator(".console-table tbody").textContent()).toContain(moved);

      await page.getByRole("link", { name: t.audit, exact: true }).click();
      await page.waitForURL(`${base}/${locale}/admin/audit`);
      // Actions are named in the console's language, not by their codes.
      await expect.poll(() => page.locator(".console-table tbody").textContent()).toContain(t.staffAdded);
      expect(await page.locator(".console-table tbody").textContent()).toContain(t.contactChanged);
      expect(await page.locator(".console-table tbody").textContent()).not.toContain("staff.add");
      expect(await page.locator(".console-table tbody").textContent()).toContain(owner);
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });

    it("support's console offers only support's sections, and an owner's page tells it that its role does not open it", async () => {
      const support = staff[`support-${locale}`];
      const { context, page } = await newPage(browser, { viewport: { width: 390, height: 844 } });
      await openConsole(page, base, locale, support);
      const nav = await page.locator(".console-nav").textContent();
      expect(nav).toContain(t.orders);
      expect(nav).not.toContain(t.staff);
      expect(nav).not.toContain(t.audit);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-support-phone-${locale}.png`);
      for (const path of ["staff", "audit"]) {
        expect((await page.goto(`${base}/${locale}/admin/${path}`))?.status()).toBe(403);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(t.noAccess);
        // Inside the console, with its way back to the dashboard.
        expect(await page.locator(".console-nav").count()).toBe(1);
      }
      await context.close();
    });
  });
}
