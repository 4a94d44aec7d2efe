import type { Env, Lang, StaffCaller } from "../../env";
import { BackendError, notFound, unprocessable } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { latinDigits, maskIban, normalizePhone, saudiMobile } from "../../../../contract/inputs";
import type { CodStep } from "../../../../contract/payments";
import type { ConsoleBankTransfer } from "../../../../contract/console-orders";
import type { CartOwner } from "../../identity";
import { constantTimeEqual, hmac, pepper } from "../accounts/password";
import { deliver } from "../accounts/accounts";
import { flushNotifications, notifyStatements, staffAlertStatement } from "../messages/notifications";
import { findOrderByNumber, isTransitionLost, orderEventStatement, ownsOrder, type OrderRow } from "../orders/orders";
import { invoiceStatements } from "../orders/invoices";
import { auditStatement } from "../console/audit-log";
import { findPayment } from "./records";
import { msg } from "../../messages";

/**
 * Cash on delivery. The order is placed like any other (its stock held, its total with the
 * operator's fee) and then waits for the shopper to confirm it with a code texted to the delivery
 * phone: only a phone that answers gets goods sent on trust. Confirmed, it goes to the staff's
 * queue (`processing`) with nothing paid; unconfirmed when its window ends, it is cancelled by the
 * same sweep as an unpaid order and its stock returns. The cash is recorded as paid when the order
 * is delivered (the courier collected it); a refund of it is a bank transfer to the Saudi IBAN the
 * shopper gives, recorded as owed until staff mark it sent.
 *
 * The code: 6 digits, kept as an HMAC under the pepper bound to the order, valid 10 minutes, 5
 * tries; a new one at most once a minute and 5 times an order.
 */

export const COD_CODE_TTL_SECONDS = 10 * 60;
export const COD_MAX_TRIES = 5;
export const COD_RESEND_SECONDS = 60;
export const COD_MAX_SENDS = 5;

const SAY = {
  notFound: msg("payments.notFound"),
  sent: msg("payments.cod.sent"),
  wrongCode: msg("payments.cod.wrongCode"),
  codeExpired: msg("payments.cod.codeExpired"),
  throttled: msg("payments.cod.throttled"),
  noPhone: msg("payments.cod.noPhone"),
  notAwaiting: msg("payments.cod.notAwaiting"),
  holdExpired: msg("payments.holdExpired"),
  noIban: msg("orders.fulfilment.noIban"),
  transferDone: msg("orders.fulfilment.transferDone"),
  transferUnknown: msg("orders.fulfilment.transferUnknown"),
};

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
const seconds = () => Math.floor(Date.now() / 1000);

/** The Saudi mobile a COD order's code goes to (05XXXXXXXX), or null when the address has none. */
export const codMobile = (order: Pick<OrderRow, "phone">): string | null => saudiMobile(order.phone ?? "");

/** 05XXXXXXXX as the shopper is told it: all but the last three digits hidden. */
const masked = (mobile: string) => `${mobile.slice(0, 2)}${"•".repeat(mobile.length - 5)}${mobile.slice(-3)}`;

async function codeHash(env: Pick<Env, "AUTH_PEPPER" | "ENVIRONMENT">, orderId: number, code: string) {
  return hmac(pepper(env), `cod:${orderId}:${code}`);
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/** A uniform 6-digit code (rejection sampling). */
function newCode(): string {
  const limit = Math.floor(0x1_0000_0000 / 1_000_000) * 1_000_000;
  const buf = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buf);
    if (buf[0]! < limit) return String(buf[0]! % 1_000_000).padStart(6, "0");
  }
}

/** Whether an order is a cash-on-delivery order still waiting for its code. */
export const awaitingCod = (order: Pick<OrderRow, "payment_method" | "status" | "stock_reserved">) =>
  order.payment_method === "cod" && order.status === "pending_payment" && order.stock_reserved === 1;

/**
 * The start of a COD order's confirmation: its (one) COD payment record, and a code texted to the
 * delivery phone, unless one went out less than a minute ago (the page then says so and the
 * shopper uses that one). Called by payments.ts `startPayment` for the method `cod`.
 */
