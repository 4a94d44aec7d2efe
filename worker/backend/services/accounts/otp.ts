import type { Env } from "../../env";
import { constantTimeEqual, hmac, pepper } from "./password";
import { hashedNetwork } from "../shared/rate-limit";

/**
 * One-time codes (DESIGN §5): 6 digits from crypto.getRandomValues, stored only as an HMAC under
 * the pepper, valid 10 minutes, single use. Issuing a new code retires the previous ones, and
 * issuing is throttled per account and purpose.
 *
 * Tries: each network may try a code 5 times, so a stranger who knows the
 * email cannot spend the owner's tries; what bounds guessing across many networks is a cap of
 * 20 failed checks per account a day (all purposes). That cap can, under a sustained distributed
 * attack, block a reset for the rest of the day: a deliberate trade, since the alternative is a
 * takeover; signing in with the password is never affected.
 */
export type OtpPurpose = "verify" | "reset" | "staff" | "stock_alert" | "sign_in" | "erase";
/**
 * What a shopper may ask a code for; `staff` codes are the console's second step
 * (services/console/staff.ts), `stock_alert` codes confirm a phone for a back-in-stock SMS
 * (services/stock-alerts/), owned by the number rather than an account (`issueAddressCode`);
 * `sign_in` codes sign in (services/accounts/code-sign-in.ts), owned by the account or, for a
 * number or address with none yet, by the address.
 */
export const OTP_PURPOSES = ["verify", "reset"] as const satisfies readonly OtpPurpose[];
export type ShopperOtpPurpose = (typeof OTP_PURPOSES)[number];
export const OTP_DIGITS = 6;
export const OTP_TTL_SECONDS = 10 * 60;
/** Tries on one code from one network. */
export const OTP_MAX_ATTEMPTS = 5;
/** Failed code checks one account may take in a day, from all networks together. */
export const OTP_MAX_FAILED_PER_DAY = 20;
const DAY_SECONDS = 24 * 60 * 60;
/** At most one code per minute, and five per hour, for one account and purpose. */
export const OTP_RESEND_INTERVAL_SECONDS = 60;
export const OTP_MAX_PER_HOUR = 5;

type OtpEnv = Pick<Env, "DB" | "AUTH_PEPPER" | "ENVIRONMENT">;

const now = () => Math.floor(Date.now() / 1000);

/** A uniform 6-digit code: rejection sampling keeps every value equally likely. */
export function generateCode(): string {
  const limit = Math.floor(0x1_0000_0000 / 1_000_000) * 1_000_000;
  const buf = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buf);
    if (buf[0] < limit) return String(buf[0] % 1_000_000).padStart(OTP_DIGITS, "0");
  }
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Bound to the account and purpose, so a hash cannot be replayed for another one; `bind` also
 * binds it to an address (a code sent to a new, pending email is only good with that email).
 */
async function codeHash(
  env: OtpEnv,
  owner: number | string,
  purpose: OtpPurpose,
  code: string,
  bind = "",
): Promise<string> {
  return hex(await hmac(pepper(env), `otp:${owner}:${purpose}:${code}${bind ? `:${bind}` : ""}`));
}

export type IssueResult = { issued: true; code: string } | { issued: false; reason: "throttled" };

/**
 * Whose code it is: an account, or, for an address that belongs to no account (a guest's phone),
 * a keyed hash of that address (`addressSubject`), stored in `otp_codes.subject`.
 */
type CodeOwner = { column: "user_id"; value: number } | { column: "subject"; value: string };

/** The owner's value in the code's hash: an account's id as before, an address's subject prefixed. */
const ownerKey = (owner: CodeOwner) => (owner.column === "user_id" ? owner.value : `s:${owner.value}`);

async function issueOwned(
  env: OtpEnv,
  owner: CodeOwner,
  purpose: OtpPurpose,
  throttle: boolean,
  bind: string,
): Promise<IssueResult> {
  const t = now();
  const recent = await env.DB.prepare(
    `SELECT COUNT(*) AS n, MAX(created_at) AS last FROM otp_codes WHERE ${owner.column} = ? AND purpose = ? AND created_at > ?`,
  )
    .bind(owner.value, purpose, t - 3600)
    .first<{ n: number; last: number | null }>();
  if (
    throttle &&
    recent &&
    (recent.n >= OTP_MAX_PER_HOUR || (recent.last !== null && t - recent.last < OTP_RESEND_INTERVAL_SECONDS))
  ) {
    return { issued: false, reason: "throttled" };
  }
  const code = generateCode();
  await env.DB.batch([
    env.DB.prepare(
      `UPDATE otp_codes SET consumed_at = ? WHERE ${owner.column} = ? AND purpose = ? AND consumed_at IS NULL`,
    ).bind(t, owner.value, purpose),
    env.DB.prepare(
      `INSERT INTO otp_codes (${owner.column}, purpose, code_hash, attempts, expires_at, created_at) VALUES (?, ?, ?, 0, ?, ?)`,
    ).bind(owner.value, purpose, await codeHash(env, ownerKey(owner), purpose, code, bind), t + OTP_TTL_SECONDS, t),
  ]);
  return { issued: true, code };
}

/** Issues a new code unless the throttle says not yet (`throttle` false: a new address that had none). The caller delivers it. */
export async function issueCode(
  env: OtpEnv,
  userId: number,
  purpose: OtpPurpose,
  throttle = true,
  bind = "",
): Promise<IssueResult> {
  return issueOwned(env, { column: "user_id", value: userId }, purpose, throttle, bind);
}

