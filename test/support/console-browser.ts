// The operator console in Chromium: staff accounts made the way an operator makes them (register
// in the shop, then `npm run staff -- add`'s SQL), and the console's sign-in (shop login + emailed code).
import type { Page } from "playwright-core";
import type { StaffRole } from "../../contract/console.ts";
import { staffAddSql } from "../../scripts/lib/staff-sql.ts";
import { runNode } from "../../scripts/lib/worker.ts";
import { hydrated } from "./browser.ts";
import { visitorIp, builtWorker } from "./http.ts";
import { withLocalD1 } from "./local-d1.ts";

export const STAFF_PASSWORD = "Console-Pass-2026!";

/** Registers a shop account through the API (a fresh network each time: registration is rate limited). */
export async function registerAccount(base: string, email: string, name = "Staff Member"): Promise<void> {
  const res = await fetch(`${base}/backend/client/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": visitorIp() },
    body: JSON.stringify({
      name,
      email,
      phone: "",
      password: STAFF_PASSWORD,
      password_confirmation: STAFF_PASSWORD,
    }),
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`register ${email}: ${res.status} ${await res.text()}`);
}

/**
 * `npm run staff -- add <email> <role> [<email> <role> ...]` against the suite's worker's database
 * (or `persistDir`'s): one wrangler run however many accounts, as its start is what costs.
 */
export function addStaffByScript(accounts: [email: string, role: StaffRole][], persistDir?: string): Promise<string> {
  // Not spawnSync: it blocked the event loop (scripts/lib/worker.ts, `runNode`).
  return runNode(
    ["scripts/staff.ts", "add", ...accounts.flat(), "--persist-to", persistDir ?? builtWorker().persistDir],
    { ...process.env, WRANGLER_SEND_METRICS: "false" },
  );
}

const staffEmail = (role: StaffRole, label: string) =>
  `${label}-${role}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@staff.example`;

/** A new staff account of `role`, ready to sign in. */
export async function newStaffAccount(base: string, role: StaffRole, label: string): Promise<string> {
  return (await newStaffAccounts(base, { [label]: role }))[label];
}

/**
 * Makes registered accounts staff with the SQL `npm run staff -- add` runs, written to the
 * worker's database file (the suite's worker's unless `persistDir`) without starting wrangler for
 * it (test/support/local-d1.ts); `addStaffByScript` runs the command itself.
 */
export function seatStaff(accounts: [email: string, role: StaffRole][], persistDir?: string): void {
  const emails = accounts.map(([email]) => email);
  const seated = withLocalD1(persistDir ?? builtWorker().persistDir, (db) => {
    db.exec(staffAddSql(accounts));
    return db
      .prepare(`SELECT email FROM staff WHERE email IN (${emails.map(() => "?").join(", ")})`)
      .all(...emails)
      .map((row) => row.email);
  });
  const missing = emails.filter((email) => !seated.includes(email));
  if (missing.length > 0) throw new Error(`not made staff: ${missing.join(", ")}`);
}

/**
 * New staff accounts, one per label (each test keeps its own), ready to sign in: each registered
 * in the shop at `base`, then all made staff at once (`seatStaff`).
 */
export async function newStaffAccounts(
  base: string,
  roles: Record<string, StaffRole>,
  persistDir?: string,
): Promise<Record<string, string>> {
  const accounts = Object.entries(roles).map(([label, role]) => [label, staffEmail(role, label), role] as const);
  for (const [, email] of accounts) await registerAccount(base, email);
  seatStaff(
    accounts.map(([, email, role]) => [email, role]),
    persistDir,
  );
  return Object.fromEntries(accounts.map(([label, email]) => [label, email]));
}

/** Enters the verification code the development outbox holds for `email`: only verified accounts take a seat. */
export async function verifyAccount(base: string, email: string): Promise<void> {
  const code = await latestCode(base, email, "verify");
  const res = await fetch(`${base}/backend/client/auth/code-password-verify`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": visitorIp() },
    body: JSON.stringify({ email, code, purpose: "verify" }),
  });
  if (res.status !== 200) throw new Error(`verify ${email}: ${res.status} ${await res.text()}`);
}

/** The newest code the development outbox holds for `to` (and purpose). */
export async function latestCode(base: string, to: string, purpose = "staff"): Promise<string> {
  for (let i = 0; i < 40; i++) {
    const res = await fetch(`${base}/backend/dev/outbox?to=${encodeURIComponent(to)}`);
    const body = (await res.json()) as { data: { purpose: string; code: string }[] };
    const hit = body.data.find((m) => m.purpose === purpose);
    if (hit) return hit.code;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no ${purpose} code for ${to}`);
}

