import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journeyLocales, launchBrowser } from "../support/browser.ts";
import { seatStaff, registerAccount, STAFF_PASSWORD } from "../support/console-browser.ts";
import { builtWorker, visitorIp } from "../support/http.ts";

// Without JavaScript a form without a method submits as GET to its own page: every field, the
// password included, lands in the address bar, the history and the Referer of the next request.
// Each form that carries a secret posts, and the page answers the post without echoing it.
const base = builtWorker().url;
let browser: Browser;
let staffEmail: string;
let shopperEmail: string;

const SECRET = "NoScriptSecret4821";
/** What the page says instead (locales/*.json, noScript.needsScript). */
const NEEDS_SCRIPT = { en: "This form needs JavaScript", ar: "يحتاج هذا النموذج إلى JavaScript" };
const CODE = "482913";

const uniq = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

beforeAll(async () => {
  browser = await launchBrowser();
  shopperEmail = `nojs-${uniq()}@example.com`;
  staffEmail = `nojs-staff-${uniq()}@staff.example`;
  await registerAccount(base, shopperEmail, "No Script");
  await registerAccount(base, staffEmail, "No Script Staff");
  seatStaff([[staffEmail, "manager"]]);
});
afterAll(async () => {
  await browser?.close();
});

/** The own server's session cookie for `email` (shop sign-in only: the console is not opened). */
async function shopCookie(email: string): Promise<{ name: string; value: string }> {
  const json = {
    "content-type": "application/json",
    accept: "application/json",
    origin: base,
    "cf-connecting-ip": visitorIp(),
  };
  const login = await fetch(`${base}/backend/client/auth/login`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password: STAFF_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const { data } = (await login.json()) as { data: { user: { id: number }; auth_data: { access_token: string } } };
  const saved = await fetch(`${base}/api/add-user`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ token: data.auth_data.access_token, user: { id: data.user.id } }),
  });
  const cookie = (saved.headers.get("set-cookie") ?? "").split(";")[0];
  const at = cookie.indexOf("=");
  expect(at).toBeGreaterThan(0);
  return { name: cookie.slice(0, at), value: cookie.slice(at + 1) };
}

async function noScriptPage(signedInAs?: string): Promise<{ context: BrowserContext; page: Page; seen: string[] }> {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    serviceWorkers: "block",
    extraHTTPHeaders: { "cf-connecting-ip": visitorIp() },
  });
  if (signedInAs) await context.addCookies([{ ...(await shopCookie(signedInAs)), url: base }]);
  const page = await context.newPage();
  // Every address the tab asked for or went to (its history), and every Referer it sent.
  const seen: string[] = [];
  page.on("request", (request) => {
    seen.push(request.url());
    const referer = request.headers()["referer"];
    if (referer) seen.push(referer);
  });
  page.on("framenavigated", (frame) => seen.push(frame.url()));
  return { context, page, seen };
}

interface SecretForm {
  name: string;
  path: string;
  form: string;
  /** Field name → value; the values listed in `secrets` must never appear in an address. */
  fill: Record<string, string>;
  secrets: string[];
  signedInAs?: () => string;
  /**
   * Its submit button waits for the script (the reset token lives in the tab's storage): without
   * JavaScript it cannot be sent at all, by the button or by Enter.
   */
  sendsOnlyWithScript?: boolean;
}

