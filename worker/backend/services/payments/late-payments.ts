import type { Env, Lang } from "../../env";
import { BackendError } from "../../http";
import { say } from "../../../../contract/server/i18n";
import type { LatePayment } from "../../../../contract/console-orders";
import { orderEventStatement, type OrderActor } from "../orders/orders";
import { paymentProvider, type PaymentRecord, type ProviderResult, type RefundResult } from "./providers";
import { auditStatement } from "../console/audit-log";
import { msg } from "../../messages";

/**
 * Late payments (migration 0028): the gateway reports a verified "paid" for a payment the shop had
 * already closed, because its order was cancelled or its hold ran out while the shopper was still
 * on the gateway's page. The order is not revived (its stock may be gone, the shopper was told it
 * failed): the money is recorded as owed back, logged at error level, put on the order's timeline
 * and the console's dashboard, and refunded through the gateway that took it, at once when the
 * event comes and by staff from the order page when the gateway refused or could not be reached.
 */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

const SAY = {
  none: msg("payments.latePayments.none"),
  settled: msg("payments.latePayments.settled"),
  providerDown: msg("payments.latePayments.providerDown"),
  refused: msg("payments.latePayments.refused"),
};

const log = (event: string, detail: Record<string, unknown>) =>
  console.error(JSON.stringify({ level: "error", event, ...detail }));

/**
 * Records a verified "paid" for a closed payment, once per payment: the row of what is owed and
 * the order's `paid_late` step. Answers whether this call recorded it (false: already known).
 */
