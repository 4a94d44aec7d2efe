import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { expectAxeClean, seriousViolations } from "../support/axe.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyLocales,
  launchBrowser,
  LOCALES,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import {
  invitationLink,
  latestCode,
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
 * with their account plus an emailed code; a shopper finds no console; an owner invites a staff
 * member, who accepts from the emailed link and lands in the console; the owner reads the audit
 * log; support's console shows only what support may use.
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
      LOCALES.flatMap((l) => [
        [`owner-${l}`, "owner"] as const,
        [`support-${l}`, "support"] as const,
        [`styles-${l}`, "support"] as const,
      ]),
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
    invited: "Invitation sent to",
    invitedAs: "You are invited to work in the shop's console as a manager.",
    accept: "Accept and join the staff",
    signIn: "Sign in",
    used: "This invitation was already used. If it was you, open the console.",
    changeContact: "Change email or phone",
    contactSaved: "Email and phone saved.",
    staffInvited: "Staff member invited",
    invitationAccepted: "Staff invitation accepted",
    contactChanged: "Staff contact details changed",
    noAccess: "You don't have access to this page",
  },
  ar: {
    signInTitle: "فتح لوحة الإدارة",
    staff: "الفريق",
    audit: "سجل التدقيق",
    orders: "الطلبات",
    invited: "أُرسلت الدعوة إلى",
    invitedAs: "أنت مدعو للعمل في لوحة إدارة المتجر بدور مدير.",
    accept: "قبول الدعوة والانضمام إلى الفريق",
    signIn: "تسجيل الدخول",
    used: "استُخدمت هذه الدعوة من قبل. إن كنت أنت من قبلها فافتح لوحة الإدارة.",
    changeContact: "تغيير البريد أو الجوال",
    contactSaved: "تم حفظ البريد والجوال.",
    staffInvited: "دعوة عضو إلى الفريق",
    invitationAccepted: "قبول دعوة إلى الفريق",
    contactChanged: "تغيير بيانات التواصل لعضو في الفريق",
    noAccess: "لا تملك صلاحية الوصول إلى هذه الصفحة",
  },
};

for (const locale of journeyLocales("en")) {
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

    it("an owner invites a staff member by email; they open the emailed link, sign in, accept and land in the console; the audit log names each step", async () => {
      const owner = staff[`owner-${locale}`];
      const recruit = `recruit-${locale}-${Date.now()}@example.com`;
      await registerAccount(base, recruit, "Noura Saleh");
      await verifyAccount(base, recruit);
      const { context, page, errors } = await newPage(browser);
      await signInToConsole(page, base, locale, owner);
      await expect.poll(() => page.locator("html").getAttribute("dir")).toBe(locale === "ar" ? "rtl" : "ltr");

      await page.getByRole("link", { name: t.staff, exact: true }).click();
      await page.waitForURL(`${base}/${locale}/admin/staff`);
      await hydrated(page, "#f-email");
      await page.locator("#f-email").fill(recruit);
      await page.locator("#f-name").fill("Noura Saleh");
      await page.locator("#f-role").selectOption("manager");
      await page.locator(".console-form--inline button[type=submit]").click();
      await expect
        .poll(() => page.locator("[data-sonner-toast]").allTextContents())
        .toEqual(expect.arrayContaining([expect.stringContaining(t.invited)]));
      const pending = page.locator("section[aria-labelledby=staff-invitations] tbody");
      await expect.poll(() => pending.textContent()).toContain(recruit);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-staff-invitation-${locale}.png`);
      expect(JSON.stringify(await seriousViolations(page))).toEqual("[]");

      // The invitee, in a browser of their own: the emailed link, in the inviter's language.
      const link = await invitationLink(base, recruit);
      expect(link).toContain(`/${locale}/staff-invitation#invitation=`);
      const invitee = await newPage(browser);
      await invitee.page.goto(link);
      const signIn = invitee.page.locator(".auth-card").getByRole("link", { name: t.signIn, exact: true });
      await signIn.waitFor();
      // The token leaves the address bar at once.
      expect(invitee.page.url()).toBe(`${base}/${locale}/staff-invitation`);
      expect(await invitee.page.locator(".auth-card__lead").textContent()).toBe(t.invitedAs);
      await fullPageScreenshot(invitee.page, `${SCREENSHOTS}/staff-invitation-${locale}.png`);
      expect(await seriousViolations(invitee.page)).toEqual([]);
      await hydrated(invitee.page, ".auth-card a[href*='/auth/login']");
      await signIn.click();
      await invitee.page.waitForURL((url) => url.pathname.endsWith("/auth/login"));
      await hydrated(invitee.page, "form.auth-form");
      await invitee.page.locator("input[name=email]").fill(recruit);
      await invitee.page.locator("input[name=password]").fill(STAFF_PASSWORD);
      await invitee.page.locator("form.auth-form button[type=submit]").click();
      // Back on the invitation, signed in: one click to accept.
      await invitee.page.waitForURL(`${base}/${locale}/staff-invitation`);
      const accept = invitee.page.getByRole("button", { name: t.accept });
      await accept.waitFor();
      await fullPageScreenshot(invitee.page, `${SCREENSHOTS}/staff-invitation-signed-in-${locale}.png`);
      await accept.click();
      // Into the console, whose sign-in step sends its code to the invitee's email.
      await invitee.page.waitForURL(`${base}/${locale}/admin/sign-in`);
      await hydrated(invitee.page, ".console-signin form");
      await invitee.page.locator(".console-signin button[type=button]").click();
      await invitee.page.locator("input[name=code]").fill(await latestCode(base, recruit));
      await invitee.page.locator(".console-signin button[type=submit]").click();
      await invitee.page.waitForURL(`${base}/${locale}/admin`);
      await invitee.page.locator(".console-nav").waitFor();
      // The link is single use: opened again, it says so in the page's language.
      await invitee.page.goto(link);
      await expect.poll(() => invitee.page.locator(".auth-card [role=alert]").textContent()).toBe(t.used);
      expect(invitee.errors).toEqual([]);
      await invitee.context.close();

      // The owner sees the recruit on the team, and the invitation gone from the pending list.
      await page.reload();
      await hydrated(page, "#f-email");
      await expect.poll(() => page.locator(".console-table").first().textContent()).toContain(recruit);
      expect(await pending.textContent()).not.toContain(recruit);

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
      await expect.poll(() => page.locator(".console-table tbody").first().textContent()).toContain(moved);

      await page.getByRole("link", { name: t.audit, exact: true }).click();
      await page.waitForURL(`${base}/${locale}/admin/audit`);
      // Actions are named in the console's language, not by their codes.
      const log = page.locator(".console-table tbody");
      await expect.poll(() => log.textContent()).toContain(t.staffInvited);
      expect(await log.textContent()).toContain(t.invitationAccepted);
      expect(await log.textContent()).toContain(t.contactChanged);
      expect(await log.textContent()).not.toContain("staff.invite");
      expect(await log.textContent()).toContain(owner);
      await expectAxeClean(page);
      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);

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

/**
 * A client-side navigation through the browser's own history: React Router follows a popstate as
 * it follows the back button, loading the page's modules and data but no document. (The shop has
 * no link into the console, and this reaches every area the same way.)
 */
async function clientNavigate(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    const state = history.state as { idx?: number } | null;
    history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx: (state?.idx ?? 0) + 1 }, "", to);
    dispatchEvent(new PopStateEvent("popstate", { state: history.state }));
  }, path);
}

