import type { Account } from "../../../../contract/account";
import type { CodeSignedIn } from "../../../../contract/code-sign-in";
import { isDeliveryPhone } from "../../../../contract/delivery";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import type { Lang } from "../../env";
import { BackendError, unprocessable } from "../../http";
import { issueToken } from "../../identity";
import { msg } from "../../messages";
import type { Channel } from "../messages/messenger";
import { phoneChannelFor, sendCodeByWhatsApp } from "../messages/whatsapp";
import {
  checkLoginPassword,
  deliver,
  DEFERRED_START_MS,
  findUser,
  markPhoneProven,
  MESSAGES as ACCOUNT_MESSAGES,
  publicUser,
  USER_COLUMNS,
  type AccountsEnv,
  type Identifier,
  type UserRow,
} from "./accounts";
import { addressSubject, consumeCode, consumeSubjectCode, issueAddressCode, issueCode } from "./otp";
import { hasUsablePassword, UNUSABLE_PASSWORD } from "./password";

/**
 * Signing in with a one-time code sent to a phone or an email, no password (the way Saudi
 * shoppers sign in elsewhere). A number or address with an account gets a code of that account
 * (purpose `sign_in`); one with no account gets a code owned by the address itself
 * (`issueAddressCode`), and entering it makes the account on the spot. So every identifier gets a
 * code, and the answers, their statements and their timing are the same whether or not an account
 * has it (no enumeration). Tries, lifetime, resend throttle and the daily failure cap are otp.ts's.
 */

export const MESSAGES = {
  codeSent: msg("codeSignIn.codeSent"),
  signedIn: msg("codeSignIn.signedIn"),
  welcome: msg("codeSignIn.welcome"),
  nameSaved: msg("codeSignIn.nameSaved"),
  phoneNotServed: msg("codeSignIn.phoneNotServed"),
  needsPassword: msg("codeSignIn.needsPassword"),
  passwordWrong: msg("codeSignIn.passwordWrong"),
} satisfies Record<string, Bilingual>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Where a sign-in code for `who` goes: an email by email; a phone by WhatsApp when its account
 * chose WhatsApp (`phoneChannelFor`: WhatsApp on, the choice made for this number), else by SMS
 * when it is a number of a delivery country (contract/delivery.ts); else nowhere. The one place a
 * channel is chosen; `userId` (null: no account yet, so no choice) follows an account's preference.
 */
export async function codeChannelFor(
  env: AccountsEnv,
  who: Identifier,
  userId: number | null,
): Promise<{ to: string; channel: Channel | "whatsapp" } | null> {
  if (who.field === "email") return { to: who.value, channel: "email" };
  if (!isDeliveryPhone(who.value)) return null;
  if (userId !== null && (await phoneChannelFor(env, userId)) === "whatsapp")
    return { to: who.value, channel: "whatsapp" };
  return { to: who.value, channel: "sms" };
}

/**
 * Sends a sign-in code where `codeChannelFor` says: by WhatsApp's copy-code template, and by SMS
 * instead when WhatsApp cannot take it (off, an error answer, a network failure), as reset codes do.
 */
async function sendSignInCode(
  env: AccountsEnv,
  target: { to: string; channel: Channel | "whatsapp" },
  userId: number | null,
  code: string,
  lang: Lang,
): Promise<void> {
  const { KV, NOTIFICATIONS } = env;
  if (target.channel === "whatsapp") {
    const sent =
      userId !== null &&
      KV !== undefined &&
      NOTIFICATIONS !== undefined &&
      (await sendCodeByWhatsApp({ ...env, KV, NOTIFICATIONS }, userId, target.to, code, lang));
    if (sent) return;
  }
  await deliver(env, target.to, target.channel === "whatsapp" ? "sms" : target.channel, "sign_in", code, lang);
}

/** A phone that could never be sent a code is refused at once: the same for every such number. */
export function refuseUnservedPhone(who: Identifier, lang: Lang): void {
  if (who.field === "phone" && !isDeliveryPhone(who.value)) {
    const message = say(lang, MESSAGES.phoneNotServed);
    throw unprocessable({ phone: [message] }, message);
  }
}