export async function startCod(env: Env, order: OrderRow, lang: Lang, returnPath: string): Promise<CodStep> {
  const db = env.DB;
  if (!awaitingCod(order)) throw new BackendError(409, say(lang, SAY.notAwaiting));
  const mobile = codMobile(order);
  if (!mobile) {
    const message = say(lang, SAY.noPhone);
    throw unprocessable({ phone: [message] }, message);
  }
  const existing = await db
    .prepare("SELECT id FROM payments WHERE order_id = ? AND method = 'cod' AND status = 'initiated'")
    .bind(order.id)
    .first<string>("id");
  const paymentId = existing ?? `pay_${crypto.randomUUID().replace(/-/g, "")}`;
  if (!existing)
    await db
      .prepare(
        "INSERT INTO payments (id, order_id, provider, method, status, amount, currency, return_url) VALUES (?, ?, 'cod', 'cod', 'initiated', ?, ?, ?)",
      )
      .bind(paymentId, order.id, order.total, order.currency, returnPath)
      .run();

  const now = seconds();
  const code = newCode();
  const hash = hex(await codeHash(env, order.id, code));
  // One live code per order; a new one is claimed by a conditional upsert, so two starts cannot both send.
  const issued = await db
    .prepare(
      `INSERT INTO cod_codes (order_id, code_hash, expires_at, tries, sent_count, sent_at) VALUES (?1, ?2, ?3, 0, 1, ?4)
       ON CONFLICT (order_id) DO UPDATE SET code_hash = ?2, expires_at = ?3, tries = 0, sent_count = sent_count + 1, sent_at = ?4
       WHERE cod_codes.sent_at <= ?4 - ?5 AND cod_codes.sent_count < ?6`,
    )
    .bind(order.id, hash, now + COD_CODE_TTL_SECONDS, now, COD_RESEND_SECONDS, COD_MAX_SENDS)
    .run();
  const sent = issued.meta.changes > 0;
  if (sent) await deliver(env, normalizePhone(order.phone ?? mobile), "sms", "cod", code, lang);
  return {
    payment_id: paymentId,
    redirect_url: returnPath,
    method: "cod",
    step: "cod",
    mobile: masked(mobile),
    message: say(lang, sent ? SAY.sent : SAY.throttled, { phone: masked(mobile) }),
    code_sent: sent,
  };
}

/**
 * The shopper's code for their COD order: right, and the order is confirmed (stock kept, the
 * staff's queue, the shopper's "confirmed" message) in one batch guarded by the order still
 * waiting; wrong, and a try is spent.
 */
export async function confirmCod(
  env: Env,
  owner: CartOwner,
  paymentId: string,
  typed: string,
  lang: Lang,
): Promise<OrderRow> {
  const db = env.DB;
  const payment = await findPayment(db, paymentId);
  const order = payment ? await findOrderByNumber(db, payment.order_number) : null;
  if (!payment || !order || payment.method !== "cod" || !ownsOrder(order, owner))
    throw notFound(say(lang, SAY.notFound));
  if (order.status === "cancelled") throw new BackendError(409, say(lang, SAY.holdExpired));
  if (!awaitingCod(order)) throw new BackendError(409, say(lang, SAY.notAwaiting));

  const code = latinDigits(typed).replace(/\D/g, "");
  const now = seconds();
  // A try is spent before the code is compared, by a conditional update: parallel guesses cannot pass the limit.
  const spent = await db
    .prepare(
      "UPDATE cod_codes SET tries = tries + 1 WHERE order_id = ? AND tries < ? AND expires_at > ? RETURNING code_hash",
    )
    .bind(order.id, COD_MAX_TRIES, now)
    .first<{ code_hash: string }>();
  const expired = (): never => {
    const message = say(lang, SAY.codeExpired);
    throw unprocessable({ otp: [message] }, message);
  };
  if (!spent) expired();
  const expected = Uint8Array.from(spent!.code_hash.match(/../g)!.map((h) => parseInt(h, 16)));
  if (!/^\d{6}$/.test(code) || !constantTimeEqual(await codeHash(env, order.id, code), expected)) {
    const message = say(lang, SAY.wrongCode);
    throw unprocessable({ otp: [message] }, message);
  }

  try {
    await db.batch([
      db
        .prepare(
          `UPDATE orders SET status = 'processing', reserved_until = NULL, updated_at = ${NOW}
           WHERE id = ? AND status = 'pending_payment' AND payment_method = 'cod' AND stock_reserved = 1`,
        )
        .bind(order.id),
      // The guard: the batch stands only if it confirmed the order (the sweep may have just cancelled it).
      orderEventStatement(db, { id: order.id }, "cod_confirmed", { payment_id: payment.id }, "shopper", "guard"),
      db.prepare("DELETE FROM cod_codes WHERE order_id = ?").bind(order.id),
      ...notifyStatements(db, { id: order.id }, "paid", { detail: { cod: true } }),
      staffAlertStatement(db, { id: order.id }, "staff_order"),
    ]);
  } catch (err) {
    if (isTransitionLost(err)) throw new BackendError(409, say(lang, SAY.notAwaiting));
    throw err;
  }
  await flushNotifications(env, order.id);
  return (await findOrderByNumber(db, order.number)) ?? order;
}

