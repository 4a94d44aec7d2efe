import { unitsNet } from "../shared/money";

/**
 * What each order line has had claimed back, by returns and by refunds alike: the amount a number of
 * its units gives back, and the counters on its order item (returns.ts and fulfilment.ts both write
 * them, so the rule lives below both).
 */

/**
 * The order line a return or refund line names: by its variant, or by its product when the order
 * holds one line of that product (a caller that knows only products, or an order placed before
 * variants).
 */
export function findOrderLine<T extends { product_id: number; variant_id: number }>(
  items: readonly T[],
  line: { product_id: number; variant_id?: number | null },
): T | undefined {
  const matches = items.filter(
    (i) => i.product_id === line.product_id && (line.variant_id == null || i.variant_id === line.variant_id),
  );
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * What returning `count` units of a line gives back: the units' share of the line's `net`
 * (unitsNet, after the `before` units its other returns claim), never more than what those returns
 * leave of the net (`claimed` is what they give back), and for the line's last units exactly that
 * rest, so a line returned in full, in any number of requests, refunds exactly its net.
 */
export function returnedAmount(net: number, quantity: number, before: number, claimed: number, count: number): number {
  const rest = Math.max(0, net - claimed);
  if (before + count >= quantity) return rest;
  return Math.max(0, Math.min(unitsNet(net, quantity, before, count), rest));
}

/**
 * returnedAmount in SQL, for the INSERT of a return line or a console refund's line: `units` the
 * units claimed now (a bound parameter), `net` the line's net, and the order item's counters
 * (`oi.claimed_quantity`, `oi.claimed_amount`: what returns and refunds of its lines already claim).
 */
export const lineAmountSql = (units: string, net: string) => {
  // Bound numbers are cast, so the division is the integer one unitsNet does.
  const n = `CAST(${net} AS INTEGER)`;
  const u = `CAST(${units} AS INTEGER)`;
  return `(CASE WHEN oi.claimed_quantity + ${u} >= oi.quantity THEN MAX(0, ${n} - oi.claimed_amount)
    ELSE MAX(0, MIN(${n} * (oi.claimed_quantity + ${u}) / oi.quantity - ${n} * oi.claimed_quantity / oi.quantity, ${n} - oi.claimed_amount)) END)`;
};

/**
 * The statement that adds what the lines of a return or a refund claim to their order items'
 * counters; their CHECK (claimed_quantity <= quantity) aborts the batch if that is more than was bought.
 */
export function claimLinesStatement(db: D1Database, table: "return_items" | "refund_items", key: string, sign: 1 | -1) {
  const column = table === "return_items" ? "return_id" : "refund_id";
  const sum = (what: string) =>
    `(SELECT COALESCE(SUM(${what}), 0) FROM ${table} x WHERE x.${column} = ?1 AND x.order_item_id = order_items.id)`;
  return db
    .prepare(
      `UPDATE order_items SET claimed_quantity = claimed_quantity + ?2 * ${sum("quantity")},
         claimed_amount = MAX(0, claimed_amount + ?2 * ${sum("amount")})
       WHERE id IN (SELECT order_item_id FROM ${table} WHERE ${column} = ?1)`,
    )
    .bind(key, sign);
}
