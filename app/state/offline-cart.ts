import { atom } from "jotai";

/**
 * The cart changes made while offline (app/lib/offline-cart): which lines wait to be synced, and
 * what became of them once they were, when that is not what the shopper asked for.
 */

/** Line keys (lineKey) changed offline and not yet synced: each says "Saved offline". */
export const offlinePendingAtom = atom<ReadonlySet<number>>(new Set<number>());

/**
 * A line that could not be synced as the shopper left it: sold out meanwhile, no longer sold,
 * reduced to what is left, or its price changed since it was put in the cart offline.
 */
export type OfflineConflict = { key: number; name: string; variant: string | null } & (
  | { kind: "soldOut" }
  | { kind: "unavailable" }
  | { kind: "reduced"; wanted: number; quantity: number }
  | { kind: "priceChanged"; was: number; now: number; currency: string }
);

/** The conflicts of the last sync, shown in the drawer and on the cart page until dismissed. */
export const offlineConflictsAtom = atom<OfflineConflict[]>([]);
