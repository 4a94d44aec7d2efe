import { storage } from "./tab-storage";

/**
 * The tab's grants for orders it opened through a message link or tracking (contract/
 * order-access.ts): by order number, each with its expiry. In the tab's session storage beside its
 * identity (tab-storage.ts), as per tab as it is (a new tab opens the link again), and cleared
 * with it at sign-out. A module of its own: only order pages load it, not the shell.
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
