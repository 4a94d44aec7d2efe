import type { Env } from "../../env";
import { constantTimeEqual, hmac, pepper } from "./password";

/**
 * One-time codes (DESIGN §5): 6 digits from crypto.getRandomValues, stored only as an HMAC under
 * the pepper, valid 10 minutes, at most 5 tries, single use. Issuing a new code retires the
 * previous ones, and issuing is throttled per account and purpose.
 */
export type OtpPurpose = "verify" | "reset";
export const OTP_PURPOSES = ["verify", "reset"] as const satisfies readonly OtpPurpose[];
export const OTP_DIGITS = 6;
export const OTP_TTL_SECONDS = 10 * 60;
export const OTP_MAX_ATTEMPTS = 5;
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

/** Bound to the account and purpose, so a hash cannot be replayed for another one. */
async function codeHash(env: OtpEnv, userId: number, purpose: OtpPurpose, code: string): Promise<string> {
  return hex(await hmac(pepper(env), `otp:${userId}:${purpose}:${code}`));
}

export type IssueResult = { issued: true; code: string } | { issued: false; reason: "throttled" };

/** Issues a new code unless the throttle says not yet (`throttle` false: a new address that had none). The caller delivers it. */
export async function issueCode(env: OtpEnv, userId: number, purpose: OtpPurpose, throttle = true): Promise<IssueResult> {
  const t = now();
  const recent = await env.DB
    .prepare("SELECT COUNT(*) AS n, MAX(created_at) AS last FROM otp_codes WHERE user_id = ? AND purpose = ? AND created_at > ?")
    .bind(userId, purpose, t - 3600)
    .first<{ n: number; last: number | null }>();
  if (throttle && recent && (recent.n >= OTP_MAX_PER_HOUR || (recent.last !== null && t - recent.last < OTP_RESEND_INTERVAL_SECONDS))) {
    return { issued: false, reason: "throttled" };
  }
  const code = generateCode();
  await env.DB.batch([
    env.DB.prepare("UPDATE otp_codes SET consumed_at = ? WHERE user_id = ? AND purpose = ? AND consumed_at IS NULL").bind(t, userId, purpose),
    env.DB
      .prepare("INSERT INTO otp_codes (user_id, purpose, code_hash, attempts, expires_at, created_at) VALUES (?, ?, ?, 0, ?, ?)")
      .bind(userId, purpose, await codeHash(env, userId, purpose, code), t + OTP_TTL_SECONDS, t),
  ]);
  return { issued: true, code };
}

/**
 * Checks a code against the account's live one and consumes it on success. Every check counts
 * as a try, the right code included, and a code with 5 tries spent never passes again.
 */
export async function consumeCode(env: OtpEnv, userId: number, purpose: OtpPurpose, code: string): Promise<boolean> {
  const t = now();
  const live = await env.DB
    .prepare(
      `UPDATE otp_codes SET attempts = attempts + 1
       WHERE id = (SELECT id FROM otp_codes WHERE user_id = ? AND purpose = ? AND consumed_at IS NULL ORDER BY id DESC LIMIT 1)
         AND attempts < ? AND expires_at > ? AND consumed_at IS NULL
       RETURNING id, code_hash`,
    )
    .bind(userId, purpose, OTP_MAX_ATTEMPTS, t)
    .first<{ id: number; code_hash: string }>();
  if (!live) return false;
  const expected = new TextEncoder().encode(live.code_hash);
  const given = new TextEncoder().encode(await codeHash(env, userId, purpose, code));
  if (!constantTimeEqual(expected, given)) return false;
  // Single use even under concurrent checks: only one UPDATE can flip consumed_at.
  const consumed = await env.DB.prepare("UPDATE otp_codes SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL").bind(t, live.id).run();
  return consumed.meta.changes === 1;
}
