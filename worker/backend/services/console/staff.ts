import type { Context, MiddlewareHandler } from "hono";
import { roleAtLeast, STAFF_ROLES, type StaffMe, type StaffRole } from "../../../../contract/console";
import type { BackendEnv, Lang, StaffCaller } from "../../env";
import { BackendError } from "../../http";
import { bearerToken, sha256Hex, userForToken } from "../../identity";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import { shopMoment } from "../../../../contract/shop-time";
import { deliver, type AccountsEnv } from "../accounts/accounts";
import { consumeCode, issueCode } from "../accounts/otp";
import { accessIdentity } from "./staff-access";
import { msg } from "../../messages";

/**
 * Staff and the console session. A staff member is a shop account with a role. The
 * console opens with the account's own sign-in plus a one-time code sent to its email each time:
 * the code marks that account token (by its hash) as a console session for CONSOLE_SESSION_SECONDS.
 * Behind Cloudflare Access the Access token is checked instead (services/console/staff-access.ts).
 *
 * Everyone who is not staff gets 404 from every console route (the console does not exist for
 * them); staff whose role is too weak get 403; staff without their code yet get 401.
 */
export const CONSOLE_SESSION_SECONDS = 12 * 60 * 60;

/**
 * How long a staff account's console stays closed after its password changed or was reset. The
 * code goes to the email, and a reset is proved with a code to that same email (or the phone): so
 * whoever holds only the inbox could otherwise reset the password and open the console with both
 * "factors" at once, and whoever holds only the password could change it and shut the owner of the
 * account out. A day gives the real staff member (who is told of every change at their email) and
 * the owners time to notice and remove the seat. The console's sessions end at the change itself.
 */
export const CONSOLE_FREEZE_SECONDS = 24 * 60 * 60;

const now = () => Math.floor(Date.now() / 1000);

interface StaffRow {
  user_id: number;
  role: StaffRole;
  name: string;
  email: string | null;
  /** The email the seat was granted for (staff.email). */
  staff_email: string | null;
  password_changed_at: number | null;
}

const STAFF_SELECT =
  "SELECT s.user_id, s.role, u.name, u.email, s.email AS staff_email, u.password_changed_at FROM staff s JOIN users u ON u.id = s.user_id";

export async function findStaff(db: D1Database, userId: number): Promise<StaffRow | null> {
  return db.prepare(`${STAFF_SELECT} WHERE s.user_id = ?`).bind(userId).first<StaffRow>();
}

/** The staff member Cloudflare Access names: the seat's pinned email and the account's must both be it. */
export async function findStaffByEmail(db: D1Database, email: string): Promise<StaffRow | null> {
  return db
    .prepare(`${STAFF_SELECT} WHERE u.email = ?1 COLLATE NOCASE AND s.email = ?1 COLLATE NOCASE`)
    .bind(email.trim())
    .first<StaffRow>();
}

/**
 * What stops a code from opening this seat's console now (see StaffCaller.locked). The seat holds
 * only while the account's email is the one the owner granted it for: the code is the second
 * factor only if the password cannot choose where it goes (the shop profile refuses staff an email
 * change, accounts.ts; this catches every other way an email could have moved).
 */
function lockOf(staff: StaffRow, t: number): Pick<StaffCaller, "locked" | "frozenUntil"> {
  const pinned = staff.staff_email?.toLowerCase();
  if (!pinned || pinned !== staff.email?.toLowerCase()) return { locked: "email_changed", frozenUntil: null };
  const until = staff.password_changed_at === null ? 0 : staff.password_changed_at + CONSOLE_FREEZE_SECONDS;
  if (until > t) return { locked: "password_changed", frozenUntil: until };
  return { locked: null, frozenUntil: null };
}

/** The console session of a token: its end (Unix seconds), or null. */
async function sessionEnd(db: D1Database, token: string): Promise<number | null> {
  const row = await db
    .prepare("SELECT expires_at FROM staff_sessions WHERE token_hash = ? AND expires_at > ?")
    .bind(await sha256Hex(token), now())
    .first<{ expires_at: number }>();
  return row?.expires_at ?? null;
}

const notFound = () => new BackendError(404, "Not found");

/**
 * Who is calling the console: a staff member (elevated or not), or null for everyone else.
 * Cloudflare Access, when configured and its token is valid, names the staff member by email.
 */
export async function consoleCaller(c: Context<BackendEnv>): Promise<StaffCaller | null> {
  const viaAccess = await accessIdentity(c.env, c.req.header("cf-access-jwt-assertion"));
  if (viaAccess) {
    // Access is its own factor (the organisation's sign-in), which the shop password does not
    // touch: a password change does not close it, but the seat's email must still be Access's.
    const staff = await findStaffByEmail(c.env.DB, viaAccess.email);
    if (!staff?.email) return null;
    return {
      ...caller(staff, staff.email),
      elevated: true,
      via: "access",
      expiresAt: viaAccess.expiresAt,
      locked: null,
      frozenUntil: null,
    };
  }
  const token = bearerToken(c);
  if (!token) return null;
  const userId = await userForToken(c.env.DB, token);
  if (userId === null) return null;
  const staff = await findStaff(c.env.DB, userId);
  if (!staff?.email) return null;
  const lock = lockOf(staff, now());
  // A session opened before the lock does not outlive it (an email moved under it).
  const end = lock.locked === null ? await sessionEnd(c.env.DB, token) : null;
  return {
    ...caller(staff, staff.email),
    ...lock,
    elevated: end !== null,
    via: end !== null ? "code" : null,
    expiresAt: end,
  };
}

