import type { Context } from "hono";
import type { BackendEnv, Env } from "./env";
import { BackendError } from "./http";
import { say } from "../../contract/server/i18n";
import { randomToken, sha256Hex } from "../../contract/server/tokens";
import { msg } from "./messages";

export { randomToken, sha256Hex };

/**
 * Who is calling the backend (spec §6): an authenticated user by `Authorization: Bearer`, or a
 * guest by a `guest-id` the shop minted (recorded in KV). Tokens are opaque random 256-bit
 * values, stored only as SHA-256 hashes, with an idle and an absolute expiry.
 */
export const TOKEN_IDLE_SECONDS = 60 * 60 * 24 * 7;
export const TOKEN_ABSOLUTE_SECONDS = 60 * 60 * 24 * 30;
/** Idle expiry is pushed forward at most this often, to keep reads cheap. */
const TOUCH_EVERY_SECONDS = 60 * 5;

export const GUEST_TTL_SECONDS = 60 * 60 * 24 * 30;
export const guestKey = (id: string) => `guest:${id}`;

const now = () => Math.floor(Date.now() / 1000);

/** Issues a new token for a user (a new one on every login); only its hash is stored. */
export async function issueToken(db: D1Database, userId: number): Promise<{ token: string; expiresAt: string }> {
  const token = randomToken();
  const t = now();
  await db
    .prepare(
      "INSERT INTO auth_tokens (token_hash, user_id, created_at, last_used_at, idle_expires_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(await sha256Hex(token), userId, t, t, t + TOKEN_IDLE_SECONDS, t + TOKEN_ABSOLUTE_SECONDS)
    .run();
  return { token, expiresAt: new Date((t + TOKEN_ABSOLUTE_SECONDS) * 1000).toISOString() };
}

export async function revokeToken(db: D1Database, token: string): Promise<void> {
  await db
    .prepare("UPDATE auth_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL")
    .bind(now(), await sha256Hex(token))
    .run();
}

export function bearerToken(c: Context<BackendEnv>): string | null {
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer ([A-Za-z0-9_-]{20,128})$/.exec(header.trim());
  return match ? match[1] : null;
}

/** The user id behind a token, or null when it is unknown, revoked or expired. */
export async function userForToken(db: D1Database, token: string): Promise<number | null> {
  const hash = await sha256Hex(token);
  const row = await db
    .prepare(
      "SELECT user_id, last_used_at, idle_expires_at, expires_at, revoked_at FROM auth_tokens WHERE token_hash = ?",
    )
    .bind(hash)
    .first<{
      user_id: number;
      last_used_at: number;
      idle_expires_at: number;
      expires_at: number;
      revoked_at: number | null;
    }>();
  const t = now();
  if (!row || row.revoked_at !== null || row.idle_expires_at <= t || row.expires_at <= t) return null;
  if (t - row.last_used_at > TOUCH_EVERY_SECONDS) {
    await db
      .prepare("UPDATE auth_tokens SET last_used_at = ?, idle_expires_at = ? WHERE token_hash = ?")
      .bind(t, Math.min(t + TOKEN_IDLE_SECONDS, row.expires_at), hash)
      .run();
  }
  return row.user_id;
}

/** The signed-in user's id, or null for anyone else. */
export async function authenticate(c: Context<BackendEnv>): Promise<number | null> {
  const token = bearerToken(c);
  return token ? userForToken(c.env.DB, token) : null;
}

/**
 * The signed-in user's id; anyone else gets 401. An `Id` header (DESIGN §6), sent by the
 * storefront on calls that act on the account itself, must name the token's own user: a token
 * paired with another account's id (a stale or tampered tab) is refused rather than acted on.
 */
export async function requireUser(c: Context<BackendEnv>): Promise<number> {
  const userId = await authenticate(c);
  if (userId === null) throw new BackendError(401, "Unauthenticated.");
  const claimed = c.req.header("id")?.trim();
  if (claimed && claimed !== String(userId)) throw new BackendError(401, "Unauthenticated.");
  return userId;
}

const GUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Mints a guest id (a random UUID) and records it with a 30-day expiry. */
export async function mintGuestId(env: Env): Promise<string> {
  const id = crypto.randomUUID();
  await env.KV.put(guestKey(id), String(Date.now()), { expirationTtl: GUEST_TTL_SECONDS });
  return id;
}

/** The `guest-id` header, only when it is an id the shop minted. */
export async function knownGuest(c: Context<BackendEnv>): Promise<string | null> {
  const id = c.req.header("guest-id")?.trim().toLowerCase();
  if (!id || !GUEST_ID.test(id)) return null;
  let recorded: string | null;
  try {
    recorded = await c.env.KV.get(guestKey(id));
  } catch (error) {
    // A KV outage must not look like "unknown guest" (that would drop the cart): say so, briefly.
    console.error(
      JSON.stringify({
        level: "error",
        request_id: c.get("requestId"),
        error: `guest lookup failed: ${String(error)}`,
      }),
    );
    throw new BackendError(503, say(c.get("lang"), msg("accounts.identity.unavailable")));
  }
  return recorded !== null ? id : null;
}

export type CartOwner = { userId: number; guestId: null } | { userId: null; guestId: string };

/** Whose cart a call is about: the signed-in user, else a known guest; anyone else gets 401. */
export async function cartOwner(c: Context<BackendEnv>): Promise<CartOwner> {
  const userId = await authenticate(c);
  if (userId !== null) return { userId, guestId: null };
  const guestId = await knownGuest(c);
  if (guestId) return { userId: null, guestId };
  throw new BackendError(401, "Unauthenticated.");
}

/** The key an owner is counted under in rate limits and caps. */
export const ownerKey = (owner: CartOwner): string =>
  owner.userId !== null ? `user:${owner.userId}` : `guest:${owner.guestId}`;
