// The console's second factor and who may hold a staff seat. Each test is named after the attack
// it stops: a staff password alone must never reach the console, and a seat goes only to the
// person whose verified inbox the owner meant.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CONSOLE_FREEZE_SECONDS } from "../../worker/backend/services/console/staff";
import { issueCode } from "../../worker/backend/services/accounts/otp";
import {
  call,
  freshEmail,
  freshPhone,
  latestCode,
  outbox,
  register,
  STRONG_PASSWORD,
  SLOW_CRYPTO_TIMEOUT,
  type Registered,
} from "../support/accounts";
import { newStaff, type Staff } from "../support/console";

const as = (who: Staff) => ({ headers: who.headers });
const login = async (email: string, password: string): Promise<string> => {
  const res = await call("POST", "/client/auth/login", { email, password });
  expect(res.status).toBe(200);
  return res.body.data.auth_data.access_token as string;
};
const verify = async (email: string) => {
  const code = await latestCode(email, "verify");
  const res = await call("POST", "/client/auth/code-password-verify", { email, code, purpose: "verify" });
  expect(res.status).toBe(200);
};

/** A real staff member: registered and verified in the shop, then added by an owner in the console. */
async function hired(owner: Staff, role: "manager" | "support" | "owner" = "manager"): Promise<Registered> {
  const member = await register();
  await verify(member.email);
  const added = await call("POST", "/admin/staff", { email: member.email, role }, as(owner));
  expect(added.status).toBe(201);
  return member;
}

/** Opens the console of `token` with a code issued for it directly (what the emailed code does). */
async function openConsole(userId: number, token: string) {
  const issued = await issueCode(env, userId, "staff", false);
  if (!issued.issued) throw new Error("no code");
  return call("POST", "/admin/session", { code: issued.code }, { token });
}

const consoleCodesTo = async (to: string) => (await outbox(to)).filter((m) => m.purpose === "staff");