/**
 * POST /client/auth/code/request. The answer waits only for the one lookup every identifier gets;
 * issuing (throttle check, writes, HMAC) and delivery start after it, in the request's waitUntil,
 * as `requestCode` does. A throttled resend is silent. Without a waitUntil (a direct call) inline.
 */
export async function requestSignInCode(env: AccountsEnv, who: Identifier, lang: Lang): Promise<string> {
  refuseUnservedPhone(who, lang);
  const user = await findUser(env.DB, who);
  const issue = async () => {
    const target = await codeChannelFor(env, who, user?.id ?? null);
    if (!target) return;
    const issued = user ? await issueCode(env, user.id, "sign_in") : await issueAddressCode(env, "sign_in", who.value);
    if (issued.issued) await sendSignInCode({ ...env, defer: undefined }, target, user?.id ?? null, issued.code, lang);
  };
  const guarded = () =>
    issue().catch((error: unknown) =>
      console.error(
        JSON.stringify({ level: "error", event: "otp.issue_failed", purpose: "sign_in", error: String(error) }),
      ),
    );
  if (env.defer) env.defer(sleep(DEFERRED_START_MS).then(guarded));
  else await guarded();
  return say(lang, MESSAGES.codeSent);
}

const NOW_SQL = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/**
 * A new account for a number or address its code just proved: no name yet (`needs_name`; the
 * column is NOT NULL, so an empty string until the shopper gives one), the other identifier
 * NULL, an unusable password (UNUSABLE_PASSWORD: password sign-in can never match it), and
 * verified, since the code proved what it was sent to. Should another sign-up have taken the
 * number or address meanwhile, the code still proves it: that account is the one signed in (unless
 * its phone is unproven, `confirmationFor`). `detachFrom`: the account the number leaves.
 */
async function createAccount(
  env: AccountsEnv,
  who: Identifier,
  lang: Lang,
  detachFrom: number | null = null,
): Promise<UserRow> {
  const insert = env.DB.prepare(
    `INSERT INTO users (name, email, phone, password_hash, verified_at, phone_verified_at)
     VALUES ('', ?1, ?2, ?3, ${NOW_SQL}, CASE WHEN ?2 IS NULL THEN NULL ELSE ${NOW_SQL} END)
     ON CONFLICT DO NOTHING RETURNING ${USER_COLUMNS}`,
  ).bind(who.field === "email" ? who.value : null, who.field === "phone" ? who.value : null, UNUSABLE_PASSWORD);
  // The number leaves the account it was added to in the same write that gives it its own.
  const results =
    detachFrom === null
      ? [await insert.all<UserRow>()]
      : (
          await env.DB.batch<UserRow>([
            env.DB.prepare(`UPDATE users SET phone = NULL, updated_at = ${NOW_SQL} WHERE id = ? AND phone = ?`).bind(
              detachFrom,
              who.value,
            ),
            insert,
          ])
        ).slice(1);
  const created = results[0].results[0];
  if (created) return created;
  const existing = await findUser(env.DB, who);
  if (!existing) throw new Error("A sign-in account was neither made nor found.");
  // A password registration that took the number meanwhile is not the code holder's to enter.
  if (confirmationFor(who, existing) !== "none") {
    const message = say(lang, ACCOUNT_MESSAGES.codeInvalid);
    throw unprocessable({ code: [message] }, message);
  }
  return existing;
}

/**
 * Whether a right code to `who` may sign in to `user` alone. A phone typed at password
 * registration was never proven (users.phone_verified_at NULL): whoever registered it may not be
 * its owner, and may know the account's password. Its code then signs in only with that password
 * too (`password`), and the account's other sessions end. Known before the code is checked, but
 * acted on only after a right one, so nothing tells a stranger which numbers have accounts.
 */
type Confirmation = "none" | "password" | "takeover";

function confirmationFor(who: Identifier, user: UserRow | null): Confirmation {
  if (!user || who.field !== "phone" || user.phone_verified_at !== null) return "none";
  // A code-only account is made proven, so an unproven phone on it was added later (the profile,
  // proven by a code to the account's other address): its holder is not known to own the number.
  return hasUsablePassword(user.password_hash) ? "password" : "takeover";
}

