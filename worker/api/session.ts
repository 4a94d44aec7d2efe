import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Account } from "../../contract/account";
import type { SessionUser } from "../../contract/edge";
import { callBackend } from "../backend-client";
import { randomToken } from "../../contract/server/tokens";
import type { HonoEnv } from "../env";
import { sessionCookieName } from "../lib/cookies";

/** The session's view of an account the backend answered: what the own server keeps. */
export function sessionUserOf(account: Pick<Account, "id" | "name" | "email" | "phone" | "verified">): SessionUser {
  return {
    id: account.id,
    name: account.name,
    email: account.email ?? undefined,
    phone: account.phone ?? undefined,
    verified: account.verified,
  };
}

/** The own-server session (DESIGN §5): a random id in an HttpOnly cookie, the user and token in KV. */
export interface StoredSession {
  user: SessionUser;
  token: string;
  /** When the backend last accepted the token (ms since the epoch); see SESSION_RECHECK_SECONDS. */
  checked_at?: number;
  /** When the KV entry expires (s since the epoch), kept when a re-check rewrites it. */
  expires_at?: number;
}

export const SESSION_TTL_SECONDS = 60 * 60 * 24 * 7;
/**
 * How long the own server trusts a session without asking the backend again (L6). A backend
 * token revoked by a logout elsewhere, a password reset or change, or an email change stops the
 * own-server session within this long. Pages in between are answered from KV alone, so SSR makes
 * at most one backend call per signed-in visitor a minute.
 */
export const SESSION_RECHECK_SECONDS = 60;

const SESSION_ID = /^[A-Za-z0-9_-]{32,64}$/;

export function sessionKey(id: string): string {
  return `session:${id}`;
}

function sessionId(c: Context<HonoEnv>): string | null {
  const id = getCookie(c, sessionCookieName(c.req.url));
  return id && SESSION_ID.test(id) ? id : null;
}

/** Whether the request carries a well-formed session cookie (without reading the session). */
export function hasSessionCookie(c: Context<HonoEnv>): boolean {
  return sessionId(c) !== null;
}

/**
 * Reads this request's session; a missing, malformed or expired cookie is simply no session.
 * A session the backend has not confirmed for SESSION_RECHECK_SECONDS is checked again first.
 */
export async function readSession(c: Context<HonoEnv>): Promise<StoredSession | null> {
  const id = sessionId(c);
  if (!id) return null;
  let stored: StoredSession | null;
  try {
    stored = await c.env.KV.get<StoredSession>(sessionKey(id), "json");
  } catch {
    return null;
  }
  if (!stored || typeof stored.token !== "string" || !stored.user) return null;
  if (typeof stored.checked_at === "number" && Date.now() - stored.checked_at < SESSION_RECHECK_SECONDS * 1000)
    return stored;
  return recheckSession(c, id, stored);
}

/**
 * Asks the backend whether the session's token still works. Refused (401): the session is
 * deleted and the visitor is signed out. Accepted: the stored user is refreshed (a confirmed new
 * email shows up) and the time noted. Unreachable or failing: the session is kept as it is for
 * now (an outage must not sign everyone out) and checked again on the next request.
 */
async function recheckSession(c: Context<HonoEnv>, id: string, stored: StoredSession): Promise<StoredSession | null> {
  let res: Response;
  try {
    res = await callBackend(c, "/client/auth/profile", { headers: { authorization: `Bearer ${stored.token}` } });
  } catch (error) {
    console.error(
      JSON.stringify({
        level: "error",
        request_id: c.get("requestId"),
        event: "session.recheck_failed",
        error: String(error),
      }),
    );
    return stored;
  }
  if (res.status === 401) {
    await c.env.KV.delete(sessionKey(id)).catch(() => undefined);
    return null;
  }
  if (!res.ok) return stored;
  let next: StoredSession;
  try {
    const { data } = (await res.json()) as { data: Account };
    next = { ...stored, user: sessionUserOf(data), checked_at: Date.now() };
  } catch {
    return stored;
  }
  try {
    await writeSession(c, id, next);
  } catch (error) {
    // The answer stands; the next request checks again.
    console.error(
      JSON.stringify({
        level: "error",
        request_id: c.get("requestId"),
        event: "session.rewrite_failed",
        error: String(error),
      }),
    );
  }
  return next;
}

/** Stores a session, keeping its original expiry (KV needs an expiration at least 60 s ahead). */
async function writeSession(c: Context<HonoEnv>, id: string, session: StoredSession): Promise<void> {
  const nowSeconds = Math.floor(Date.now() / 1000);
  const expiration = session.expires_at ?? nowSeconds + SESSION_TTL_SECONDS;
  if (expiration - nowSeconds < 60) return;
  await c.env.KV.put(sessionKey(id), JSON.stringify({ ...session, expires_at: expiration }), { expiration });
}

/**
 * Stores a session under a new random id and sets the cookie: `__Host-sid; HttpOnly; Secure;
 * SameSite=Lax; Path=/` (plain `sid` without Secure on http://localhost only). Any session the
 * browser already had is dropped first, so an id planted before sign-in never becomes a session.
 */
export async function startSession(c: Context<HonoEnv>, session: StoredSession): Promise<void> {
  const previous = sessionId(c);
  if (previous) await c.env.KV.delete(sessionKey(previous));
  const id = randomToken(32);
  await writeSession(c, id, {
    ...session,
    checked_at: Date.now(),
    expires_at: Math.floor(Date.now() / 1000) + SESSION_TTL_SECONDS,
  });
  const options = { httpOnly: true, sameSite: "Lax", path: "/", maxAge: SESSION_TTL_SECONDS } as const;
  if (sessionCookieName(c.req.url) === "__Host-sid")
    setCookie(c, "sid", id, { ...options, secure: true, prefix: "host" });
  else setCookie(c, "sid", id, options);
}

/** Deletes the KV session and the cookie; answers the session that was there, if any. */
export async function endSession(c: Context<HonoEnv>): Promise<StoredSession | null> {
  const id = sessionId(c);
  if (!id) return null;
  let session: StoredSession | null = null;
  try {
    // Straight from KV: logout needs the token to revoke, not a fresh check of it.
    const stored = await c.env.KV.get<StoredSession>(sessionKey(id), "json");
    session = stored && typeof stored.token === "string" && stored.user ? stored : null;
  } catch {
    session = null;
  }
  await c.env.KV.delete(sessionKey(id));
  const name = sessionCookieName(c.req.url);
  if (name === "__Host-sid") deleteCookie(c, "sid", { path: "/", secure: true, prefix: "host" });
  else deleteCookie(c, "sid", { path: "/" });
  return session;
}