/** The document's stylesheets, in order: their path, whether loaded, their precedence. */
const sheetsOf = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((l) => ({
      path: new URL(l.href).pathname,
      loaded: l.sheet !== null,
      precedence: l.dataset.precedence,
    })),
  );

/**
 * Each area's stylesheet at work: an element of the page and a computed property its sheet sets
 * (components/Stylesheet.tsx). The first step loads its document; the others are client-side.
 */
const AREAS = [
  { path: "", selector: ".hero", property: "display", value: "grid" },
  { path: "/product-details/iphone-16-pro", selector: ".add-to-cart", property: "display", value: "flex" },
  { path: "/shopping-cart", selector: ".cart-lines", property: "display", value: "grid" },
  { path: "/checkout", selector: ".checkout__layout", property: "display", value: "grid" },
  { path: "/profile/orders", selector: ".profile-nav", property: "border-top-style", value: "solid" },
  { path: "/admin", selector: ".console", property: "min-height", value: "900px" },
  { path: "/products", selector: ".product-grid", property: "display", value: "grid" },
] as const;

describe("stylesheets across the areas", () => {
  for (const locale of LOCALES) {
    it(`${locale}: home, product, cart, checkout, account, console and back: each page styled when it first shows, on first load and after client-side navigation, each sheet once, app.css first`, async () => {
      const { context, page, errors } = await newPage(browser);
      const requested: string[] = [];
      page.on("request", (r) => {
        if (r.resourceType() === "stylesheet") requested.push(new URL(r.url()).pathname);
      });
      await openConsole(page, base, locale, staff[`styles-${locale}`]);
      // The console's first load, then the shop's.
      expect(await page.locator(".console").evaluate((e) => getComputedStyle(e).minHeight)).toBe("900px");
      requested.length = 0;
      await page.goto(`${base}/${locale}`);
      await hydrated(page, "#site-search");
      await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));

      for (const [i, step] of AREAS.entries()) {
        if (i > 0) await clientNavigate(page, `/${locale}${step.path}`);
        await page.locator(step.selector).first().waitFor({ timeout: 20_000 });
        // When a page navigated to shows, its sheets have loaded: React held the commit for them.
        // (On the first load the cart drawer's sheet may still be on its way: it loads when idle.)
        const sheets = await sheetsOf(page);
        const value = await page
          .locator(step.selector)
          .first()
          .evaluate((e, prop) => getComputedStyle(e).getPropertyValue(prop), step.property);
        expect(value, `${locale}${step.path}: ${step.selector} ${step.property}`).toBe(step.value);
        if (i > 0)
          expect(
            sheets.filter((s) => !s.loaded).map((s) => s.path),
            `${locale}${step.path}: sheets still loading`,
          ).toEqual([]);
        expect(sheets[0].path, `${locale}${step.path}: app.css first`).toMatch(/^\/assets\/app-[\w-]+\.css$/);
        expect(sheets[0].precedence).toBe("base");
        const paths = sheets.map((s) => s.path);
        expect(new Set(paths).size, `${locale}${step.path}: ${paths.join(", ")}`).toBe(paths.length);
        if (step.path === "/product-details/iphone-16-pro") {
          await hydrated(page, ".add-to-cart__button");
          await page.locator(".add-to-cart__button").click();
          await page.locator("#cart-drawer [data-product-id]").first().waitFor({ timeout: 20_000 });
          await page.keyboard.press("Escape");
        }
      }
      expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
      // Each stylesheet asked for once from the shop's first load on, through every area.
      const twice = requested.filter((p, i) => requested.indexOf(p) !== i);
      expect(twice, `requested twice: ${twice.join(", ")}`).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
