import type { Env } from "../../env";
import type { Lang } from "../env";
import { BackendError, unprocessable } from "../http";
import { say, type Bilingual } from "../i18n";
import { issueToken, randomToken, sha256Hex } from "../identity";
import { maskRecipient, messengerFor, OutboxMessenger, type Channel, type MessagePurpose, type Messenger } from "./messenger";
import { consumeCode, issueCode, type OtpPurpose } from "./otp";
import { burnPasswordCheck, hashPassword, needsRehash, passwordProblem, verifyPassword, type PasswordProblem } from "./password";

/**
 * Accounts (DESIGN §5, spec §7 /client/auth/*). Plain functions over D1 that the routes call
 * and tests can call directly. No answer, status or timing says whether an account exists,
 * except registration with details already in use (see `registerUser`).
 */
export type AccountsEnv = Pick<Env, "DB" | "AUTH_PEPPER" | "ENVIRONMENT" | "MESSENGER" | "MESSENGER_URL" | "MESSENGER_KEY"> & {
  /** Runs a task after the answer (the request's waitUntil); used for deliveries to a remote provider. */
  defer?: (task: Promise<unknown>) => void;
};

export interface PublicUser {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  verified: boolean;
}

export interface AuthData {
  access_token: string;
  expires_at: string;
}

interface UserRow {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  password_hash: string;
  verified_at: string | null;
}

/** How the caller named the account: an email or a phone number (already normalized). */
export type Identifier = { field: "email"; value: string } | { field: "phone"; value: string };

export const RESET_TOKEN_TTL_SECONDS = 15 * 60;

export const MESSAGES = {
  invalid: { en: "The given data was invalid.", ar: "البيانات المدخلة غير صالحة." },
  badCredentials: { en: "These credentials do not match our records.", ar: "بيانات الدخول هذه لا تطابق سجلاتنا." },
  detailsUnusable: {
    en: "These details cannot be used for a new account. If you already have one, sign in or reset your password.",
    ar: "لا يمكن استخدام هذه البيانات لحساب جديد. إذا كان لديك حساب فسجّل الدخول أو أعد تعيين كلمة المرور.",
  },
  detailsTaken: { en: "This value cannot be used.", ar: "لا يمكن استخدام هذه القيمة." },
  registered: { en: "Your account has been created. We have sent you a verification code.", ar: "تم إنشاء حسابك. أرسلنا إليك رمز تحقق." },
  loggedIn: { en: "You are signed in.", ar: "تم تسجيل الدخول." },
  codeSent: {
    en: "If an account matches these details, we have sent it a code.",
    ar: "إذا كان هناك حساب مطابق لهذه البيانات فقد أرسلنا إليه رمزًا.",
  },
  codeInvalid: { en: "The code is invalid or has expired.", ar: "الرمز غير صحيح أو انتهت صلاحيته." },
  verified: { en: "Your account has been verified.", ar: "تم التحقق من حسابك." },
  codeAccepted: { en: "Code accepted. Choose a new password.", ar: "تم قبول الرمز. اختر كلمة مرور جديدة." },
  resetTokenInvalid: { en: "This reset link is invalid or has expired. Ask for a new code.", ar: "رابط إعادة التعيين غير صالح أو منتهي الصلاحية. اطلب رمزًا جديدًا." },
  passwordChanged: { en: "Your password has been changed.", ar: "تم تغيير كلمة المرور." },
  currentPasswordWrong: { en: "The current password is incorrect.", ar: "كلمة المرور الحالية غير صحيحة." },
  profileSaved: { en: "Your profile has been saved.", ar: "تم حفظ ملفك الشخصي." },
  loggedOut: { en: "You have been signed out.", ar: "تم تسجيل الخروج." },
  unauthenticated: { en: "Unauthenticated.", ar: "لم يتم تسجيل الدخول." },
  tooMany: { en: "Too many attempts. Please wait a minute and try again.", ar: "محاولات كثيرة جدًا. يرجى الانتظار دقيقة ثم المحاولة مرة أخرى." },
  passwordTooShort: { en: "The password must be at least 8 characters.", ar: "يجب ألا تقل كلمة المرور عن 8 أحرف." },
  passwordTooLong: { en: "The password may not be longer than 128 characters.", ar: "يجب ألا تزيد كلمة المرور عن 128 حرفًا." },
  passwordCommon: { en: "This password is too common. Choose a less predictable one.", ar: "كلمة المرور هذه شائعة جدًا. اختر كلمة مرور يصعب توقعها." },
} satisfies Record<string, Bilingual>;