export async function recordLatePayment(
  db: D1Database,
  payment: PaymentRecord,
  result: ProviderResult,
): Promise<boolean> {
  const amount = result.amount ?? payment.amount;
  const currency = result.currency ?? payment.currency;
  const providerRef = result.providerRef ?? payment.provider_ref;
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO late_payments (payment_id, order_id, amount, currency, provider_ref) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (payment_id) DO NOTHING`,
      )
      .bind(payment.id, payment.order_id, amount, currency, providerRef),
    orderEventStatement(
      db,
      { id: payment.order_id },
      "paid_late",
      { payment_id: payment.id, provider: payment.provider, amount },
      "system",
      "changed",
    ),
  ]);
  const recorded = inserted.meta.changes > 0;
  if (recorded)
    log("payments.paid_late", {
      payment_id: payment.id,
      order_id: payment.order_id,
      provider: payment.provider,
      amount,
      currency,
    });
  return recorded;
}

interface LateRow {
  payment_id: string;
  order_id: number;
  order_number: string;
  provider: string;
  method: PaymentRecord["method"];
  amount: number;
  currency: string;
  provider_ref: string | null;
  return_url: string;
  refund_status: LatePayment["refund_status"];
}

/**
 * Refunds a late payment in full through the gateway that took it. The refund is claimed first
 * (owed → pending, so two clicks or a click and the webhook cannot both refund), then the gateway
 * is asked, then it settles: refunded, or owed again with the gateway's reason.
 */
export async function refundLatePayment(
  env: Env,
  paymentId: string,
  actor: OrderActor,
  lang: Lang,
  /** The order it must belong to (the console's address names one); null: any. */
  orderId: number | null = null,
): Promise<{ succeeded: boolean; message: string | null }> {
  const db = env.DB;
  const late = await db
    .prepare(
      `SELECT l.payment_id, l.order_id, o.number AS order_number, p.provider, l.amount, l.currency,
         COALESCE(l.provider_ref, p.provider_ref) AS provider_ref, p.return_url, p.method, l.refund_status
       FROM late_payments l JOIN payments p ON p.id = l.payment_id JOIN orders o ON o.id = l.order_id
       WHERE l.payment_id = ?`,
    )
    .bind(paymentId)
    .first<LateRow>();
  if (!late || (orderId !== null && late.order_id !== orderId)) throw new BackendError(404, say(lang, SAY.none));
  const provider = await paymentProvider(env, late.provider);
  if (!provider) {
    log("payments.late_refund_failed", { payment_id: paymentId, reason: "provider_unavailable" });
    throw new BackendError(503, say(lang, SAY.providerDown));
  }
  const claimed = await db
    .prepare("UPDATE late_payments SET refund_status = 'pending' WHERE payment_id = ? AND refund_status = 'owed'")
    .bind(paymentId)
    .run();
  if (claimed.meta.changes === 0) throw new BackendError(409, say(lang, SAY.settled));

  const record: PaymentRecord = {
    id: late.payment_id,
    order_id: late.order_id,
    order_number: late.order_number,
    provider: late.provider,
    method: late.method,
    status: "paid",
    amount: late.amount,
    currency: late.currency,
    provider_ref: late.provider_ref,
    return_url: late.return_url,
  };
  let result: RefundResult;
  try {
    result = await provider.refund(record, late.amount, `Late payment for order ${late.order_number}`);
  } catch (err) {
    result = { status: "failed", providerRef: null, message: "provider_unavailable" };
    log("payments.late_refund_error", { payment_id: paymentId, error: String(err) });
  }
  const succeeded = result.status === "succeeded";
  const detail = {
    payment_id: paymentId,
    amount: late.amount,
    refund_ref: result.providerRef,
    message: result.message,
  };
  await db.batch([
    db
      .prepare(
        `UPDATE late_payments SET refund_status = ?1, refund_ref = ?2, refund_message = ?3,
           refunded_at = CASE WHEN ?1 = 'refunded' THEN ${NOW} ELSE NULL END
         WHERE payment_id = ?4 AND refund_status = 'pending'`,
      )
      .bind(succeeded ? "refunded" : "owed", result.providerRef, result.message, paymentId),
    orderEventStatement(db, { id: late.order_id }, succeeded ? "late_refunded" : "late_refund_failed", detail, actor),
    ...(actor.kind === "staff"
      ? [
          auditStatement(
            db,
            actor.staff,
            succeeded ? "order.late_refund" : "order.late_refund_failed",
            "order",
            late.order_number,
            { late_payment: paymentId, refund_status: "owed" },
            { late_payment: paymentId, refund_status: succeeded ? "refunded" : "owed" },
          ),
        ]
      : []),
  ]);
  if (!succeeded)
    log("payments.late_refund_failed", {
      payment_id: paymentId,
      order_id: late.order_id,
      by: actor.kind,
      reason: result.message,
    });
  return {
    succeeded,
    message: succeeded ? null : say(lang, SAY.refused, { reason: result.message ?? "?" }),
  };
}

/** The webhook's follow-up to a late payment: an automatic refund; a refusal leaves it owed for staff. */
export async function refundLatePaymentNow(env: Env, paymentId: string): Promise<void> {
  try {
    await refundLatePayment(env, paymentId, { kind: "system" }, "en");
  } catch (err) {
    // Already logged or already settled: the console shows what is still owed.
    if (!(err instanceof BackendError))
      log("payments.late_refund_error", { payment_id: paymentId, error: String(err) });
  }
}

/** An order's late payments, for its console page. */
export async function latePaymentsOf(db: D1Database, orderId: number): Promise<LatePayment[]> {
  const { results } = await db
    .prepare(
      `SELECT l.payment_id, p.provider, l.amount, l.currency, l.provider_ref, l.refund_status, l.refund_ref,
         l.refund_message, l.refunded_at, l.received_at
       FROM late_payments l JOIN payments p ON p.id = l.payment_id WHERE l.order_id = ? ORDER BY l.received_at, l.rowid`,
    )
    .bind(orderId)
    .all<LatePayment>();
  return results;
}

/** At most this many owed late payments are listed on the dashboard (the count says how many). */
export const LATE_PAYMENTS_SHOWN = 10;

/** The dashboard's list of late payments still owed back, oldest first. */
export function owedLatePaymentsStatements(db: D1Database): [D1PreparedStatement, D1PreparedStatement] {
  return [
    db.prepare("SELECT COUNT(*) AS n FROM late_payments WHERE refund_status <> 'refunded'"),
    db
      .prepare(
        `SELECT o.number, l.payment_id, l.amount, l.currency, l.refund_status, l.received_at
         FROM late_payments l JOIN orders o ON o.id = l.order_id
         WHERE l.refund_status <> 'refunded' ORDER BY l.received_at, l.rowid LIMIT ?`,
      )
      .bind(LATE_PAYMENTS_SHOWN),
  ];
}
