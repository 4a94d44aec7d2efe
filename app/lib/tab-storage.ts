/**
 * The visitor's identity in the browser (spec §3): session storage keys `token`, `userId`,
 * `guestId` and `products` (the string "true" while the cart holds a product, else "false").
 * Every read tolerates a missing or blocked storage and malformed values.
 */
export const STORED_KEYS = ["token", "userId", "guestId", "products"] as const;
export type StoredKey = (typeof STORED_KEYS)[number];

/** Sent on window when the tab signs in or out (lib/identity.ts), for what follows the account. */
export const IDENTITY_EVENT = "souq:identity";

export function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readStored(key: StoredKey): string | null {
  const value = storage()?.getItem(key) ?? null;
  if (value === null || value === "" || value === "null" || value === "undefined") return null;
  if ((key === "token" || key === "guestId") && !/^[\w.~+/=-]{8,512}$/.test(value)) return null;
  return value;
}

export function writeStored(key: StoredKey, value: string | null): void {
  const s = storage();
  if (!s) return;
  try {
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // Storage full or blocked: the visitor continues without persistence.
  }
}

export function clearStored(): void {
  try {
    storage()?.clear();
  } catch {
    // Nothing to clear.
  }
}

/**
 * A tab opened on a signed-in session (the cookie is shared, session storage is not) gets the
 * token back from the server-rendered page, so browser calls carry it.
 */
export type TabIdentity = { token: string; userId: string | number };

export function restoreIdentity(session: TabIdentity | null | undefined): void {
  if (!session || readStored("token")) return;
  writeStored("token", session.token);
  writeStored("userId", String(session.userId));
  writeStored("guestId", null);
}
