import type { AccessToken, Account } from "../../../../contract/account";
import { sendCodeByWhatsApp, type WhatsAppEnv } from "../messages/whatsapp";
import type { Env, Lang } from "../../env";
import { BackendError, unprocessable } from "../../http";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import { issueToken, randomToken, sha256Hex } from "../../identity";
import type { RenderedMessage } from "../messages/mail";
import {
  maskRecipient,
  messengerFor,
  OutboxMessenger,
  type Channel,
  type MessagePurpose,
  type Messenger,
} from "../messages/messenger";
import { consumeCode, counterKey, countStatement, issueCode, type ShopperOtpPurpose as OtpPurpose } from "./otp";
import {
  burnPasswordCheck,
  hashPassword,
  hasUsablePassword,
  needsRehash,
  passwordProblem,
  verifyPassword,
  type PasswordProblem,
} from "./password";
import { msg } from "../../messages";

/**
 * Accounts (DESIGN §5, spec §7 /client/auth/*). Plain functions over D1 that the routes call
 * and tests can call directly. No answer, status or timing says whether an account exists,
 * except registration with details already in use (see `registerUser`).
 */
export type AccountsEnv = Pick<
  Env,
  "DB" | "AUTH_PEPPER" | "ENVIRONMENT" | "MESSENGER" | "MESSENGER_URL" | "MESSENGER_KEY"
> &
  // WhatsApp's settings, for an account that chose it (the routes pass the whole environment).
  Partial<WhatsAppEnv> & {
    /** Runs a task after the answer (the request's waitUntil); used for deliveries to a remote provider. */
    defer?: (task: Promise<unknown>) => void;
  };

export interface UserRow {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  password_hash: string;
  verified_at: string | null;
  pending_email: string | null;
  /** When a code sent to the phone was last used; NULL: the number was typed, never proven (code-sign-in.ts). */
  phone_verified_at: string | null;
}

/** How the caller named the account: an email or a phone number (already normalized). */
export type Identifier = { field: "email"; value: string } | { field: "phone"; value: string };

export const RESET_TOKEN_TTL_SECONDS = 15 * 60;
/** "Someone tried to register with your details" reaches an owner at most once an hour per channel (L3). */
export const ACCOUNT_NOTICE_INTERVAL_SECONDS = 60 * 60;
/**
 * Failed logins (L3). Decision: no hard per-account lock, which let anyone lock the owner out.
 * Failures are counted per identifier (as typed, so a known and an unknown account behave alike)
 * over 15 minutes, and after the first 5 every answer for that identifier waits a growing delay
 * capped at 3 s; hard limits stay per network and per identifier-and-network (routes/auth.ts).
 */
export const LOGIN_FAILURE_WINDOW_SECONDS = 15 * 60;
export const LOGIN_FREE_FAILURES = 5;
export const LOGIN_DELAY_MAX_MS = 3_000;

