import { LIMITS } from "../../../../contract/limits";
import type { Env } from "../../env";
import { COMMON_PASSWORDS } from "./common-passwords";

/**
 * Password hashing (DESIGN §5): PBKDF2-SHA256 through WebCrypto with a per-user 16-byte salt,
 * after an HMAC-SHA256 pepper keyed by the AUTH_PEPPER secret, stored as
 * `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>` so the parameters can be raised later.
 *
 * 100,000 iterations is the most production Workers accept: deriveBits refuses more there,
 * while local workerd does not, so a test asserts this constant and every stored hash.
 */
export const PBKDF2_ITERATIONS = 100_000;
/** The contract's bounds (contract/inputs.ts), which the forms check too. */
export const PASSWORD_MIN = LIMITS.passwordMin;
export const PASSWORD_MAX = LIMITS.passwordMax;
const SALT_BYTES = 16;
const HASH_BITS = 256;
const SCHEME = "pbkdf2-sha256";
/** Used only when ENVIRONMENT is development or test and no secret is set. */
const DEV_PEPPER = "souq-development-pepper-not-for-production";

const encoder = new TextEncoder();

export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function fromBase64(value: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(value), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The pepper secret; production refuses to run without one rather than hash with a known key. */
export function pepper(env: Pick<Env, "AUTH_PEPPER" | "ENVIRONMENT">): string {
  if (env.AUTH_PEPPER) return env.AUTH_PEPPER;
  if (env.ENVIRONMENT === "development" || env.ENVIRONMENT === "test") return DEV_PEPPER;
  throw new Error("AUTH_PEPPER is not set: set it with `wrangler secret put AUTH_PEPPER`.");
}

const hmacKeys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    hmacKeys.set(secret, key);
  }
  return key;
}

/** HMAC-SHA256 of a value under a secret, as bytes. Also hashes one-time codes (otp.ts). */
export async function hmac(secret: string, value: string): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(value)));
}

async function derive(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
  secret: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const peppered = await hmac(secret, password);
  const key = await crypto.subtle.importKey("raw", peppered, "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BITS);
  return new Uint8Array(bits);
}

/** Compares two byte strings in time that depends only on their length. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

export async function hashPassword(env: Pick<Env, "AUTH_PEPPER" | "ENVIRONMENT">, password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS, pepper(env));
  return `${SCHEME}$${PBKDF2_ITERATIONS}$${toBase64(salt)}$${toBase64(hash)}`;
}

export interface ParsedHash {
  iterations: number;
  salt: Uint8Array<ArrayBuffer>;
  hash: Uint8Array;
}

/** Reads a stored hash; anything malformed, or above the production maximum, is null. */
export function parsePasswordHash(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts.length !== 4 || parts[0] !== SCHEME || !/^\d{1,7}$/.test(parts[1])) return null;
  const iterations = Number(parts[1]);
  const salt = fromBase64(parts[2]);
  const hash = fromBase64(parts[3]);
  if (iterations < 1 || iterations > PBKDF2_ITERATIONS || !salt || !hash || hash.length === 0) return null;
  return { iterations, salt, hash };
}

export async function verifyPassword(
  env: Pick<Env, "AUTH_PEPPER" | "ENVIRONMENT">,
  password: string,
  stored: string,
): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) {
    // An unusable hash (UNUSABLE_PASSWORD) costs the same PBKDF2 work as a real one, so a failed
    // login does not tell a code-only account from a password account or from no account.
    await derive(password, DUMMY_SALT, PBKDF2_ITERATIONS, pepper(env));
    return false;
  }
  const candidate = await derive(password, parsed.salt, parsed.iterations, pepper(env));
  return constantTimeEqual(candidate, parsed.hash);
}

/**
 * The password_hash of an account made by signing in with a code (services/accounts/code-sign-in.ts):
 * not of the `pbkdf2-sha256$...` form, so no password can ever match it (verifyPassword answers
 * false after the same work as a real check). Its owner can set a password through the reset flow.
 */
export const UNUSABLE_PASSWORD = "!code-only";

/** Whether the account has a password it can sign in with. */
export const hasUsablePassword = (stored: string): boolean => parsePasswordHash(stored) !== null;

const DUMMY_SALT = new Uint8Array(16);

/** True when a stored hash was made with weaker parameters than today's and should be redone. */
export function needsRehash(stored: string): boolean {
  const parsed = parsePasswordHash(stored);
  return !parsed || parsed.iterations !== PBKDF2_ITERATIONS;
}

/**
 * A well-formed hash of no one's password, checked when an account is unknown so that a failed
 * login costs the same PBKDF2 work whether or not the account exists (no timing enumeration).
 */
const DUMMY_HASH = `${SCHEME}$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;

export async function burnPasswordCheck(
  env: Pick<Env, "AUTH_PEPPER" | "ENVIRONMENT">,
  password: string,
): Promise<void> {
  await verifyPassword(env, password, DUMMY_HASH);
}

export type PasswordProblem = "too_short" | "too_long" | "common";

/** NIST-style policy: 8..128 characters, no composition rules, not one of the most common passwords. */
export function passwordProblem(password: string): PasswordProblem | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return "too_short";
  if (length > PASSWORD_MAX) return "too_long";
  if (isCommonPassword(password)) return "common";
  return null;
}

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