/** The session of `account`, ending every other one when `alone` (the phone's owner just took it). */
async function signIn(env: AccountsEnv, account: UserRow, alone: boolean): Promise<CodeSignedIn> {
  if (alone) {
    const t = Math.floor(Date.now() / 1000);
    await env.DB.batch([
      markPhoneProven(env.DB, account.id, account.phone ?? ""),
      env.DB.prepare("UPDATE auth_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL").bind(
        t,
        account.id,
      ),
      env.DB.prepare("DELETE FROM staff_sessions WHERE user_id = ?").bind(account.id),
    ]);
  }
  const token = await issueToken(env.DB, account.id);
  return {
    user: publicUser(account),
    auth_data: { access_token: token.token, expires_at: token.expiresAt },
    needs_name: account.name.trim() === "",
  };
}

/**
 * POST /client/auth/code/verify. An unknown identifier and a wrong code are one 422 on `code`,
 * after the same statements: the lookup, the address's keyed hash (computed for both), one batch
 * that counts the try, and the code's HMAC. Tries are counted per network and failures per day
 * under the account (or the identifier as typed), as for every code (otp.ts).
 *
 * An account whose phone is unproven (`confirmationFor`): with a usable password, a right code
 * alone is a 409 `needs_password` and stays live; the same call with the password signs in, proves
 * the phone and ends the other sessions; a wrong password is a 422 on `password`, counted as a
 * failed login. Without one (a number added to a code-only account), the number leaves that
 * account and the code makes a new one for it, so its owner never lands in someone else's.
 */
export async function verifySignInCode(
  env: AccountsEnv,
  who: Identifier,
  code: string,
  lang: Lang,
  network: string,
  password = "",
): Promise<CodeSignedIn & { created: boolean }> {
  refuseUnservedPhone(who, lang);
  const [user, subject] = await Promise.all([findUser(env.DB, who), addressSubject(env, who.value)]);
  const confirmation = confirmationFor(who, user);
  const check = {
    purpose: "sign_in" as const,
    code,
    network,
    subject: user ? `user:${user.id}` : `${who.field}:${who.value}`,
    hold: confirmation === "password",
  };
  const passed = user
    ? await consumeCode(env, { ...check, userId: user.id })
    : await consumeSubjectCode(env, subject, check);
  if (!passed) {
    const message = say(lang, ACCOUNT_MESSAGES.codeInvalid);
    throw unprocessable({ code: [message] }, message);
  }
  if (user && confirmation === "password") {
    if (!password) throw new BackendError(409, say(lang, MESSAGES.needsPassword), undefined, { needs_password: true });
    if (!(await checkLoginPassword(env, who, user, password))) {
      const message = say(lang, MESSAGES.passwordWrong);
      throw unprocessable({ password: [message] }, message);
    }
    // Now the code is used up (a second counted try of this network, given back on success).
    if (!(await consumeCode(env, { ...check, hold: false, userId: user.id }))) {
      const message = say(lang, ACCOUNT_MESSAGES.codeInvalid);
      throw unprocessable({ code: [message] }, message);
    }
    return { ...(await signIn(env, user, true)), created: false };
  }
  if (user && confirmation === "takeover") {
    return { ...(await signIn(env, await createAccount(env, who, lang, user.id), false)), created: true };
  }
  let account: UserRow;
  if (user) {
    account = user;
    // A code to the account's email proves that email, as a verification code would; one to its
    // phone proves the phone.
    if (who.field === "email" && user.verified_at === null) {
      await env.DB.prepare(
        `UPDATE users SET verified_at = COALESCE(verified_at, ${NOW_SQL}), updated_at = ${NOW_SQL} WHERE id = ?`,
      )
        .bind(user.id)
        .run();
      account = { ...user, verified_at: new Date().toISOString() };
    }
  } else {
    account = await createAccount(env, who, lang);
  }
  return { ...(await signIn(env, account, false)), created: user === null };
}

/** POST /client/auth/name: the name step after a first code sign-in (any account may use it). */
export async function saveName(env: AccountsEnv, userId: number, name: string, lang: Lang): Promise<Account> {
  const row = await env.DB.prepare(
    `UPDATE users SET name = ?, updated_at = ${NOW_SQL} WHERE id = ? RETURNING ${USER_COLUMNS}`,
  )
    .bind(name, userId)
    .first<UserRow>();
  if (!row) throw new BackendError(401, say(lang, ACCOUNT_MESSAGES.unauthenticated));
  return publicUser(row);
}