/**
 * What delivering a COD order adds to its batch: the courier collected the cash, so its payment is
 * paid and the order too (its tax invoice is issued now, with the money received).
 */
export function collectCodStatements(db: D1Database, order: OrderRow): D1PreparedStatement[] {
  if (order.payment_method !== "cod" || order.paid_at) return [];
  return [
    db
      .prepare(
        `UPDATE payments SET status = 'paid', amount = ?, updated_at = ${NOW}
         WHERE id = (SELECT id FROM payments WHERE order_id = ? AND method = 'cod' AND status = 'initiated' LIMIT 1)`,
      )
      .bind(order.total, order.id),
    db.prepare(`UPDATE orders SET paid_at = ${NOW} WHERE id = ? AND paid_at IS NULL`).bind(order.id),
    orderEventStatement(db, { id: order.id }, "cod_collected", { amount: order.total }, "system"),
    ...invoiceStatements(db, order),
  ];
}

/** The bank transfers an order's COD refunds owe or sent, newest first; the IBAN masked for staff who do not see contact data. */
export async function bankTransfersOf(db: D1Database, orderId: number, full: boolean): Promise<ConsoleBankTransfer[]> {
  const { results } = await db
    .prepare(
      "SELECT id, amount, iban, holder, status, reference, sent_at, created_at FROM bank_transfers WHERE order_id = ? ORDER BY created_at DESC, rowid DESC",
    )
    .bind(orderId)
    .all<ConsoleBankTransfer>();
  return results.map((t) => (full ? t : { ...t, iban: maskIban(t.iban) }));
}

/** Staff record a COD refund's bank transfer as sent, with the bank's reference; audited. */
export async function markTransferSent(
  db: D1Database,
  order: OrderRow,
  transferId: string,
  reference: string,
  caller: StaffCaller,
  lang: Lang,
): Promise<void> {
  const row = await db
    .prepare("SELECT status FROM bank_transfers WHERE id = ? AND order_id = ?")
    .bind(transferId, order.id)
    .first<string>("status");
  if (!row) throw notFound(say(lang, SAY.transferUnknown));
  if (row === "sent") throw new BackendError(409, say(lang, SAY.transferDone));
  try {
    await db.batch([
      db
        .prepare(
          `UPDATE bank_transfers SET status = 'sent', reference = ?, sent_at = ${NOW}, staff_user_id = ? WHERE id = ? AND status = 'due'`,
        )
        .bind(reference, caller.user_id, transferId),
      orderEventStatement(
        db,
        { id: order.id },
        "transfer_sent",
        { transfer_id: transferId, reference },
        { kind: "staff", staff: caller },
        "guard",
      ),
      auditStatement(
        db,
        caller,
        "order.transfer_sent",
        "order",
        order.number,
        { status: "due" },
        { status: "sent", reference },
      ),
    ]);
  } catch (err) {
    if (isTransitionLost(err)) throw new BackendError(409, say(lang, SAY.transferDone));
    throw err;
  }
}

/** The refund account a shopper gave with a return, kept on the order (the latest one counts). */
export function refundAccountStatement(
  db: D1Database,
  order: Pick<OrderRow, "id">,
  account: { iban: string; name: string },
): D1PreparedStatement {
  return db
    .prepare(`UPDATE orders SET refund_iban = ?, refund_iban_name = ?, updated_at = ${NOW} WHERE id = ?`)
    .bind(account.iban, account.name, order.id);
}

export { SAY as COD_MESSAGES };