export function passwordProblemMessage(lang: Lang, problem: PasswordProblem): string {
  const key = problem === "too_short" ? "passwordTooShort" : problem === "too_long" ? "passwordTooLong" : "passwordCommon";
  return say(lang, MESSAGES[key]);
}

const USER_COLUMNS = "id, name, email, phone, password_hash, verified_at";

export function publicUser(row: UserRow): PublicUser {
  return { id: row.id, name: row.name, email: row.email, phone: row.phone, verified: row.verified_at !== null };
}

async function findUser(db: D1Database, who: Identifier): Promise<UserRow | null> {
  const column = who.field === "email" ? "email" : "phone";
  return db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE ${column} = ?`).bind(who.value).first<UserRow>();
}

async function userById(db: D1Database, id: number): Promise<UserRow | null> {
  return db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).bind(id).first<UserRow>();
}

function refusePassword(lang: Lang, password: string, field = "password"): void {
  const problem = passwordProblem(password);
  if (problem) throw unprocessable({ [field]: [passwordProblemMessage(lang, problem)] }, say(lang, MESSAGES.invalid));
}

/**
 * Delivery failures are logged and swallowed: the answer must not depend on them (and the visitor
 * can resend). A remote provider is called after the answer, since its latency would otherwise
 * tell a known account (a code is sent) from an unknown one (nothing is sent); the local outbox
 * is a D1 insert and runs inline, so a journey can read the code as soon as the call returns.
 */
async function deliver(env: AccountsEnv, to: string, channel: Channel, purpose: MessagePurpose, code: string, lang: Lang): Promise<void> {
  const log = (error: unknown) =>
    console.error(JSON.stringify({ level: "error", event: "messenger.failed", purpose, to: maskRecipient(to), error: String(error) }));
  let messenger: Messenger;
  try {
    messenger = messengerFor(env);
  } catch (error) {
    return log(error);
  }
  const task = messenger.send({ to, channel, purpose, code, lang }).catch(log);
  if (env.defer && !(messenger instanceof OutboxMessenger)) env.defer(task);
  else await task;
}

/** Where a user's codes go: the channel they named, else email, else SMS. */
function recipient(user: UserRow, preferred?: Identifier): { to: string; channel: Channel } | null {
  if (preferred?.field === "phone" && user.phone) return { to: user.phone, channel: "sms" };
  if (user.email) return { to: user.email, channel: "email" };
  if (user.phone) return { to: user.phone, channel: "sms" };
  return null;
}

async function sendCode(env: AccountsEnv, user: UserRow, purpose: OtpPurpose, lang: Lang, preferred?: Identifier, throttle = true): Promise<void> {
  const target = recipient(user, preferred);
  if (!target) return;
  const issued = await issueCode(env, user.id, purpose, throttle);
  // A throttled resend is silent: answering differently would reveal that the account exists.
  if (issued.issued) await deliver(env, target.to, target.channel, purpose, issued.code, lang);
}

export interface RegisterInput {
  name: string;
  email: string;
  phone: string | null;
  password: string;
}

/**
 * Registration. Decision on enumeration: the contract answers a working bearer token, so a
 * "success-looking" answer for details already in use would have to hand out either a token to
 * someone else's account or a dead token that the very next call exposes. So registration is
 * the one place that can tell an email or phone is in use, and it is made as little useful as
 * possible: one message for either field that does not say "exists" (MESSAGES.detailsUnusable),
 * the same PBKDF2 work as a real sign-up (the hash is computed before the lookup), rate limits per
 * IP and per identifier (routes/auth.ts), and a notice through the Messenger to the real owner so
 * an attempt never goes unseen. Login, reset and resend never tell.
 */
export async function registerUser(env: AccountsEnv, input: RegisterInput, lang: Lang): Promise<{ user: PublicUser; auth_data: AuthData }> {
  refusePassword(lang, input.password);
  const passwordHash = await hashPassword(env, input.password);
  const taken = await env.DB
    .prepare(`SELECT ${USER_COLUMNS} FROM users WHERE email = ? OR (phone IS NOT NULL AND phone = ?)`)
    .bind(input.email, input.phone)
    .all<UserRow>();
  if (taken.results.length > 0) {
    const errors: Record<string, string[]> = {};
    for (const owner of taken.results) {
      if (owner.email !== null && owner.email.toLowerCase() === input.email) {
        errors.email = [say(lang, MESSAGES.detailsTaken)];
        await deliver(env, owner.email, "email", "account-exists", "", lang);
      }
      if (input.phone !== null && owner.phone === input.phone) {
        errors.phone = [say(lang, MESSAGES.detailsTaken)];
        await deliver(env, owner.phone, "sms", "account-exists", "", lang);
      }
    }
    throw unprocessable(errors, say(lang, MESSAGES.detailsUnusable));
  }
  const inserted = await env.DB
    .prepare(`INSERT INTO users (name, email, phone, password_hash) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING ${USER_COLUMNS}`)
    .bind(input.name, input.email, input.phone, passwordHash)
    .first<UserRow>();
  // A concurrent registration won the race for the same email/phone.
  if (!inserted) throw unprocessable({ email: [say(lang, MESSAGES.detailsTaken)] }, say(lang, MESSAGES.detailsUnusable));
  const token = await issueToken(env.DB, inserted.id);
  await sendCode(env, inserted, "verify", lang);
  return { user: publicUser(inserted), auth_data: { access_token: token.token, expires_at: token.expiresAt } };
}

/**
 * Login by email or phone. An unknown account and a wrong password give the same 422, the same
 * body, and the same PBKDF2 work (a dummy hash is checked when there is no account).
 */
export async function loginUser(env: AccountsEnv, who: Identifier, password: string, lang: Lang): Promise<{ user: PublicUser; auth_data: AuthData }> {
  const user = await findUser(env.DB, who);
  let valid = false;
  if (user) valid = await verifyPassword(env, password, user.password_hash);
  else await burnPasswordCheck(env, password);
  if (!user || !valid) {
    const message = say(lang, MESSAGES.badCredentials);
    throw unprocessable({ [who.field]: [message] }, message);
  }
  if (needsRehash(user.password_hash)) {
    await env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(await hashPassword(env, password), user.id).run();
  }
  const token = await issueToken(env.DB, user.id);
  return { user: publicUser(user), auth_data: { access_token: token.token, expires_at: token.expiresAt } };
}

/** Sends a code for `purpose` when the account exists (and, for verify, is not verified yet). Always the same answer. */
export async function requestCode(env: AccountsEnv, who: Identifier, purpose: OtpPurpose, lang: Lang): Promise<string> {
  const user = await findUser(env.DB, who);
  if (user && !(purpose === "verify" && user.verified_at !== null)) await sendCode(env, user, purpose, lang, who);
  return say(lang, MESSAGES.codeSent);
}

export type VerifyResult = { purpose: "verify"; verified: true } | { purpose: "reset"; reset_token: string };

/** Checks a one-time code. An unknown account and a wrong code are the same 422. */
export async function verifyCode(env: AccountsEnv, who: Identifier, purpose: OtpPurpose, code: string, lang: Lang): Promise<VerifyResult> {
  const user = await findUser(env.DB, who);
  const passed = user ? await consumeCode(env, user.id, purpose, code) : false;
  if (!user || !passed) throw unprocessable({ code: [say(lang, MESSAGES.codeInvalid)] }, say(lang, MESSAGES.codeInvalid));
  if (purpose === "verify") {
    await env.DB
      .prepare("UPDATE users SET verified_at = COALESCE(verified_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?")
      .bind(user.id)
      .run();
    return { purpose, verified: true };
  }
  const resetToken = randomToken();
  const t = Math.floor(Date.now() / 1000);
  await env.DB
    .prepare("INSERT INTO reset_tokens (token_hash, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)")
    .bind(await sha256Hex(resetToken), user.id, t + RESET_TOKEN_TTL_SECONDS, t)
    .run();
  return { purpose, reset_token: resetToken };
}

/**
 * Sets a new password with a reset token (single use, 15 minutes). Every signed-in session of
 * the account ends, since a reset usually means the old password is no longer trusted.
 * Proving control of the inbox or phone also verifies the account.
 */
export async function resetPassword(env: AccountsEnv, resetToken: string, password: string, lang: Lang): Promise<void> {
  refusePassword(lang, password);
  const t = Math.floor(Date.now() / 1000);
  const row = await env.DB
    .prepare("UPDATE reset_tokens SET consumed_at = ? WHERE token_hash = ? AND consumed_at IS NULL AND expires_at > ? RETURNING user_id")
    .bind(t, await sha256Hex(resetToken), t)
    .first<{ user_id: number }>();
  if (!row) throw unprocessable({ reset_token: [say(lang, MESSAGES.resetTokenInvalid)] }, say(lang, MESSAGES.resetTokenInvalid));
  await env.DB.batch([
    env.DB
      .prepare("UPDATE users SET password_hash = ?, verified_at = COALESCE(verified_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?")
      .bind(await hashPassword(env, password), row.user_id),
    env.DB.prepare("UPDATE auth_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL").bind(t, row.user_id),
    env.DB.prepare("UPDATE reset_tokens SET consumed_at = ? WHERE user_id = ? AND consumed_at IS NULL").bind(t, row.user_id),
  ]);
}

export async function checkPassword(env: AccountsEnv, userId: number, password: string): Promise<boolean> {
  const user = await userById(env.DB, userId);
  return user ? verifyPassword(env, password, user.password_hash) : false;
}

/** Changes the password of a signed-in user; the other sessions end, the current one stays. */
export async function changePassword(env: AccountsEnv, userId: number, currentToken: string, current: string, password: string, lang: Lang): Promise<void> {
  const user = await userById(env.DB, userId);
  if (!user) throw new BackendError(401, say(lang, MESSAGES.unauthenticated));
  if (!(await verifyPassword(env, current, user.password_hash))) {
    throw unprocessable({ current_password: [say(lang, MESSAGES.currentPasswordWrong)] }, say(lang, MESSAGES.invalid));
  }
  refusePassword(lang, password);
  const t = Math.floor(Date.now() / 1000);
  await env.DB.batch([
    env.DB.prepare("UPDATE users SET password_hash = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?").bind(await hashPassword(env, password), userId),
    env.DB
      .prepare("UPDATE auth_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND token_hash != ?")
      .bind(t, userId, await sha256Hex(currentToken)),
  ]);
}

export async function getProfile(env: AccountsEnv, userId: number, lang: Lang): Promise<PublicUser> {
  const user = await userById(env.DB, userId);
  if (!user) throw new BackendError(401, say(lang, MESSAGES.unauthenticated));
  return publicUser(user);
}

export interface ProfileInput {
  name: string;
  email: string;
  phone: string | null;
}

/** Saves name, email and phone. A new email is unverified until its code is entered (one is sent). */
export async function updateProfile(env: AccountsEnv, userId: number, input: ProfileInput, lang: Lang): Promise<PublicUser> {
  const user = await userById(env.DB, userId);
  if (!user) throw new BackendError(401, say(lang, MESSAGES.unauthenticated));
  const others = await env.DB
    .prepare("SELECT email, phone FROM users WHERE id != ? AND (email = ? OR (phone IS NOT NULL AND phone = ?))")
    .bind(userId, input.email, input.phone)
    .all<{ email: string | null; phone: string | null }>();
  const errors: Record<string, string[]> = {};
  for (const other of others.results) {
    if (other.email?.toLowerCase() === input.email) errors.email = [say(lang, MESSAGES.detailsTaken)];
    if (input.phone !== null && other.phone === input.phone) errors.phone = [say(lang, MESSAGES.detailsTaken)];
  }
  if (Object.keys(errors).length) throw unprocessable(errors, say(lang, MESSAGES.invalid));
  const emailChanged = (user.email ?? "").toLowerCase() !== input.email;
  const updated = await env.DB
    .prepare(
      `UPDATE users SET name = ?, email = ?, phone = ?, verified_at = CASE WHEN ? THEN NULL ELSE verified_at END,
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE id = ? RETURNING ${USER_COLUMNS}`,
    )
    .bind(input.name, input.email, input.phone, emailChanged ? 1 : 0, userId)
    .first<UserRow>();
  if (!updated) throw new BackendError(401, say(lang, MESSAGES.unauthenticated));
  // A new address has had no code yet, so the resend throttle of the old one does not apply.
  if (emailChanged) await sendCode(env, updated, "verify", lang, undefined, false);
  return publicUser(updated);
}

export interface SocialPlatform {
  id: string;
  name: string;
  authorize_url: string;
}

/**
 * The OpenID Connect providers the operator configured in SOCIAL_PROVIDERS (a JSON list of
 * `{id, name, authorize_url}`); none by default, so the storefront shows no social button.
 * Malformed configuration lists nothing rather than a button that cannot work.
 */
export function socialPlatforms(raw: string | undefined): SocialPlatform[] {
  if (!raw?.trim()) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (p): p is SocialPlatform =>
        typeof p === "object" && p !== null && typeof p.id === "string" && typeof p.name === "string" && typeof p.authorize_url === "string" && /^https:\/\//.test(p.authorize_url),
    ).map((p) => ({ id: p.id, name: p.name, authorize_url: p.authorize_url }));
  } catch {
    console.warn(JSON.stringify({ level: "warn", event: "social.config_invalid" }));
    return [];
  }
}
