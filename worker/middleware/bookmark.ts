import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { BOOKMARK_HEADER, newerBookmark, parseBookmark } from "../../contract/bookmark";
import type { HonoEnv } from "../env";
import { sessionCookieName } from "../lib/cookies";

/**
 * The shopper's D1 bookmark, kept by the own server (DESIGN §10 "Reads near the shopper"): the
 * newest `x-d1-bookmark` any backend answer gave this browser after a write, in an HttpOnly
 * cookie beside the session cookie (a guest has no session, and a cookie travels with every
 * request without a KV read). Every backend call made for the visitor sends it: the browser's own
 * `/backend/*` calls (in-process or forwarded to BACKEND_URL) get it as the header here, and the
 * SSR loaders' and own-server calls through `callBackend` add it there. The backend then reads from
 * a replica at least as new as the shopper's own last write: their cart and orders never go back.
 *
 * The cookie holds nothing personal: a position in the database's history. It only ever moves
 * forward (contract/bookmark.ts, `newerBookmark`), and a forged or stale one costs its holder a read
 * from the primary at worst. A day is plenty: a replica lags by seconds, and an older bookmark
 * constrains nothing.
 */

const COOKIE = "d1b";
const MAX_AGE_SECONDS = 60 * 60 * 24;

/** `__Host-d1b` (Secure) wherever the session cookie is `__Host-sid`; plain `d1b` on http://localhost. */
const secureCookie = (c: Context<HonoEnv>) => sessionCookieName(c.req.url) === "__Host-sid";

function cookieBookmark(c: Context<HonoEnv>): string | null {
  return parseBookmark(secureCookie(c) ? getCookie(c, COOKIE, "host") : getCookie(c, COOKIE));
}

/** The newest bookmark this visitor holds: their cookie, or one a backend answer of this request gave. */
export function visitorBookmark(c: Context<HonoEnv>): string | null {
  return newerBookmark(cookieBookmark(c), c.get("d1Bookmark") ?? null);
}

/** Notes the bookmark of a backend answer made for this visitor, to be kept when the request ends. */
export function noteBookmark(c: Context<HonoEnv>, res: Response): void {
  const bookmark = parseBookmark(res.headers.get(BOOKMARK_HEADER));
  if (bookmark) c.set("d1Bookmark", newerBookmark(c.get("d1Bookmark") ?? null, bookmark) ?? undefined);
}

/**
 * The edge's middleware, before `/backend`: a browser's backend call carries the kept bookmark as
 * `x-d1-bookmark` (the newer of it and any the caller sent), and when the request ends, a newer
 * bookmark than the kept one (from this answer or from a backend call made for it) is kept.
 */
export function keepBookmark(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const kept = cookieBookmark(c);
    const toBackend = c.req.path === "/backend" || c.req.path.startsWith("/backend/");
    if (toBackend) {
      const sent = c.req.header(BOOKMARK_HEADER) ?? null;
      const bookmark = newerBookmark(kept, parseBookmark(sent));
      if (bookmark !== sent) {
        const headers = new Headers(c.req.raw.headers);
        if (bookmark) headers.set(BOOKMARK_HEADER, bookmark);
        else headers.delete(BOOKMARK_HEADER);
        c.req.raw = new Request(c.req.raw, { headers });
      }
    }
    await next();
    if (toBackend) noteBookmark(c, c.res);
    const newest = c.get("d1Bookmark");
    if (!newest || newerBookmark(kept, newest) === kept) return;
    const options = { httpOnly: true, sameSite: "Lax", path: "/", maxAge: MAX_AGE_SECONDS } as const;
    if (secureCookie(c)) setCookie(c, COOKIE, newest, { ...options, secure: true, prefix: "host" });
    else setCookie(c, COOKIE, newest, options);
  };
}
