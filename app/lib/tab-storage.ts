/**
 * The visitor's identity in the browser (spec §3): session storage keys `token`, `userId`,
 * `guestId` and `products` (the string "true" while the cart holds a product, else "false").
 * Every read tolerates a missing or blocked storage and malformed values.
 */
export const STORED_KEYS = ["token", "userId", "guestId", "products"] as const;
export type StoredKey = (typeof STORED_KEYS)[number];

function storage(): Storage | null {
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

/**
 * The tab's grants for orders it opened through a message link or tracking (contract/
 * order-access.ts): by order number, each with its expiry. Kept beside the tab's identity, as
 * per tab as it is (a new tab opens the link again), and cleared with it at sign-out.
 */
const ORDER_GRANTS = "orderAccess";
/** A tab holds at most this many grants; the oldest goes first. */
const MAX_ORDER_GRANTS = 10;

type OrderGrants = Record<string, { access: string; expires_at: string }>;

function readGrants(): OrderGrants {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(ORDER_GRANTS) ?? "{}");
    if (!parsed || typeof parsed !== "object") return {};
    const grants: OrderGrants = {};
    for (const [number, grant] of Object.entries(parsed as Record<string, unknown>)) {
      const { access, expires_at } = (grant ?? {}) as Record<string, unknown>;
      if (typeof access === "string" && typeof expires_at === "string" && Date.parse(expires_at) > Date.now())
        grants[number] = { access, expires_at };
    }
    return grants;
  } catch {
    return {};
  }
}

function writeGrants(grants: OrderGrants): void {
  try {
    const entries = Object.entries(grants);
    if (!entries.length) storage()?.removeItem(ORDER_GRANTS);
    else storage()?.setItem(ORDER_GRANTS, JSON.stringify(Object.fromEntries(entries.slice(-MAX_ORDER_GRANTS))));
  } catch {
    // Storage full or blocked: the order opens for this page only.
  }
}

const grantKey = (number: string) => number.trim().toUpperCase();

/** The tab's unexpired grant for the order, if it holds one. */
export function readOrderGrant(number: string): string | null {
  return readGrants()[grantKey(number)]?.access ?? null;
}

export function keepOrderGrant(number: string, grant: { access: string; expires_at: string }): void {
  const grants = readGrants();
  delete grants[grantKey(number)];
  writeGrants({ ...grants, [grantKey(number)]: grant });
}

export function dropOrderGrant(number: string): void {
  const grants = readGrants();
  delete grants[grantKey(number)];
  writeGrants(grants);
}
