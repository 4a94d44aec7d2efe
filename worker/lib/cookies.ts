/**
 * The own server's cookie names. Below the session (api/session.ts) and the bookmark middleware
 * (middleware/bookmark.ts), which both read the session cookie's name: the session calls the
 * backend through backend-client.ts, which sends the bookmark, so the name cannot live in either
 * without the two importing each other in a ring.
 */

/** `__Host-` needs Secure, which plain http://localhost cannot carry; there the cookie is `sid`. */
export function sessionCookieName(url: string): string {
  // A request's URL, as the runtime gives it, is normalised (scheme and host in lower case): read as text.
  return LOCAL_HTTP.test(url) ? "sid" : "__Host-sid";
}
const LOCAL_HTTP = /^http:\/\/(?:localhost|127\.0\.0\.1)(?:[:/?#]|$)/;
