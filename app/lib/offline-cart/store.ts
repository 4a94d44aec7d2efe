import type { CartList } from "../../state/cart";
import { readStored } from "../tab-storage";
import type { OfflineChange } from "./queue";

/**
 * Where the offline cart is kept (docs/OPERATIONS.md, "The cart offline"): localStorage, one entry
 * per cart owner. localStorage rather than IndexedDB: the changes are a few lines read whole,
 * synchronously, when a page starts, and only pages replay them (the service worker never reads
 * them: it holds no identity), so a store the worker could read would buy nothing. The owner is
 * the signed-in account (its queue survives the tab: the next visit of the same account replays
 * it) or, for a guest, the tab, as the guest id itself lives in the tab's session storage; the
 * guest id is never written to localStorage. The last cart the backend answered is kept in the
 * tab's session storage beside the identity, so an offline reload still shows it.
 */
const PREFIX = "offlineCart:";
const TAB = "offlineCartTab";
const SNAPSHOT = "offlineCartSnapshot";
/** A queue older than a guest cart lives (GUEST_CART_DAYS' default) is dropped unsent. */
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

function local(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function write(storage: Storage | null, key: string, value: string | null): void {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Storage full or blocked: the change lives as long as the page.
  }
}

function tabId(): string {
  const s = session();
  let id = s?.getItem(TAB) ?? null;
  if (!id) {
    id = crypto.randomUUID();
    write(s, TAB, id);
  }
  return id;
}

/** The key of this tab's cart owner's queue. */
export function queueKey(): string {
  const user = readStored("token") ? readStored("userId") : null;
  return `${PREFIX}${user ? `u:${user}` : `t:${tabId()}`}`;
}

function parse<T>(text: string | null | undefined, fallback: T): T {
  try {
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

/** The queued changes of this tab's cart owner, oldest first (malformed or stale entries dropped). */
export function readChanges(now = Date.now()): OfflineChange[] {
  const changes = parse<unknown>(local()?.getItem(queueKey()), []);
  if (!Array.isArray(changes)) return [];
  return changes.filter(
    (c): c is OfflineChange =>
      typeof c === "object" &&
      c !== null &&
      typeof c.id === "string" &&
      Number.isInteger(c.ref?.product_id) &&
      Number.isInteger(c.quantity) &&
      c.quantity >= 0 &&
      typeof c.at === "number" &&
      now - c.at < MAX_AGE_MS,
  );
}

export function writeChanges(changes: readonly OfflineChange[]): void {
  write(local(), queueKey(), changes.length ? JSON.stringify(changes) : null);
}

export function hasChanges(): boolean {
  return readChanges().length > 0;
}

/** The last cart the backend answered in this tab, or null. */
export function readSnapshot(): CartList | null {
  const cart = parse<CartList | null>(session()?.getItem(SNAPSHOT), null);
  return cart && Array.isArray(cart.products) ? cart : null;
}

export function writeSnapshot(cart: CartList | null): void {
  write(session(), SNAPSHOT, cart ? JSON.stringify(cart) : null);
}