const caller = (staff: StaffRow, email: string) => ({
  user_id: staff.user_id,
  role: staff.role,
  name: staff.name,
  email,
});

export function presentMe(staff: StaffCaller): StaffMe {
  return {
    user_id: staff.user_id,
    name: staff.name,
    email: staff.email,
    role: staff.role,
    elevated: staff.elevated,
    via: staff.via,
    expires_at: staff.expiresAt ? new Date(staff.expiresAt * 1000).toISOString() : null,
    locked: staff.locked,
    frozen_until: staff.frozenUntil ? new Date(staff.frozenUntil * 1000).toISOString() : null,
  };
}

const MESSAGES = {
  codeRequired: msg("console.staff.codeRequired"),
  forbidden: msg("console.staff.forbidden"),
  emailChanged: msg("console.staff.emailChanged"),
  frozen: msg("console.staff.frozen"),
} satisfies Record<string, Bilingual>;

/** Refuses a code (sending or entering it) while the seat is locked, saying why and what to do. */
export function refuseLocked(staff: StaffCaller, lang: Lang): void {
  if (staff.locked === "email_changed") throw new BackendError(403, say(lang, MESSAGES.emailChanged));
  if (staff.locked === "password_changed") {
    const until = shopMoment((staff.frozenUntil ?? now()) * 1000, lang);
    throw new BackendError(403, say(lang, MESSAGES.frozen, { until }));
  }
}

/**
 * The guard of every console route: staff of at least `minimum`, who entered their code. Anyone
 * else learns nothing: a guest or a shopper gets the same 404 as an unknown path.
 */
export function staffOnly(
  minimum: StaffRole,
  opts: { elevated?: boolean } = {},
): MiddlewareHandler<BackendEnv> & StaffGuard {
  const guard = async (c: Context<BackendEnv>, next: () => Promise<void>) => {
    const staff = await consoleCaller(c);
    if (!staff) throw notFound();
    if (opts.elevated !== false && !staff.elevated)
      throw new BackendError(401, say(c.get("lang"), MESSAGES.codeRequired));
    if (!roleAtLeast(staff.role, minimum)) throw new BackendError(403, say(c.get("lang"), MESSAGES.forbidden));
    c.set("staff", staff);
    await next();
  };
  // What the guard demands, readable from the route table (the access matrix test walks it).
  return Object.assign(guard, { staffGuard: { minimum, elevated: opts.elevated !== false } });
}

/** Marks a console guard in hono's route table. */
export interface StaffGuard {
  staffGuard: { minimum: StaffRole; elevated: boolean };
}

/** The staff member a guarded handler runs for. */
export function currentStaff(c: Context<BackendEnv>): StaffCaller {
  const staff = c.get("staff");
  if (!staff) throw notFound();
  return staff;
}

/** Sends the console code to the staff member's email (throttled like every code). */
export async function sendStaffCode(env: AccountsEnv, staff: StaffCaller, lang: Lang): Promise<boolean> {
  refuseLocked(staff, lang);
  const issued = await issueCode(env, staff.user_id, "staff");
  if (!issued.issued) return false;
  await deliver(env, staff.email, "email", "staff", issued.code, lang);
  return true;
}

/** Checks the code and opens the console session of this token; false when the code is wrong. */
export async function openConsoleSession(
  env: AccountsEnv,
  token: string,
  staff: StaffCaller,
  code: string,
  network: string,
  lang: Lang,
): Promise<number | false> {
  refuseLocked(staff, lang);
  const passed = await consumeCode(env, {
    userId: staff.user_id,
    purpose: "staff",
    code,
    network,
    subject: `staff:${staff.user_id}`,
  });
  if (!passed) return false;
  const t = now();
  const end = t + CONSOLE_SESSION_SECONDS;
  await env.DB.prepare(
    `INSERT INTO staff_sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (token_hash) DO UPDATE SET created_at = excluded.created_at, expires_at = excluded.expires_at`,
  )
    .bind(await sha256Hex(token), staff.user_id, t, end)
    .run();
  return end;
}

export async function closeConsoleSession(db: D1Database, token: string): Promise<void> {
  await db
    .prepare("DELETE FROM staff_sessions WHERE token_hash = ?")
    .bind(await sha256Hex(token))
    .run();
}

/** "+9665*****78": what support sees of a phone number (emails: `maskEmail` of services/orders). */
export function maskPhone(phone: string | null): string | null {
  if (!phone) return phone;
  return phone.length > 6 ? `${phone.slice(0, 5)}${"*".repeat(phone.length - 7)}${phone.slice(-2)}` : "***";
}

/** Whether the caller may see customers' contact data unmasked (support may not). */
export const seesContactData = (staff: Pick<StaffCaller, "role">): boolean => roleAtLeast(staff.role, "manager");

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (STAFF_ROLES as readonly string[]).includes(value);
}
