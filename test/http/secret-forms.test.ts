import { beforeAll, describe, expect, it } from "vitest";
import { addStaffByScript, consoleHttpSession, registerAccount } from "../support/console-browser.ts";
import { builtWorker, visitorIp } from "../support/http.ts";

// Passwords in URLs: a form without a method submits as GET, so without JavaScript every field,
// the password included, lands in the address. The server's HTML of every form carrying a secret
// says method="post", and a post without JavaScript is answered by the page, never a 405 or 500.
const base = builtWorker().url;
const uniq = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The page, the mark of its form in the server's HTML, and whose session it needs. */
const FORMS: { path: string; marker: RegExp; as?: "shopper" | "staff" }[] = [
  { path: "/auth/login", marker: /name="password"/ },
  { path: "/auth/register", marker: /name="password_confirmation"/ },
  { path: "/auth/otp?purpose=verify&to=someone%40example.com", marker: /name="code"/ },
  { path: "/auth/forget-password", marker: /name="email"/ },
  { path: "/auth/confirm-password", marker: /name="password_confirmation"/ },
  { path: "/profile/change-password", marker: /name="current_password"/, as: "shopper" },
  { path: "/profile/edit", marker: /name="email"/, as: "shopper" },
  { path: "/admin/sign-in", marker: /name="code"/, as: "staff" },
];

const cookies: Record<"shopper" | "staff", string> = { shopper: "", staff: "" };

beforeAll(async () => {
  const shopper = `secret-forms-${uniq()}@example.com`;
  const staff = `secret-forms-staff-${uniq()}@staff.example`;
  await registerAccount(base, shopper);
  await registerAccount(base, staff);
  await addStaffByScript([[staff, "manager"]]);
  // consoleHttpSession opens the console for staff; the sign-in page needs a session without it.
  cookies.shopper = (await consoleHttpSession(base, shopper)).cookie;
  const login = await fetch(`${base}/backend/client/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": visitorIp() },
    body: JSON.stringify({ email: staff, password: "Console-Pass-2026!" }),
  });
  const { data } = (await login.json()) as { data: { user: { id: number }; auth_data: { access_token: string } } };
  const saved = await fetch(`${base}/api/add-user`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, "cf-connecting-ip": visitorIp() },
    body: JSON.stringify({ token: data.auth_data.access_token, user: { id: data.user.id } }),
  });
  cookies.staff = (saved.headers.get("set-cookie") ?? "").split(";")[0];
  expect(cookies.staff).toMatch(/=/);
});

/** The <form …> start tag that holds the marked field. */
function formTagOf(html: string, marker: RegExp): string {
  const at = html.search(marker);
  expect(at, "the form's field is in the server's HTML").toBeGreaterThan(0);
  const start = html.lastIndexOf("<form", at);
  expect(start).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf(">", start) + 1);
}

describe("passwords in URLs: every form carrying a secret posts", () => {
  for (const locale of ["en", "ar"] as const) {
    for (const f of FORMS) {
      it(`${locale}${f.path}: the server's form says method="post", and a post without JavaScript is answered by the page`, async () => {
        const headers: Record<string, string> = { "cf-connecting-ip": visitorIp() };
        if (f.as) headers.cookie = cookies[f.as];
        const page = await fetch(`${base}/${locale}${f.path}`, { headers, redirect: "manual" });
        expect(page.status).toBe(200);
        expect(formTagOf(await page.text(), f.marker)).toMatch(/\smethod="post"/);

        const secret = `Posted-${uniq()}`;
        const posted = await fetch(`${base}/${locale}${f.path}`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded", origin: base },
          body: new URLSearchParams({ email: "someone@example.com", password: secret, code: "123456" }).toString(),
          redirect: "manual",
        });
        expect(posted.status).toBe(400);
        const html = await posted.text();
        expect(html).toContain(locale === "ar" ? "يحتاج هذا النموذج إلى JavaScript" : "This form needs JavaScript");
        expect(html).not.toContain(secret);
      });
    }
  }
});