/** The wait before a login answer after `failures` recent failures: 0, then 250 ms doubling up to the cap. */
export function loginDelayMs(failures: number): number {
  if (failures < LOGIN_FREE_FAILURES) return 0;
  return Math.min(250 * 2 ** (failures - LOGIN_FREE_FAILURES), LOGIN_DELAY_MAX_MS);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long after the answer a code requested by reset-password or resend-code is issued (M3). */
export const DEFERRED_START_MS = 50;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export const MESSAGES = {
  invalid: msg("accounts.invalid"),
  badCredentials: msg("accounts.badCredentials"),
  detailsUnusable: msg("accounts.detailsUnusable"),
  detailsTaken: msg("accounts.detailsTaken"),
  registered: msg("accounts.registered"),
  loggedIn: msg("accounts.loggedIn"),
  codeSent: msg("accounts.codeSent"),
  codeInvalid: msg("accounts.codeInvalid"),
  verified: msg("accounts.verified"),
  codeAccepted: msg("accounts.codeAccepted"),
  resetTokenInvalid: msg("accounts.resetTokenInvalid"),
  passwordChanged: msg("accounts.passwordChanged"),
  currentPasswordWrong: msg("accounts.currentPasswordWrong"),
  currentPasswordNeeded: msg("accounts.currentPasswordNeeded"),
  profileSavedPending: msg("accounts.profileSavedPending"),
  profileSaved: msg("accounts.profileSaved"),
  loggedOut: msg("accounts.loggedOut"),
  unauthenticated: msg("accounts.unauthenticated"),
  tooMany: msg("accounts.tooMany"),
  passwordTooShort: msg("accounts.passwordTooShort"),
  passwordTooLong: msg("accounts.passwordTooLong"),
  staffContact: msg("accounts.staffContact"),
  passwordCommon: msg("accounts.passwordCommon"),
} satisfies Record<string, Bilingual>;

export function passwordProblemMessage(lang: Lang, problem: PasswordProblem): string {
  const key =
    problem === "too_short" ? "passwordTooShort" : problem === "too_long" ? "passwordTooLong" : "passwordCommon";
  return say(lang, MESSAGES[key]);
}

export const USER_COLUMNS = "id, name, email, phone, password_hash, verified_at, pending_email, phone_verified_at";

export function publicUser(row: UserRow): Account {
  const user: Account = {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    verified: row.verified_at !== null,
  };
  if (row.pending_email) user.pending_email = row.pending_email;
  if (!hasUsablePassword(row.password_hash)) user.code_only = true;
  return user;
}

export async function findUser(db: D1Database, who: Identifier): Promise<UserRow | null> {
  const column = who.field === "email" ? "email" : "phone";
  return db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE ${column} = ?`).bind(who.value).first<UserRow>();
}

/**
 * The account a verification code is about: by its email or phone, or by the new email it is
 * changing to (M4). One statement whether or not anything matches, so it times alike (M3); a
 * current email wins over someone's pending one.
 */
async function findForVerify(db: D1Database, who: Identifier): Promise<UserRow | null> {
  if (who.field === "phone") return findUser(db, who);
  return db
    .prepare(
      `SELECT ${USER_COLUMNS} FROM users WHERE email = ?1 OR pending_email = ?1 ORDER BY (email = ?1) DESC, updated_at DESC LIMIT 1`,
    )
    .bind(who.value)
    .first<UserRow>();
}

/** Whether `who` named the account by the new email it is waiting to confirm. */
const viaPending = (user: UserRow, who: Identifier): boolean =>
  who.field === "email" &&
  user.pending_email !== null &&
  user.pending_email.toLowerCase() === who.value &&
  (user.email ?? "").toLowerCase() !== who.value;

/** Whether the account holds a console seat (services/console/staff.ts; read here, which staff.ts imports). */
async function isStaff(db: D1Database, userId: number): Promise<boolean> {
  return (await db.prepare("SELECT 1 AS yes FROM staff WHERE user_id = ?").bind(userId).first("yes")) !== null;
}

/**
 * A staff account's email is where its console code goes, so the password alone must not move it
 * (nor the phone, which names the account for a reset by SMS): an owner changes them in the
 * console, audited (routes/admin/staff.ts). A clear refusal rather than a silent pending change.
 */
function refuseStaffContactChange(lang: Lang): never {
  throw new BackendError(403, say(lang, MESSAGES.staffContact));
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
 * `content`: a message its sender wrote (an invitation); codes and notices are rendered from `purpose`.
 */
export async function deliver(
  env: AccountsEnv,
  to: string,
  channel: Channel,
  purpose: MessagePurpose,
  code: string,
  lang: Lang,
  content?: RenderedMessage,
): Promise<void> {
  const log = (error: unknown) =>
    console.error(
      JSON.stringify({
        level: "error",
        event: "messenger.failed",
        purpose,
        to: maskRecipient(to),
        error: String(error),
      }),
    );
  let messenger: Messenger;
  try {
    messenger = messengerFor(env);
  } catch (error) {
    return log(error);
  }
  const task = messenger.send({ to, channel, purpose, code, lang, content }).catch(log);
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

/**
 * Issues and delivers a code. A code for a pending email goes to that address and is bound to it
 * (`issueCode`'s bind), so it neither verifies the current email nor works with it.
 */
async function sendCode(
  env: AccountsEnv,
  user: UserRow,
  purpose: OtpPurpose,
  lang: Lang,
  preferred?: Identifier,
  throttle = true,
): Promise<void> {
  const pending = preferred !== undefined && viaPending(user, preferred);
  const target = pending ? { to: preferred.value, channel: "email" as const } : recipient(user, preferred);
  if (!target) return;
  const issued = await issueCode(env, user.id, purpose, throttle, pending ? preferred.value : "");
  // A throttled resend is silent: answering differently would reveal that the account exists.
  if (!issued.issued) return;
  // An account that chose WhatsApp gets its phone codes there (the copy-code template); when
  // WhatsApp cannot take it, the SMS goes as before.
  const { KV, NOTIFICATIONS } = env;
  if (
    target.channel === "sms" &&
    KV &&
    NOTIFICATIONS &&
    (await sendCodeByWhatsApp({ ...env, KV, NOTIFICATIONS }, user.id, target.to, issued.code, lang))
  )
    return;
  await deliver(env, target.to, target.channel, purpose, issued.code, lang);
}

/** Takes the notice slot of `kind` for a user: true at most once per interval (an atomic upsert). */
async function noticeAllowed(db: D1Database, userId: number, kind: string, interval: number): Promise<boolean> {
  const t = nowSeconds();
  const row = await db
    .prepare(
      `INSERT INTO account_notices (user_id, kind, sent_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (user_id, kind) DO UPDATE SET sent_at = excluded.sent_at WHERE account_notices.sent_at <= ?4
       RETURNING user_id`,
    )
    .bind(userId, kind, t, t - interval)
    .first<{ user_id: number }>();
  return row !== null;
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
export async function registerUser(
  env: AccountsEnv,
  input: RegisterInput,
  lang: Lang,
): Promise<{ user: Account; auth_data: AccessToken }> {
  refusePassword(lang, input.password);
  const passwordHash = await hashPassword(env, input.password);
  const taken = await env.DB.prepare(
    `SELECT ${USER_COLUMNS} FROM users WHERE email = ? OR (phone IS NOT NULL AND phone = ?)`,
  )
    .bind(input.email, input.phone)
    .all<UserRow>();
  if (taken.results.length > 0) {
    const errors: Record<string, string[]> = {};
    for (const owner of taken.results) {
      // The owner hears of attempts, but at most once an hour per channel: the notice must not
      // become a way to flood someone's inbox (L3).
      if (owner.email !== null && owner.email.toLowerCase() === input.email) {
        errors.email = [say(lang, MESSAGES.detailsTaken)];
        if (await noticeAllowed(env.DB, owner.id, "account-exists:email", ACCOUNT_NOTICE_INTERVAL_SECONDS)) {
          await deliver(env, owner.email, "email", "account-exists", "", lang);
        }
      }
      if (input.phone !== null && owner.phone === input.phone) {
        errors.phone = [say(lang, MESSAGES.detailsTaken)];
        if (await noticeAllowed(env.DB, owner.id, "account-exists:sms", ACCOUNT_NOTICE_INTERVAL_SECONDS)) {
          await deliver(env, owner.phone, "sms", "account-exists", "", lang);
        }
      }
    }
    throw unprocessable(errors, say(lang, MESSAGES.detailsUnusable));
  }
  const inserted = await env.DB.prepare(
    `INSERT INTO users (name, email, phone, password_hash) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING ${USER_COLUMNS}`,
  )
    .bind(input.name, input.email, input.phone, passwordHash)
    .first<UserRow>();
  // A concurrent registration won the race for the same email/phone.
  if (!inserted)
    throw unprocessable({ email: [say(lang, MESSAGES.detailsTaken)] }, say(lang, MESSAGES.detailsUnusable));
  const token = await issueToken(env.DB, inserted.id);
  await sendCode(env, inserted, "verify", lang);
  return { user: publicUser(inserted), auth_data: { access_token: token.token, expires_at: token.expiresAt } };
}

/** The identifier's recent login failures. An async function, so a D1 that throws at once rejects like one that fails later. */
async function loginFailures(db: D1Database, key: string): Promise<{ window_start: number; count: number } | null> {
  return db
    .prepare("SELECT window_start, count FROM account_counters WHERE key = ?")
    .bind(key)
    .first<{ window_start: number; count: number }>();
}

/** Records that the account's phone is `phone` and was just proven by a code sent to it. */
export function markPhoneProven(db: D1Database, userId: number, phone: string): D1PreparedStatement {
  return db
    .prepare("UPDATE users SET phone_verified_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND phone = ?")
    .bind(userId, phone);
}

/**
 * Checks a password given for the identifier `who` as a login does: the same delay after recent
 * failures, the same PBKDF2 work when there is no account, a failure counted under the identifier
 * and the count cleared on success (with the hash renewed if its parameters are old).
 */
export async function checkLoginPassword(
  env: AccountsEnv,
  who: Identifier,
  user: UserRow | null,
  password: string,
): Promise<boolean> {
  const t = nowSeconds();
  const failureKey = await counterKey("login-failed", `${who.field}:${who.value}`);
  const recent = await loginFailures(env.DB, failureKey);
  const failures = recent && recent.window_start > t - LOGIN_FAILURE_WINDOW_SECONDS ? recent.count : 0;
  const delay = loginDelayMs(failures);
  if (delay > 0) await sleep(delay);
  let valid = false;
  if (user) valid = await verifyPassword(env, password, user.password_hash);
  else await burnPasswordCheck(env, password);
  if (!user || !valid) {
    // The window starts at the first failure and lasts LOGIN_FAILURE_WINDOW_SECONDS.
    await countStatement(env.DB, failureKey, failures > 0 && recent ? recent.window_start : t).run();
    return false;
  }
  // The owner got in: earlier failures no longer slow them.
  if (recent) await env.DB.prepare("DELETE FROM account_counters WHERE key = ?").bind(failureKey).run();
  if (needsRehash(user.password_hash)) {
    await env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?")
      .bind(await hashPassword(env, password), user.id)
      .run();
  }
  return true;
}

/**
 * Login by email or phone. An unknown account and a wrong password give the same 422, the same
 * body, and the same PBKDF2 work (a dummy hash is checked when there is no account). Recent
 * failures for the identifier slow every answer for it (see LOGIN_FREE_FAILURES), the same for
 * a known and an unknown one, instead of locking the owner out.
 */
export async function loginUser(
  env: AccountsEnv,
  who: Identifier,
  password: string,
  lang: Lang,
): Promise<{ user: Account; auth_data: AccessToken }> {
  const user = await findUser(env.DB, who);
  // An unknown account gets the same PBKDF2 work and the same counted failure as a wrong password.
  const valid = await checkLoginPassword(env, who, user, password);
  if (!user || !valid) {
    const message = say(lang, MESSAGES.badCredentials);
    throw unprocessable({ [who.field]: [message] }, message);
  }
  const token = await issueToken(env.DB, user.id);
  return { user: publicUser(user), auth_data: { access_token: token.token, expires_at: token.expiresAt } };
}

/**
 * Sends a code for `purpose` when the account exists (for verify: while it is unverified, or to a
 * pending new email). Always the same answer, and in the same time (M3): the answer waits only for
 * the one lookup every identifier gets; issuing the code (its throttle check and writes) and the
 * delivery run after it, in the request's waitUntil. Without one (a direct call) they run inline.
 */
export async function requestCode(env: AccountsEnv, who: Identifier, purpose: OtpPurpose, lang: Lang): Promise<string> {
  const user = purpose === "verify" ? await findForVerify(env.DB, who) : await findUser(env.DB, who);
  const wanted = user !== null && (purpose === "reset" || user.verified_at === null || viaPending(user, who));
  if (user && wanted) {
    const issue = () =>
      sendCode({ ...env, defer: undefined }, user, purpose, lang, who).catch((error: unknown) =>
        console.error(JSON.stringify({ level: "error", event: "otp.issue_failed", purpose, error: String(error) })),
      );
    // Started a moment after the answer has gone out, so its work (D1, HMAC) never competes
    // with sending the answer in the same isolate.
    if (env.defer) env.defer(sleep(DEFERRED_START_MS).then(issue));
    else await issue();
  }
  return say(lang, MESSAGES.codeSent);
}

export type VerifyResult = { purpose: "verify"; verified: true } | { purpose: "reset"; reset_token: string };

/**
 * Checks a one-time code. An unknown account and a wrong code are the same 422, after the same
 * statements (M3): the lookup, one batch that counts the try, and the HMAC. `network` is the
 * caller's network key: tries are counted per network (L3), failures per account a day (L4).
 * A verify code entered with a pending new email makes that email the account's (M4).
 */
export async function verifyCode(
  env: AccountsEnv,
  who: Identifier,
  purpose: OtpPurpose,
  code: string,
  lang: Lang,
  network = "unknown",
): Promise<VerifyResult> {
  const user = purpose === "verify" ? await findForVerify(env.DB, who) : await findUser(env.DB, who);
  const pending = user !== null && purpose === "verify" && viaPending(user, who);
  const passed = await consumeCode(env, {
    userId: user?.id ?? 0,
    purpose,
    code,
    network,
    subject: user ? `user:${user.id}` : `${who.field}:${who.value}`,
    bind: pending ? who.value : "",
  });
  if (!user || !passed)
    throw unprocessable({ code: [say(lang, MESSAGES.codeInvalid)] }, say(lang, MESSAGES.codeInvalid));
  // A code asked for by the phone went to the phone (`recipient`): it proves the number.
  if (who.field === "phone") await markPhoneProven(env.DB, user.id, who.value).run();
  if (purpose === "verify") {
    if (pending) {
      await switchEmail(env, user, who.value, lang);
      return { purpose, verified: true };
    }
    await env.DB.prepare(
      "UPDATE users SET verified_at = COALESCE(verified_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
    )
      .bind(user.id)
      .run();
    return { purpose, verified: true };
  }
  const resetToken = randomToken();
  const t = Math.floor(Date.now() / 1000);
  await env.DB.prepare("INSERT INTO reset_tokens (token_hash, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)")
    .bind(await sha256Hex(resetToken), user.id, t + RESET_TOKEN_TTL_SECONDS, t)
    .run();
  return { purpose, reset_token: resetToken };
}

/**
 * Sets a new password with a reset token (single use, 15 minutes). Every token of
 * the account ends, since a reset usually means the old password is no longer trusted.
 * Proving control of the inbox or phone also verifies the account.
 */
export async function resetPassword(env: AccountsEnv, resetToken: string, password: string, lang: Lang): Promise<void> {
  refusePassword(lang, password);
  const t = Math.floor(Date.now() / 1000);
  const row = await env.DB.prepare(
    "UPDATE reset_tokens SET consumed_at = ? WHERE token_hash = ? AND consumed_at IS NULL AND expires_at > ? RETURNING user_id",
  )
    .bind(t, await sha256Hex(resetToken), t)
    .first<{ user_id: number }>();
  if (!row)
    throw unprocessable(
      { reset_token: [say(lang, MESSAGES.resetTokenInvalid)] },
      say(lang, MESSAGES.resetTokenInvalid),
    );
  await env.DB.batch([
    env.DB.prepare(
      "UPDATE users SET password_hash = ?, password_changed_at = ?, verified_at = COALESCE(verified_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
    ).bind(await hashPassword(env, password), t, row.user_id),
    // A staff account's console closes and stays closed for a while (CONSOLE_FREEZE_SECONDS).
    env.DB.prepare("DELETE FROM staff_sessions WHERE user_id = ?").bind(row.user_id),
    env.DB.prepare("UPDATE auth_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL").bind(
      t,
      row.user_id,
    ),
    env.DB.prepare("UPDATE reset_tokens SET consumed_at = ? WHERE user_id = ? AND consumed_at IS NULL").bind(
      t,
      row.user_id,
    ),
  ]);
}

export async function checkPassword(env: AccountsEnv, userId: number, password: string): Promise<boolean> {
  const user = await userById(env.DB, userId);
  return user ? verifyPassword(env, password, user.password_hash) : false;
}

/** Changes the password of a signed-in user; the other tokens are revoked, the current one stays. */
export async function changePassword(
  env: AccountsEnv,
  userId: number,
  currentToken: string,
  current: string,
  password: string,
  lang: Lang,
): Promise<void> {
  const user = await userById(env.DB, userId);
  if (!user) throw new BackendError(401, say(lang, MESSAGES.unauthenticated));
  if (!(await verifyPassword(env, current, user.password_hash))) {
    throw unprocessable({ current_password: [say(lang, MESSAGES.currentPasswordWrong)] }, say(lang, MESSAGES.invalid));
  }
  refusePassword(lang, password);
  const t = Math.floor(Date.now() / 1000);
  await env.DB.batch([
    env.DB.prepare(
      "UPDATE users SET password_hash = ?, password_changed_at = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
    ).bind(await hashPassword(env, password), t, userId),
    // Even this sign-in's console session ends: the console is frozen after a change (services/console/staff.ts).
    env.DB.prepare("DELETE FROM staff_sessions WHERE user_id = ?").bind(userId),
    env.DB.prepare(
      "UPDATE auth_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND token_hash != ?",
    ).bind(t, userId, await sha256Hex(currentToken)),
  ]);
}

export async function getProfile(env: AccountsEnv, userId: number, lang: Lang): Promise<Account> {
  const user = await userById(env.DB, userId);
  if (!user) throw new BackendError(401, say(lang, MESSAGES.unauthenticated));
  return publicUser(user);
}

export interface ProfileInput {
  name: string;
  email: string;
  phone: string | null;
  /** Needed only when the email or phone changes (M4). */
  current_password: string;
  /** For an account with no usable password: a sign-in code to its current phone or email, proving a change. */
  code?: string;
  /** The caller's network key, counting the code's tries (otp.ts). */
  network?: string;
}

const isUniqueViolation = (error: unknown) => /UNIQUE constraint failed/i.test(String(error));

/**
 * Saves name, email and phone (M4). The name alone needs nothing more. Changing the email or the
 * phone needs the current password (a stolen token alone must not be enough to take the account),
 * revokes the account's other tokens, and tells the current address. A new email does not replace
 * the current one at once: it waits in `pending_email`, is sent a code, and becomes the login and
 * reset identifier only when that code is entered (`verifyCode`). A new phone applies at once,
 * since the password was given; the current address is told either way. An account made by a
 * sign-in code has no password: a fresh sign-in code to its current phone or email proves a change
 * instead, and it may have no email (but then keeps its phone).
 */
export async function updateProfile(
  env: AccountsEnv,
  userId: number,
  currentToken: string,
  input: ProfileInput,
  lang: Lang,
): Promise<{ user: Account; pending: boolean }> {
  const user = await userById(env.DB, userId);
  if (!user) throw new BackendError(401, say(lang, MESSAGES.unauthenticated));
  const emailChanged = (user.email ?? "").toLowerCase() !== input.email;
  const phoneChanged = (user.phone ?? null) !== input.phone;
  if ((emailChanged || phoneChanged) && (await isStaff(env.DB, userId))) refuseStaffContactChange(lang);
  // An account that signs in with codes only has at least its phone or its email to keep.
  if (!input.email && user.email !== null) {
    const message = say(lang, msg("accounts.input.required"), {
      field: say(lang, msg("accounts.input.fieldNames.email")),
    });
    throw unprocessable({ email: [message] }, say(lang, MESSAGES.invalid));
  }
  if (input.phone === null && user.email === null) {
    const message = say(lang, msg("accounts.input.required"), {
      field: say(lang, msg("accounts.input.fieldNames.phone")),
    });
    throw unprocessable({ phone: [message] }, say(lang, MESSAGES.invalid));
  }
  if ((emailChanged || phoneChanged) && !hasUsablePassword(user.password_hash)) {
    // No password to prove it with: a fresh sign-in code sent to the current phone or email
    // (code-sign-in.ts) proves the change instead, so a stolen token alone still cannot move it.
    const proven =
      /^\d{6}$/.test(input.code ?? "") &&
      (await consumeCode(env, {
        userId,
        purpose: "sign_in",
        code: input.code ?? "",
        network: input.network ?? "unknown",
        subject: `user:${userId}`,
      }));
    if (!proven) {
      const field = input.code ? MESSAGES.codeInvalid : msg("codeSignIn.codeNeeded");
      throw unprocessable({ code: [say(lang, field)] }, say(lang, MESSAGES.invalid));
    }
  } else if (emailChanged || phoneChanged) {
    if (!input.current_password) {
      throw unprocessable(
        { current_password: [say(lang, MESSAGES.currentPasswordNeeded)] },
        say(lang, MESSAGES.invalid),
      );
    }
    if (!(await verifyPassword(env, input.current_password, user.password_hash))) {
      throw unprocessable(
        { current_password: [say(lang, MESSAGES.currentPasswordWrong)] },
        say(lang, MESSAGES.invalid),
      );
    }
  }
  const others = await env.DB.prepare(
    "SELECT email, phone FROM users WHERE id != ? AND (email = ? OR (phone IS NOT NULL AND phone = ?))",
  )
    .bind(userId, emailChanged ? input.email : null, phoneChanged ? input.phone : null)
    .all<{ email: string | null; phone: string | null }>();
  const errors: Record<string, string[]> = {};
  for (const other of others.results) {
    if (emailChanged && other.email?.toLowerCase() === input.email) errors.email = [say(lang, MESSAGES.detailsTaken)];
    if (phoneChanged && input.phone !== null && other.phone === input.phone)
      errors.phone = [say(lang, MESSAGES.detailsTaken)];
  }
  if (Object.keys(errors).length) throw unprocessable(errors, say(lang, MESSAGES.invalid));
  const t = nowSeconds();
  const statements = [
    env.DB.prepare(
      `UPDATE users SET name = ?1, phone = ?2, pending_email = CASE WHEN ?3 THEN ?4 ELSE pending_email END,
           updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?5 RETURNING ${USER_COLUMNS}`,
    ).bind(input.name, input.phone, emailChanged ? 1 : 0, input.email, userId),
  ];
  if (emailChanged || phoneChanged) {
    // Whoever else holds a token (perhaps the one who stole it) is signed out.
    statements.push(
      env.DB.prepare(
        "UPDATE auth_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND token_hash != ?",
      ).bind(t, userId, await sha256Hex(currentToken)),
    );
  }
  let updated: UserRow | undefined;
  try {
    updated = (await env.DB.batch<UserRow>(statements))[0].results[0];
  } catch (error) {
    // Another account took the phone between the check and the write.
    if (isUniqueViolation(error))
      throw unprocessable({ phone: [say(lang, MESSAGES.detailsTaken)] }, say(lang, MESSAGES.invalid));
    throw error;
  }
  if (!updated) throw new BackendError(401, say(lang, MESSAGES.unauthenticated));
  if (emailChanged || phoneChanged) {
    const old = user.email
      ? { to: user.email, channel: "email" as const }
      : user.phone
        ? { to: user.phone, channel: "sms" as const }
        : null;
    if (old) await deliver(env, old.to, old.channel, "email-changed", "", lang);
  }
  // A new address has had no code yet, so the resend throttle of the old one does not apply.
  if (emailChanged) await sendCode(env, updated, "verify", lang, { field: "email", value: input.email }, false);
  return { user: publicUser(updated), pending: emailChanged };
}

/**
 * Makes a confirmed pending email the account's email (M4): the code sent to it proved the
 * address, so the account is verified too. The old address was told when the change was asked.
 */
async function switchEmail(env: AccountsEnv, user: UserRow, email: string, lang: Lang): Promise<void> {
  // A change asked for before the account became staff is not confirmed into a console seat.
  if (await isStaff(env.DB, user.id)) {
    await env.DB.prepare("UPDATE users SET pending_email = NULL WHERE id = ?").bind(user.id).run();
    refuseStaffContactChange(lang);
  }
  try {
    await env.DB.prepare(
      `UPDATE users SET email = pending_email, pending_email = NULL,
           verified_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND pending_email = ?`,
    )
      .bind(user.id, email)
      .run();
  } catch (error) {
    // Someone registered the address while it was pending.
    if (isUniqueViolation(error)) {
      await env.DB.prepare("UPDATE users SET pending_email = NULL WHERE id = ?").bind(user.id).run();
      throw unprocessable({ email: [say(lang, MESSAGES.detailsTaken)] }, say(lang, MESSAGES.detailsUnusable));
    }
    throw error;
  }
}

export interface SocialPlatform {
  id: string;
  name: string;
  authorize_url: string;
}

/**
 * The social sign-in providers this backend can take a shopper through from button to session
 * (DESIGN §5: "a button is only shown for a provider whose whole flow works"). The reference
 * backend has no OpenID Connect callback (no code exchange, PKCE, state, nonce or account
 * linking), so it lists none, whatever SOCIAL_PROVIDERS says; a configured list is reported once
 * per isolate so the operator knows it is ignored. A backend that completes the flow lists its own.
 */
let socialIgnoredReported = false;
export function socialPlatforms(raw: string | undefined): SocialPlatform[] {
  if (raw?.trim() && !socialIgnoredReported) {
    socialIgnoredReported = true;
    console.warn(JSON.stringify({ level: "warn", event: "social.providers_ignored", reason: "no_callback_flow" }));
  }
  return [];
}