/** The accept link of the newest staff invitation the development outbox holds for `to`. */
export async function invitationLink(base: string, to: string): Promise<string> {
  for (let i = 0; i < 40; i++) {
    const res = await fetch(`${base}/backend/dev/outbox?to=${encodeURIComponent(to)}`);
    const body = (await res.json()) as { data: { purpose: string; text: string }[] };
    const link = body.data
      .find((m) => m.purpose === "staff-invitation")
      ?.text.match(/https?:\/\/\S+#invitation=[\w-]+/);
    if (link) return link[0];
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no invitation for ${to}`);
}

/** Signs in to the shop, then opens the console with the emailed code; ends on the dashboard. */
export async function signInToConsole(page: Page, base: string, locale: "en" | "ar", email: string): Promise<void> {
  await page.goto(`${base}/${locale}/auth/login`);
  await hydrated(page, "form.auth-form");
  await page.locator("input[name=email]").fill(email);
  await page.locator("input[name=password]").fill(STAFF_PASSWORD);
  await page.locator("form.auth-form button[type=submit]").click();
  await page.waitForURL((url) => !url.pathname.endsWith("/auth/login"));
  await page.goto(`${base}/${locale}/admin`);
  await page.waitForURL(`${base}/${locale}/admin/sign-in`);
  await hydrated(page, ".console-signin form");
  await page.locator(".console-signin button[type=button]").click();
  const code = await latestCode(base, email);
  await page.locator("input[name=code]").fill(code);
  await page.locator(".console-signin button[type=submit]").click();
  await page.waitForURL(`${base}/${locale}/admin`);
}

/**
 * Opens the console in `page` for `email` (already staff) without going through its pages: the
 * session is opened over HTTP (`consoleHttpSession`), its cookie given to the browser and the
 * shop's tab identity (spec §3: `token`, `userId` in session storage) written on a page of the
 * origin; ends on the dashboard, hydrated. For journeys about what staff do: the sign-in itself is
 * walked through its pages by `signInToConsole` in test/e2e/console.e2e.ts.
 */
export async function openConsole(page: Page, base: string, locale: "en" | "ar", email: string): Promise<void> {
  const { token, cookie, userId } = await consoleHttpSession(base, email);
  const at = cookie.indexOf("=");
  await page.context().addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: base }]);
  // On a plain-text page Chromium asks for /favicon.ico, which the shop does not serve (its icons
  // are linked from its pages): the 404 would be counted as the journey's console error.
  await page.route(`${base}/favicon.ico`, (route) => route.fulfill({ status: 204 }));
  await page.goto(`${base}/robots.txt`);
  await page.evaluate(
    ([t, u]) => {
      sessionStorage.setItem("token", t);
      sessionStorage.setItem("userId", u);
    },
    [token, String(userId)],
  );
  await page.goto(`${base}/${locale}/admin`);
  await hydrated(page, ".console-nav a[href]");
}

/** Opens the console over HTTP for `email` (already staff): its token, and the session cookie of the own server. */
export async function consoleHttpSession(
  base: string,
  email: string,
): Promise<{ token: string; cookie: string; userId: number }> {
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
  if (login.status !== 200) throw new Error(`login ${email}: ${login.status}`);
  const { data } = (await login.json()) as { data: { user: { id: number }; auth_data: { access_token: string } } };
  const token = data.auth_data.access_token;
  const saved = await fetch(`${base}/api/add-user`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ token, user: { id: data.user.id } }),
  });
  const cookie = (saved.headers.get("set-cookie") ?? "").split(";")[0];
  if (!cookie) throw new Error(`add-user ${email}: ${saved.status}`);
  const bearer = { ...json, authorization: `Bearer ${token}` };
  const staff = await fetch(`${base}/backend/admin/session`, { headers: bearer });
  if (staff.status === 200) {
    await fetch(`${base}/backend/admin/session/code`, { method: "POST", headers: bearer });
    const code = await latestCode(base, email);
    const opened = await fetch(`${base}/backend/admin/session`, {
      method: "POST",
      headers: bearer,
      body: JSON.stringify({ code }),
    });
    if (opened.status !== 200) throw new Error(`console session ${email}: ${opened.status}`);
  }
  return { token, cookie, userId: data.user.id };
}
