// Read-your-own-writes across D1 read replicas (DESIGN §10 "Reads near the shopper"): the header a
// backend answer carries after it wrote, which the caller sends back on its next calls. The edge
// (worker/middleware/bookmark.ts) and the reference backend (worker/backend/db.ts) import this;
// an external backend speaks the same header over HTTP.
import * as v from "valibot";

/**
 * Request and response header. On a response: the D1 Sessions API bookmark of the backend's
 * session after the request wrote something (absent on answers that only read). On a request: the
 * newest bookmark the caller holds; the backend opens its read session with it, so whatever replica
 * answers is at least as new as the caller's own last write.
 */
export const BOOKMARK_HEADER = "x-d1-bookmark";

/**
 * A D1 bookmark as D1 writes them: four groups of lowercase hex, fixed width
 * (`00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683`). Bounded, so a header cannot
 * carry anything else; anything not matching is ignored (the read simply is not constrained).
 */
export const bookmarkSchema = v.pipe(
  v.string(),
  v.maxLength(80),
  v.regex(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/),
);

/** The bookmark in a header value, or null when absent or malformed. */
export function parseBookmark(value: string | null | undefined): string | null {
  if (!value) return null;
  const parsed = v.safeParse(bookmarkSchema, value.trim().toLowerCase());
  return parsed.success ? parsed.output : null;
}

/**
 * The newer of two bookmarks. D1 bookmarks are fixed-width hex, so the later point in the
 * database's history is the one that sorts later as a string; workerd's own D1 session keeps the
 * newest bookmark it has seen the same way (`currentBookmark.localeCompare(newBookmark) < 0`).
 * This is the one property of the format the shop relies on.
 */
export function newerBookmark(a: string | null, b: string | null): string | null {
  if (!a) return b;
  if (!b) return a;
  return a < b ? b : a;
}