const FORMS: SecretForm[] = [
  {
    name: "sign-in",
    path: "/auth/login",
    form: "form.auth-form",
    fill: { email: "someone@example.com", password: SECRET },
    secrets: [SECRET],
  },
  {
    name: "registration",
    path: "/auth/register",
    form: "form.auth-form",
    fill: { name: "No Script", email: "new@example.com", password: SECRET, password_confirmation: SECRET },
    secrets: [SECRET],
  },
  {
    name: "one-time code",
    path: "/auth/otp?purpose=reset&to=someone%40example.com",
    form: "form.auth-form",
    fill: { code: CODE },
    secrets: [CODE],
  },
  {
    name: "forgotten password",
    path: "/auth/forget-password",
    form: "form.auth-form",
    fill: { email: "forgetful@example.com" },
    secrets: ["forgetful"],
  },
  {
    name: "new password",
    path: "/auth/confirm-password",
    form: "form.auth-form",
    fill: { password: SECRET, password_confirmation: SECRET },
    secrets: [SECRET],
    sendsOnlyWithScript: true,
  },
  {
    name: "change password",
    path: "/profile/change-password",
    form: "form:has(input[name=current_password])",
    fill: { current_password: STAFF_PASSWORD, password: SECRET, password_confirmation: SECRET },
    secrets: [SECRET, STAFF_PASSWORD],
    signedInAs: () => shopperEmail,
  },
  {
    name: "profile edit",
    path: "/profile/edit",
    form: "form:has(input[name=email])",
    fill: { name: "No Script Edited", email: "edited-nojs@example.com" },
    secrets: ["edited-nojs"],
    signedInAs: () => shopperEmail,
  },
  {
    name: "console code",
    path: "/admin/sign-in",
    form: ".console-signin form",
    fill: { code: CODE },
    secrets: [CODE],
    signedInAs: () => staffEmail,
  },
];

const leaks = (addresses: string[], secrets: string[]) =>
  addresses.filter((address) => {
    let decoded = address;
    try {
      decoded = decodeURIComponent(address.replace(/\+/g, " "));
    } catch {
      // A malformed escape: the raw address is checked.
    }
    return secrets.some((secret) => address.includes(secret) || decoded.includes(secret));
  });

describe("passwords in URLs: without JavaScript a form carrying a secret never puts it in an address", () => {
  for (const locale of journeyLocales("en")) {
    for (const f of FORMS) {
      it(`${locale}: the ${f.name} form ${f.sendsOnlyWithScript ? "cannot be sent without the script" : "posts and answers sensibly"}, and leaves the secret out of the URL and history`, async () => {
        const { context, page, seen } = await noScriptPage(f.signedInAs?.());
        try {
          const opened = await page.goto(`${base}/${locale}${f.path}`);
          expect(opened?.status()).toBe(200);
          const form = page.locator(f.form);
          await expect.poll(() => form.getAttribute("method")).toBe("post");
          for (const [name, value] of Object.entries(f.fill)) await form.locator(`[name="${name}"]`).fill(value);
          if (f.sendsOnlyWithScript) {
            expect(await form.locator("button[type=submit]").isDisabled()).toBe(true);
            await form.locator(`[name="${Object.keys(f.fill)[0]}"]`).press("Enter");
            await page.waitForTimeout(1000);
            expect(page.url()).toBe(`${base}/${locale}${f.path}`);
            expect(leaks([page.url(), ...seen], f.secrets)).toEqual([]);
            return;
          }
          const [answer] = await Promise.all([
            page.waitForResponse((r) => r.request().isNavigationRequest() && r.request().frame() === page.mainFrame()),
            form.locator("button[type=submit]").click(),
          ]);
          await page.waitForLoadState("load");
          expect(answer.request().method()).toBe("POST");
          expect(answer.status()).toBeLessThan(500);
          expect(answer.status()).not.toBe(405);
          expect(leaks([page.url(), ...seen], f.secrets)).toEqual([]);
          // The page says what happened, in the page's language, and does not echo the secret.
          const html = await page.content();
          expect(html).not.toContain(f.secrets[0]);
          expect(await page.locator("html").getAttribute("lang")).toMatch(new RegExp(`^${locale}\\b`));
          expect(answer.status()).toBe(400);
          await expect.poll(() => page.locator("body").innerText()).toContain(NEEDS_SCRIPT[locale]);
        } finally {
          await context.close();
        }
      });
    }
  }
});