describe("console code hijack", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("console code hijack: a staff password alone cannot move the account's email and open the console", async () => {
    const owner = await newStaff("owner");
    const manager = await hired(owner);
    const drop = freshEmail();

    // The attacker has only the password: signs in, and tries the profile form with it.
    const token = await login(manager.email, manager.password);
    const moved = await call(
      "POST",
      "/client/auth/profile",
      { name: "Sara Ahmed", email: drop, phone: manager.phone, current_password: manager.password },
      { token },
    );
    expect(moved.status).toBe(403);
    expect(moved.body.message).toBe(
      "Staff accounts cannot change their email or phone here. Ask an owner to change it in the console (Staff).",
    );
    const arabic = await call(
      "POST",
      "/client/auth/profile",
      { name: "Sara Ahmed", email: drop, phone: manager.phone, current_password: manager.password },
      { token, lang: "ar" },
    );
    expect(arabic.status).toBe(403);
    expect(arabic.body.message).toBe(
      "لا يمكن لحسابات فريق العمل تغيير البريد الإلكتروني أو رقم الجوال من هنا. اطلب من المالك تغييره في لوحة الإدارة (فريق العمل).",
    );
    // The phone is refused alike (it names the account for password resets by SMS).
    const phone = await call(
      "POST",
      "/client/auth/profile",
      { name: "Sara Ahmed", email: manager.email, phone: freshPhone(), current_password: manager.password },
      { token },
    );
    expect(phone.status).toBe(403);
    // The name alone stays the staff member's own to change.
    const renamed = await call(
      "POST",
      "/client/auth/profile",
      { name: "Sara A.", email: manager.email, phone: manager.phone },
      { token },
    );
    expect(renamed.status).toBe(200);

    // Nothing reached the attacker's inbox; the console code still goes to the real one only.
    expect(await outbox(drop)).toEqual([]);
    expect((await call("POST", "/admin/session/code", undefined, { token })).status).toBe(200);
    expect(await consoleCodesTo(drop)).toEqual([]);
    expect(await consoleCodesTo(manager.email)).toHaveLength(1);
    const read = await call("GET", "/client/auth/profile", undefined, { token });
    expect(read.body.data).toMatchObject({ email: manager.email, phone: manager.phone });
    expect(read.body.data.pending_email).toBeUndefined();
  });

  it("console code hijack: an email change asked for before the account became staff cannot be confirmed once it is", async () => {
    const owner = await newStaff("owner");
    const member = await register();
    await verify(member.email);
    const drop = freshEmail();
    // Asked while still a shopper (allowed then), confirmed only after the owner adds the account.
    const asked = await call(
      "POST",
      "/client/auth/profile",
      { name: "Sara Ahmed", email: drop, phone: member.phone, current_password: member.password },
      { token: member.token },
    );
    expect(asked.status).toBe(200);
    expect((await call("POST", "/admin/staff", { email: member.email, role: "manager" }, as(owner))).status).toBe(201);
    const code = await latestCode(drop, "verify");
    // Adding the seat dropped the pending change: its code confirms nothing.
    const confirmed = await call("POST", "/client/auth/code-password-verify", { email: drop, code, purpose: "verify" });
    expect(confirmed.status).toBe(422);
    const read = await call("GET", "/client/auth/profile", undefined, { token: member.token });
    expect(read.body.data.email).toBe(member.email);
    expect(read.body.data.pending_email).toBeUndefined();
    expect((await call("POST", "/admin/session/code", undefined, { token: member.token })).status).toBe(200);
    expect(await consoleCodesTo(drop)).toEqual([]);

    // A seat given another way (the command line writes the table) with a change still pending:
    // the confirmation is refused, in words that say who changes a staff email.
    const other = await register();
    await verify(other.email);
    const elsewhere = freshEmail();
    await call(
      "POST",
      "/client/auth/profile",
      { name: "Sara Ahmed", email: elsewhere, phone: other.phone, current_password: other.password },
      { token: other.token },
    );
    await env.DB.prepare("INSERT INTO staff (user_id, role, email) VALUES (?, 'owner', ?)")
      .bind(other.id, other.email)
      .run();
    const late = await call("POST", "/client/auth/code-password-verify", {
      email: elsewhere,
      code: await latestCode(elsewhere, "verify"),
      purpose: "verify",
    });
    expect(late.status).toBe(403);
    expect(late.body.message).toMatch(/^Staff accounts cannot change their email or phone here/);
    expect((await call("GET", "/client/auth/profile", undefined, { token: other.token })).body.data).toMatchObject({
      email: other.email,
    });
  });

  it("console code hijack: an account whose email is no longer the one it was made staff for gets no code and no console", async () => {
    const owner = await newStaff("owner");
    const manager = await hired(owner);
    expect((await openConsole(manager.id, manager.token)).status).toBe(200);
    expect((await call("GET", "/admin/orders", undefined, { token: manager.token })).status).toBe(200);

    // However the account's email came to differ (an older path, a direct edit), the seat does not follow it.
    const drop = freshEmail();
    await env.DB.prepare("UPDATE users SET email = ? WHERE id = ?").bind(drop, manager.id).run();
    expect((await call("GET", "/admin/orders", undefined, { token: manager.token })).status).toBe(401);
    const asked = await call("POST", "/admin/session/code", undefined, { token: manager.token });
    expect(asked.status).toBe(403);
    expect(asked.body.message).toBe(
      "This account's email is not the one it was added to the staff with. An owner must confirm its email in the console (Staff).",
    );
    expect(await consoleCodesTo(drop)).toEqual([]);
    const opened = await openConsole(manager.id, manager.token);
    expect(opened.status).toBe(403);

    // The owner sees it in the staff list, and confirms the new address: the seat works again.
    const list = await call("GET", `/admin/staff?per_page=100`, undefined, as(owner));
    const row = list.body.data.find((r: { user_id: number }) => r.user_id === manager.id);
    expect(row).toMatchObject({ email: drop, staff_email: manager.email, email_changed: true, verified: true });
    const pinned = await call("PUT", `/admin/staff/${manager.id}/contact`, { email: drop }, as(owner));
    expect(pinned.status).toBe(200);
    expect((await openConsole(manager.id, manager.token)).status).toBe(200);
  });

  it("an owner changes a staff member's email and phone in the console: audited, sessions closed, old address told", async () => {
    const owner = await newStaff("owner");
    const manager = await hired(owner);
    expect((await openConsole(manager.id, manager.token)).status).toBe(200);
    const next = freshEmail();
    const phone = freshPhone();
    const taken = await call("PUT", `/admin/staff/${manager.id}/contact`, { email: owner.email }, as(owner));
    expect(taken.status).toBe(422);
    expect(taken.body.errors.email).toEqual(["Another account uses this value."]);
    const bad = await call("PUT", `/admin/staff/${manager.id}/contact`, { email: next, phone: "12" }, as(owner));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.phone).toBeTruthy();
    const changed = await call("PUT", `/admin/staff/${manager.id}/contact`, { email: next, phone }, as(owner));
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ email: next, phone, staff_email: next });
    // The member's console closed; a new code goes to the new address only.
    expect((await call("GET", "/admin/session", undefined, { token: manager.token })).body.data.elevated).toBe(false);
    // (A minute after the last code: codes are sent at most once a minute.)
    await env.DB.prepare("UPDATE otp_codes SET created_at = created_at - 120 WHERE user_id = ?").bind(manager.id).run();
    expect((await call("POST", "/admin/session/code", undefined, { token: manager.token })).status).toBe(200);
    expect(await consoleCodesTo(next)).toHaveLength(1);
    expect((await outbox(manager.email)).map((m) => m.purpose)).toContain("email-changed");
    const audit = await call(
      "GET",
      `/admin/audit?entity=staff&entity_id=${manager.id}&sort=created_at&dir=asc`,
      undefined,
      as(owner),
    );
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(["staff.add", "staff.contact"]);
  });

  it("console code hijack: a password reset through the inbox freezes the console for a day and closes its sessions", async () => {
    const owner = await newStaff("owner");
    const manager = await hired(owner);
    expect((await openConsole(manager.id, manager.token)).status).toBe(200);

    // Whoever holds the inbox (not the password) resets the password with the code sent there.
    await call("POST", "/client/auth/reset-password", { email: manager.email });
    const code = await latestCode(manager.email, "reset");
    const accepted = await call("POST", "/client/auth/code-password-verify", {
      email: manager.email,
      code,
      purpose: "reset",
    });
    expect(accepted.status).toBe(200);
    const fresh = "a brand new passphrase 42";
    const reset = await call("POST", "/client/auth/update-password", {
      reset_token: accepted.body.data.reset_token,
      password: fresh,
      password_confirmation: fresh,
    });
    expect(reset.status).toBe(200);

    const token = await login(manager.email, fresh);
    const asked = await call("POST", "/admin/session/code", undefined, { token });
    expect(asked.status).toBe(403);
    expect(asked.body.message).toMatch(/^The console stays closed for 24 hours after a password change/);
    expect((await openConsole(manager.id, token)).status).toBe(403);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM staff_sessions WHERE user_id = ?").bind(manager.id).first("n"),
    ).toBe(0);
    const arabic = await call("POST", "/admin/session/code", undefined, { token, lang: "ar" });
    expect(arabic.body.message).toMatch(/^تبقى لوحة الإدارة مغلقة 24 ساعة/);

    // A day later the console opens again.
    await env.DB.prepare("UPDATE users SET password_changed_at = password_changed_at - ? WHERE id = ?")
      .bind(CONSOLE_FREEZE_SECONDS + 1, manager.id)
      .run();
    expect((await openConsole(manager.id, token)).status).toBe(200);
  });

  it("console code hijack: changing the password closes the console of this very sign-in and freezes it", async () => {
    const owner = await newStaff("owner");
    const manager = await hired(owner);
    expect((await openConsole(manager.id, manager.token)).status).toBe(200);
    const changed = await call(
      "POST",
      "/client/auth/change-password",
      {
        current_password: STRONG_PASSWORD,
        password: "another good passphrase",
        password_confirmation: "another good passphrase",
      },
      { token: manager.token },
    );
    expect(changed.status).toBe(200);
    // The shop sign-in stays; its console session does not.
    expect((await call("GET", "/client/auth/profile", undefined, { token: manager.token })).status).toBe(200);
    const me = await call("GET", "/admin/session", undefined, { token: manager.token });
    expect(me.body.data).toMatchObject({ elevated: false, frozen_until: expect.any(String) });
    expect((await openConsole(manager.id, manager.token)).status).toBe(403);
  });
});

