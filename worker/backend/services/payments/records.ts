import type { PaymentRecord } from "./providers/types";

/** A payment as the providers see it, read in one shape wherever it is needed (a leaf: no imports of services). */
const PAYMENT_RECORD = `SELECT p.id, p.order_id, o.number AS order_number, p.provider, p.method, p.status, p.amount,
  p.currency, p.provider_ref, p.return_url FROM payments p JOIN orders o ON o.id = p.order_id`;

export async function findPayment(db: D1Database, paymentId: string): Promise<PaymentRecord | null> {
  return db.prepare(`${PAYMENT_RECORD} WHERE p.id = ?`).bind(paymentId).first<PaymentRecord>();
}

/** The payment that paid an order (at most one: a unique index), to refund. */
export async function findPaidPayment(db: D1Database, orderId: number): Promise<PaymentRecord | null> {
  return db
    .prepare(`${PAYMENT_RECORD} WHERE p.order_id = ? AND p.status = 'paid'`)
    .bind(orderId)
    .first<PaymentRecord>();
}
