import type { CartSyncOutcome } from "../../../contract/cart";
import { lineKey, withLineQuantity, type CartLine, type CartList, type LineRef } from "../../state/cart";
import type { OfflineConflict } from "../../state/offline-cart";

/**
 * The rules of the offline cart, as pure functions (tested in test/unit-node/offline-cart.test.ts):
 * the queue of changes, the cart the shopper sees while offline, what a replay sends, and what the
 * replay's answer means for the shopper.
 *
 * Every change is kept as "set this line to N" (an add is the line's quantity so far plus what was
 * added), never as "add N": replaying a queue twice, or after a replay whose answer was lost, sets
 * the same quantities again instead of doubling them, and needs no memory of operations at the
 * backend.
 */
export interface OfflineChange {
  /** Tells changes apart, so a replay takes off the queue exactly the changes it sent. */
  id: string;
  ref: LineRef;
  /** What the line is set to; 0 removes it. */
  quantity: number;
  /** The line as the shopper saw it (name, variant, price, image): shown offline, compared after. */
  line?: CartLine;
  /** When it was made (ms since the epoch): old queues are dropped. */
  at: number;
}

/** One line of a replay: the line's last quantity, where it first changed in the queue. */
export interface IntendedLine {
  key: number;
  ref: LineRef;
  quantity: number;
  /** The line as last seen: its price is the one the shopper agreed to. */
  line?: CartLine;
}

/** Changes coalesced per line: the last quantity wins, in the order the lines were first changed. */
export function coalesce(changes: readonly OfflineChange[]): IntendedLine[] {
  const lines = new Map<number, IntendedLine>();
  for (const change of changes) {
    const key = lineKey(change.ref);
    const before = lines.get(key);
    const ref: LineRef = {
      product_id: change.ref.product_id,
      variant_id: change.ref.variant_id ?? before?.ref.variant_id,
    };
    lines.set(key, { key, ref, quantity: change.quantity, line: change.line ?? before?.line });
  }
  return [...lines.values()];
}

/** What POST /cart/sync is sent for these lines (contract/cart.ts, `CartSyncInput`). */
export function syncBody(lines: readonly IntendedLine[]) {
  return {
    lines: lines.map(({ ref, quantity }) =>
      ref.variant_id === undefined
        ? { product_id: ref.product_id, quantity }
        : { product_id: ref.product_id, variant_id: ref.variant_id, quantity },
    ),
  };
}

/** The line's quantity in a cart (0 without the line). */
export function quantityIn(cart: CartList, ref: LineRef): number {
  const key = lineKey(ref);
  return cart.products.find((l) => lineKey(l) === key)?.quantity ?? 0;
}

/**
 * The cart the shopper sees while offline: the last cart the backend answered with the queued
 * changes applied in order. A line added offline shows as it was seen on its page; its total
 * follows its price.
 */
export function withChanges(cart: CartList, changes: readonly OfflineChange[]): CartList {
  let shown = cart;
  for (const { ref, quantity, line } of coalesce(changes)) {
    const key = lineKey(ref);
    if (quantity > 0 && line && !shown.products.some((l) => lineKey(l) === key)) {
      const added: CartLine = { ...line, product_id: ref.product_id, variant_id: ref.variant_id, quantity };
      shown = { ...shown, products: [...shown.products, added] };
    }
    shown = withLineQuantity(shown, ref, quantity);
  }
  return shown;
}

/** The line keys waiting to be synced. */
export function pendingKeys(changes: readonly OfflineChange[]): ReadonlySet<number> {
  return new Set(changes.map((c) => lineKey(c.ref)));
}

/**
 * What the shopper is told after a replay: each line whose result differs from what was asked,
 * from what was sent (`intended`), the cart after and, from a backend that gives them, the
 * outcomes in the same order. A removal never conflicts. A line missing from the cart after is
 * sold out when the backend says so, else no longer to be had.
 */
export function detectConflicts(
  intended: readonly IntendedLine[],
  after: CartList,
  outcomes: readonly CartSyncOutcome[] = [],
): OfflineConflict[] {
  const conflicts: OfflineConflict[] = [];
  intended.forEach((wanted, i) => {
    if (wanted.quantity === 0) return;
    const outcome = outcomes[i];
    const line = after.products.find((l) => lineKey(l) === wanted.key);
    const seen = wanted.line;
    const name = line?.product?.name ?? seen?.product?.name ?? `#${wanted.ref.product_id}`;
    const base = { key: wanted.key, name, variant: line?.variant ?? seen?.variant ?? null };
    const stock = line?.product ? Math.min(line.product.stock, line.product.max_per_order || Infinity) : undefined;
    if (outcome?.status === "sold_out" || (line && stock !== undefined && stock <= 0)) {
      conflicts.push({ ...base, kind: "soldOut" });
      return;
    }
    if (outcome?.status === "unavailable" || !line) {
      conflicts.push({ ...base, kind: "unavailable" });
      return;
    }
    if (line.quantity < wanted.quantity)
      conflicts.push({ ...base, kind: "reduced", wanted: wanted.quantity, quantity: line.quantity });
    const was = seen?.product?.price;
    const now = line.product?.price;
    if (was !== undefined && now !== undefined && was !== now)
      conflicts.push({ ...base, kind: "priceChanged", was, now, currency: line.product?.currency ?? after.currency });
  });
  return conflicts;
}