describe("staff seat pre-hijack", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("staff seat pre-hijack: an unverified account registered with a future hire's email is not made staff", async () => {
    const owner = await newStaff("owner");
    // The attacker registers the future hire's address first, and never verifies it.
    const squatter = await register();
    const refused = await call("POST", "/admin/staff", { email: squatter.email, role: "manager" }, as(owner));
    expect(refused.status).toBe(422);
    expect(refused.body.errors.email).toEqual([
      "This account has not verified its email yet: they must enter the code we sent them first.",
    ]);
    const arabic = await call(
      "POST",
      "/admin/staff",
      { email: squatter.email, role: "manager" },
      { headers: { ...owner.headers, "content-language": "ar" } },
    );
    expect(arabic.status).toBe(422);
    expect(arabic.body.errors.email).toEqual([
      "لم يتحقق هذا الحساب من بريده الإلكتروني بعد: يجب أن يُدخل الرمز الذي أرسلناه إليه أولًا.",
    ]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM staff WHERE user_id = ?").bind(squatter.id).first("n")).toBe(
      0,
    );
    expect((await call("GET", "/admin/session", undefined, { token: squatter.token })).status).toBe(404);

    // Once the real owner of the address verifies it, the seat can be given.
    await verify(squatter.email);
    expect((await call("POST", "/admin/staff", { email: squatter.email, role: "manager" }, as(owner))).status).toBe(
      201,
    );
    const list = await call("GET", `/admin/staff?per_page=100`, undefined, as(owner));
    const row = list.body.data.find((r: { user_id: number }) => r.user_id === squatter.id);
    expect(row).toMatchObject({
      email: squatter.email,
      staff_email: squatter.email,
      verified: true,
      email_changed: false,
    });
  });
});

describe("the migration that pins staff seats", () => {
  it("a seat made under the old schema is pinned to its account's email, and keeps its role and sessions", async () => {
    const member = await newStaff("manager");
    // As the row was before the pin existed: no email on the seat.
    await env.DB.prepare("UPDATE staff SET email = NULL WHERE user_id = ?").bind(member.userId).run();
    expect((await call("GET", "/admin/orders", undefined, as(member))).status).toBe(401);

    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0027_"))!;
    for (const query of migration.queries.filter((q) => /^\s*UPDATE\b/m.test(q) && !/ALTER TABLE/.test(q)))
      await env.DB.prepare(query).run();

    const row = await env.DB.prepare("SELECT role, email FROM staff WHERE user_id = ?")
      .bind(member.userId)
      .first<{ role: string; email: string }>();
    expect(row).toEqual({ role: "manager", email: member.email });
    // The session opened before is still there, and counts again.
    expect((await call("GET", "/admin/orders", undefined, as(member))).status).toBe(200);
  });
});
