import { getCookie } from "hono/cookie";
import type { Context } from "hono";
import type { SessionUser } from "../../app/lib/context";
import type { HonoEnv } from "../env";

/** The own-server session (DESIGN §5): a random id in an HttpOnly cookie, the user and token in KV. */
export interface StoredSession {
  user: SessionUser;
  token: string;
}

export const SESSION_TTL_SECONDS = 60 * 60 * 24 * 7;

/** `__Host-` needs Secure, which plain http://localhost cannot carry; there the cookie is `sid`. */
export function sessionCookieName(url: string): string {
  const u = new URL(url);
  return u.protocol === "http:" && (u.hostname === "localhost" || u.hostname === "127.0.0.1") ? "sid" : "__Host-sid";
}

const SESSION_ID = /^[A-Za-z0-9_-]{32,64}$/;

export function sessionKey(id: string): string {
  return `session:${id}`;
}

/** Reads this request's session; a missing, malformed or expired cookie is simply no session. */
export async function readSession(c: Context<HonoEnv>): Promise<StoredSession | null> {
  const id = getCookie(c, sessionCookieName(c.req.url));
  if (!id || !SESSION_ID.test(id)) return null;
  try {
    const stored = await c.env.KV.get<StoredSession>(sessionKey(id), "json");
    return stored && typeof stored.token === "string" && stored.user ? stored : null;
  } catch {
    return null;
  }
}