/** The subject a code for an address that belongs to no account is stored under: a keyed hash, so the table names no number. */
export async function addressSubject(env: Pick<Env, "AUTH_PEPPER" | "ENVIRONMENT">, address: string): Promise<string> {
  return hex(await hmac(pepper(env), `otp-address:${address}`));
}

/**
 * Issues a code for an address (an E.164 phone) that belongs to no account, with the same
 * lifetime, single use and resend throttle as an account's (1 a minute, 5 an hour per address).
 */
export async function issueAddressCode(env: OtpEnv, purpose: OtpPurpose, address: string): Promise<IssueResult> {
  return issueOwned(env, { column: "subject", value: await addressSubject(env, address) }, purpose, true, "");
}

export interface CodeCheck {
  /** The account, or 0 when none matched: the same statements run either way (M3). */
  userId: number;
  purpose: OtpPurpose;
  code: string;
  /** Who is trying: the network key from the rate limiter (hashed before it is stored). */
  network: string;
  /** What the daily failure budget is counted under: the account, or the identifier as typed. */
  subject: string;
  bind?: string;
  /**
   * Check without using the code up: a right code answers true and stays live (the try is still
   * counted). For a step that needs more than the code (code-sign-in.ts's password confirmation).
   */
  hold?: boolean;
}

const DUMMY_HASH = "0".repeat(64);

/**
 * Checks a code against the account's live one and consumes it on success. Every check counts
 * as a try of its network and against the account's daily budget, the right code included (a
 * success gives its daily count back). An unknown account (userId 0) runs the very same batch,
 * which finds no code, and the same HMAC, so the answer takes the same time (M3).
 */
export async function consumeCode(env: OtpEnv, check: CodeCheck): Promise<boolean> {
  return consumeOwned(env, { column: "user_id", value: check.userId }, check);
}

/** Checks a code issued by `issueAddressCode` for `address`, with the same tries, daily budget and single use. */
export async function consumeAddressCode(
  env: OtpEnv,
  check: Omit<CodeCheck, "userId" | "bind"> & { address: string },
): Promise<boolean> {
  return consumeOwned(env, { column: "subject", value: await addressSubject(env, check.address) }, check);
}

/**
 * Checks a code owned by an address whose subject (`addressSubject`) the caller already has: code
 * sign-in computes the subject for every request, known account or not, so both take the same time.
 */
export async function consumeSubjectCode(
  env: OtpEnv,
  subject: string,
  check: Omit<CodeCheck, "userId" | "bind">,
): Promise<boolean> {
  return consumeOwned(env, { column: "subject", value: subject }, check);
}

async function consumeOwned(env: OtpEnv, owner: CodeOwner, check: Omit<CodeCheck, "userId">): Promise<boolean> {
  const t = now();
  const network = (await hashedNetwork(env, check.network)) ?? "unknown";
  const dayKey = await counterKey("otp-failed", check.subject);
  const day = Math.floor(t / DAY_SECONDS) * DAY_SECONDS;
  const [tries, daily] = await env.DB.batch<{ code_id?: number; code_hash?: string; count?: number }>([
    env.DB.prepare(
      `INSERT INTO otp_tries (code_id, network, attempts)
           SELECT id, ?1, 1 FROM otp_codes
           WHERE ${owner.column} = ?2 AND purpose = ?3 AND consumed_at IS NULL AND expires_at > ?4
           ORDER BY id DESC LIMIT 1
         ON CONFLICT (code_id, network) DO UPDATE SET attempts = attempts + 1 WHERE attempts < ?5
         RETURNING code_id, (SELECT code_hash FROM otp_codes WHERE id = code_id) AS code_hash`,
    ).bind(network, owner.value, check.purpose, t, OTP_MAX_ATTEMPTS),
    countStatement(env.DB, dayKey, day),
  ]);
  const live = tries.results[0];
  const failedToday = daily.results[0]?.count ?? 0;
  const expected = new TextEncoder().encode(live?.code_hash ?? DUMMY_HASH);
  const given = new TextEncoder().encode(await codeHash(env, ownerKey(owner), check.purpose, check.code, check.bind));
  const matches = constantTimeEqual(expected, given);
  if (!live?.code_id || !matches || failedToday > OTP_MAX_FAILED_PER_DAY) return false;
  if (check.hold) return true;
  // Single use even under concurrent checks: only one UPDATE can flip consumed_at.
  const [consumed] = await env.DB.batch([
    env.DB.prepare("UPDATE otp_codes SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL").bind(t, live.code_id),
    env.DB.prepare("UPDATE account_counters SET count = MAX(count - 1, 0) WHERE key = ? AND window_start = ?").bind(
      dayKey,
      day,
    ),
  ]);
  return consumed.meta.changes === 1;
}

/** The account_counters key for `kind` and `subject`: a SHA-256, so no email or phone is stored. */
export async function counterKey(kind: string, subject: string): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${kind}:${subject}`))));
}

/** Adds one to a fixed-window counter (a new window starts at 1) and answers the new count. */
export function countStatement(db: D1Database, key: string, windowStart: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO account_counters (key, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN account_counters.window_start = excluded.window_start THEN account_counters.count + 1 ELSE 1 END,
         window_start = excluded.window_start
       RETURNING count`,
    )
    .bind(key, windowStart);
}
