import { notifyStatements } from "../messages/notifications";
import { nowIso, orderEventStatement, releaseStockStatements, type OrderStatus } from "./orders";
import { releasePromoStatements } from "./promo";

/**
 * Unpaid orders whose time to pay ran out give their stock back and are cancelled (with their
 * promo use returned): a pending order holding stock, and one whose payment failed or was
 * cancelled (it gave its stock back then, and kept its deadline in reserved_until: failPayment).
 * Run lazily on reads and before checkouts; safe to run concurrently.
 */
export async function releaseExpiredReservations(db: D1Database): Promise<number> {
  const now = nowIso();
  const { results } = await db
    .prepare(
      `SELECT id, status FROM orders
       WHERE ((stock_reserved = 1 AND status = 'pending_payment') OR status = 'payment_failed') AND reserved_until < ? LIMIT 25`,
    )
    .bind(now)
    .all<{ id: number; status: OrderStatus }>();
  for (const order of results) {
    await db.batch([
      ...releaseStockStatements(db, order.id),
      // The deadline is checked again: a retry may have just given a failed order a new hold.
      db
        .prepare(
          `UPDATE orders SET status = 'cancelled', cancelled_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), reserved_until = NULL, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
           WHERE id = ? AND (status = 'pending_payment' OR (status = 'payment_failed' AND reserved_until < ?))`,
        )
        .bind(order.id, now),
      orderEventStatement(db, { id: order.id }, "expired", null, "system", "changed"),
      // Owed only if this batch cancelled it (the cron's sweep sends it within the minute).
      ...notifyStatements(db, { id: order.id }, "cancelled", { detail: { reason: "expired" } }),
      db
        .prepare(
          "UPDATE payments SET status = 'failed', message = 'expired', updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE order_id = ? AND status IN ('initiated', 'challenge')",
        )
        .bind(order.id),
      ...releasePromoStatements(db, order.id),
    ]);
  }
  return results.length;
}
