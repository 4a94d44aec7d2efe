import { flushShopperMessages } from "../messages/shopper-messages";
import { shipmentsOf, shippableOf } from "../shipping/views";
import type { Env, Lang, StaffCaller } from "../../env";
import { BackendError, unprocessable } from "../../http";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import type {
  ConsoleOrder,
  ConsoleOrderMessage,
  ConsoleOrderRow,
  ConsolePayment,
  ConsoleRefund,
  OrderAction,
  OrderEvent,
} from "../../../../contract/console-orders";
import type { ListQuery } from "../console/list";
import { pageOf } from "../console/list";
import {
  findOrderByNumber,
  isFullyRefunded,
  isTransitionLost,
  maskEmail,
  netsOfItems,
  orderEventStatement,
  parseAddress,
  paymentStatusFor,
  presentedStatus,
  releaseStockStatements,
  type OrderActor,
  type OrderRow,
  type StoredOrderStatus,
  type OrderItemRow,
} from "./orders";
import { paymentProvider, type RefundResult } from "../payments/providers";
import { flushNotifications, notifyStatements } from "../messages/notifications";
import { releasePromoStatements } from "./promo";
import { maskPhone, seesContactData } from "../console/staff";
import { maskIban, normalizePhone } from "../../../../contract/inputs";
import { creditNoteStatements, documentLinks, vatRateOf } from "./invoices";
import { notesOf } from "../console/staff-notes";
import { latePaymentsOf } from "../payments/late-payments";
import { findPaidPayment } from "../payments/records";
import { restockVariantStatements } from "../catalogue/variants";
import { auditStatement } from "../console/audit-log";
import { releaseExpiredReservations } from "./reservations";
import { claimLinesStatement, findOrderLine, returnedAmount } from "./claimed-lines";
import { msg } from "../../messages";
import { bankTransfersOf, collectCodStatements } from "../payments/cash-on-delivery";

/**
 * Fulfilment and refunds: the console's order list and order page, and the transitions
 * paid → processing → shipped → delivered, cancel (stock returns; a paid order is refunded in
 * full) and refunds through the payment provider. Each transition is one D1 batch: the conditional
 * status update, its timeline event as the guard (a lost race aborts everything), and the audit
 * line. cancelOrder and refundOrder take an actor, so a shopper's self-service can call them too.
 */

const MESSAGES = {
  notAllowed: msg("orders.fulfilment.notAllowed"),
  changed: msg("orders.fulfilment.changed"),
  tooMuch: msg("orders.fulfilment.tooMuch"),
  noPayment: msg("orders.fulfilment.noPayment"),
  noIban: msg("orders.fulfilment.noIban"),
  providerDown: msg("orders.fulfilment.providerDown"),
  refundFailed: msg("orders.fulfilment.refundFailed"),
} satisfies Record<string, Bilingual>;

const ACTION_WORDS: Record<OrderAction, Bilingual> = {
  process: msg("orders.fulfilment.actionWords.process"),
  ship: msg("orders.fulfilment.actionWords.ship"),
  deliver: msg("orders.fulfilment.actionWords.deliver"),
  cancel: msg("orders.fulfilment.actionWords.cancel"),
  refund: msg("orders.fulfilment.actionWords.refund"),
};

const STATUS_WORDS: Record<string, Bilingual> = {
  pending_payment: msg("orders.fulfilment.statusWords.pendingPayment"),
  paid: msg("orders.fulfilment.statusWords.paid"),
  processing: msg("orders.fulfilment.statusWords.processing"),
  shipped: msg("orders.fulfilment.statusWords.shipped"),
  delivered: msg("orders.fulfilment.statusWords.delivered"),
  payment_failed: msg("orders.fulfilment.statusWords.paymentFailed"),
  cancelled: msg("orders.fulfilment.statusWords.cancelled"),
  refunded: msg("orders.fulfilment.statusWords.refunded"),
};

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** What may still be refunded: the paid total less every refund made or under way. */
export function refundableOf(order: Pick<OrderRow, "paid_at" | "total" | "refunded">): number {
  return order.paid_at ? Math.max(0, order.total - order.refunded) : 0;
}

/**
 * What may still be cancelled, by staff or by the shopper: anything not yet shipped, including an
 * order whose payment failed or was cancelled on the card page (it is just unpaid).
 */
export const CANCELLABLE: readonly StoredOrderStatus[] = ["pending_payment", "payment_failed", "paid", "processing"];

/** The transitions an order allows now; the console offers exactly these, the API accepts only these. */
export function allowedActions(order: OrderRow): OrderAction[] {
  const actions: OrderAction[] = [];
  const full = isFullyRefunded(order);
  if (order.status === "paid" && !full) actions.push("process");
  if (order.status === "processing" && !full) actions.push("ship");
  if (order.status === "shipped") actions.push("deliver");
  if (CANCELLABLE.includes(order.status)) actions.push("cancel");
  if (refundableOf(order) > 0) actions.push("refund");
  return actions;
}

function requireAllowed(order: OrderRow, action: OrderAction, lang: Lang): void {
  if (allowedActions(order).includes(action)) return;
  throw new BackendError(
    409,
    say(lang, MESSAGES.notAllowed, {
      status: say(lang, STATUS_WORDS[presentedStatus(order)] ?? { en: order.status, ar: order.status }),
      action: say(lang, ACTION_WORDS[action]),
    }),
  );
}

/** The order a console route names, with lazily expired reservations settled first; null if none. */
export async function findConsoleOrder(db: D1Database, number: string): Promise<OrderRow | null> {
  await releaseExpiredReservations(db);
  return findOrderByNumber(db, number);
}

/** What the audit log keeps of an order before and after a transition. */
const auditView = (o: Pick<OrderRow, "status" | "refunded" | "carrier" | "tracking_number">) => ({
  status: o.status,
  refunded: o.refunded,
  carrier: o.carrier,
  tracking_number: o.tracking_number,
});

function auditFor(db: D1Database, actor: OrderActor, action: string, order: OrderRow, after: Partial<OrderRow>) {
  if (actor.kind !== "staff") return [];
  return [
    auditStatement(db, actor.staff, action, "order", order.number, auditView(order), auditView({ ...order, ...after })),
  ];
}

/** Runs a transition's batch; a guard that lost the race answers 409 and nothing was written. */
async function runTransition(db: D1Database, statements: D1PreparedStatement[], lang: Lang): Promise<void> {
  try {
    await db.batch(statements);
  } catch (err) {
    if (isTransitionLost(err)) throw new BackendError(409, say(lang, MESSAGES.changed));
    throw err;
  }
}

async function reread(db: D1Database, order: OrderRow): Promise<OrderRow> {
  return (await db.prepare("SELECT * FROM orders WHERE id = ?").bind(order.id).first<OrderRow>()) ?? order;
}

/** A simple step of the path: the status moves from what it was read as, with its timestamp. */
async function step(
  env: Pick<Env, "DB" | "NOTIFICATIONS">,
  order: OrderRow,
  action: "process" | "ship" | "deliver",
  actor: OrderActor,
  lang: Lang,
  change: { status: StoredOrderStatus; set?: Record<string, string>; detail?: Record<string, unknown> },
): Promise<OrderRow> {
  const db = env.DB;
  requireAllowed(order, action, lang);
  const set = change.set ?? {};
  const columns = Object.keys(set).map((c) => `, ${c} = ?`);
  const stampColumn = action === "ship" ? "shipped_at" : action === "deliver" ? "delivered_at" : null;
  await runTransition(
    db,
    [
      db
        .prepare(
          `UPDATE orders SET status = ?${columns.join("")}${stampColumn ? `, ${stampColumn} = ${NOW}` : ""}, updated_at = ${NOW}
           WHERE id = ? AND status = ? AND refunded = ?`,
        )
        .bind(change.status, ...Object.values(set), order.id, order.status, order.refunded),
      orderEventStatement(db, { id: order.id }, change.status, change.detail ?? null, actor, "guard"),
      ...auditFor(db, actor, `order.${action}`, order, { status: change.status, ...set }),
      ...(action === "ship" || action === "deliver"
        ? notifyStatements(db, order, action === "ship" ? "shipped" : "delivered")
        : []),
      // Delivered: the courier collected a COD order's cash.
      ...(action === "deliver" ? collectCodStatements(db, order) : []),
    ],
    lang,
  );
  await flushNotifications(env, order.id);
  return reread(db, order);
}

/** paid → processing: the shop is preparing the order. */
export function processOrder(env: Pick<Env, "DB" | "NOTIFICATIONS">, order: OrderRow, actor: OrderActor, lang: Lang) {
  return step(env, order, "process", actor, lang, { status: "processing" });
}

/** processing → shipped, with the carrier and its tracking number (the shopper's page shows both); a COD order's shipment carries the cash to collect. */
export function shipOrder(
  env: Pick<Env, "DB" | "NOTIFICATIONS">,
  order: OrderRow,
  shipment: { carrier: string; tracking_number: string },
  actor: OrderActor,
  lang: Lang,
) {
  return step(env, order, "ship", actor, lang, {
    status: "shipped",
    set: { carrier: shipment.carrier, tracking_number: shipment.tracking_number },
    detail: {
      carrier: shipment.carrier,
      tracking_number: shipment.tracking_number,
      ...(cashToCollect(order) ? { cash_to_collect: cashToCollect(order) } : {}),
    },
  });
}

/** shipped → delivered. */
export function deliverOrder(env: Pick<Env, "DB" | "NOTIFICATIONS">, order: OrderRow, actor: OrderActor, lang: Lang) {
  return step(env, order, "deliver", actor, lang, { status: "delivered" });
}

/** What a refund of lines claims, worked out by refundLines: each line's units and amount, and the shipping. */
interface LineClaim {
  items: {
    id: number;
    product_id: number;
    variant_id: number;
    quantity: number;
    amount: number;
    claimed_quantity: number;
    net: number;
  }[];
  shipping: number;
  restock: boolean;
}

export interface RefundOutcome {
  refund: ConsoleRefund;
  succeeded: boolean;
  /** The provider's refusal in the caller's language, when it failed. */
  message: string | null;
}

/**
 * Cancels an order that has not shipped: its stock returns (once, through releaseStockStatements),
 * a payment still open is closed, a promo use is given back, and a paid order is then refunded in
 * full through its provider. The cancel stands even if that refund fails: the refund is recorded
 * as failed and may be retried (the order then still offers `refund`).
 */
export async function cancelOrder(
  env: Env,
  order: OrderRow,
  actor: OrderActor,
  opts: { lang: Lang; reason?: string | null },
): Promise<{ order: OrderRow; refund: RefundOutcome | null }> {
  const db = env.DB;
  requireAllowed(order, "cancel", opts.lang);
  await runTransition(
    db,
    [
      db
        .prepare(
          `UPDATE orders SET status = 'cancelled', cancelled_at = ${NOW}, reserved_until = NULL, updated_at = ${NOW}
           WHERE id = ? AND status = ?
             -- A parcel already with a carrier: cancel it first (or refund what comes back).
             AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = orders.id AND s.kind = 'delivery' AND s.status != 'cancelled')`,
        )
        .bind(order.id, order.status),
      orderEventStatement(
        db,
        { id: order.id },
        "cancelled",
        opts.reason ? { reason: opts.reason } : null,
        actor,
        "guard",
      ),
      ...releaseStockStatements(db, order.id, "cancelled"),
      db
        .prepare(
          `UPDATE payments SET status = 'failed', message = 'cancelled', updated_at = ${NOW} WHERE order_id = ? AND status IN ('initiated', 'challenge')`,
        )
        .bind(order.id),
      ...releasePromoStatements(db, order.id),
      ...auditFor(db, actor, "order.cancel", order, { status: "cancelled" }),
      ...notifyStatements(db, order, "cancelled"),
    ],
    opts.lang,
  );
  await flushNotifications(env, order.id);
  await flushShopperMessages(env);
  const cancelled = await reread(db, order);
  const owed = refundableOf(cancelled);
  const refund =
    owed > 0 ? await refundOrder(env, cancelled, owed, actor, { lang: opts.lang, reason: opts.reason ?? null }) : null;
  return { order: await reread(db, order), refund };
}

const newRefundId = () => `rfd_${crypto.randomUUID().replace(/-/g, "")}`;

/**
 * Refunds `amount` (halalas) of a paid order through the provider that took the payment. The
 * amount is claimed first (orders.refunded, conditional on the value read, so two clicks cannot
 * both refund, and never past the total: its CHECK), then the provider is asked, then the refund
 * is settled: succeeded, or failed and the claim given back. Audited when staff runs it.
 */
export async function refundOrder(
  env: Env,
  order: OrderRow,
  amount: number,
  actor: OrderActor,
  opts: { lang: Lang; reason?: string | null; returnId?: string; claim?: LineClaim },
): Promise<RefundOutcome> {
  const db = env.DB;
  const { lang } = opts;
  /** What staff typed; a return's refund has none, and names its return instead (the console says it in the reader's language). */
  const reason = opts.reason ?? null;
  const returnId = opts.returnId ?? null;
  const about = returnId ? { reason, return_id: returnId } : { reason };
  requireAllowed(order, "refund", lang);
  const refundable = refundableOf(order);
  if (amount > refundable) {
    const message = say(lang, MESSAGES.tooMuch, { amount: (refundable / 100).toFixed(2) });
    throw unprocessable({ amount: [message] }, message);
  }
  const payment = await findPaidPayment(db, order.id);
  if (!payment) throw new BackendError(409, say(lang, MESSAGES.noPayment));
  // Cash comes back by bank transfer: without the shopper's IBAN there is nowhere to send it.
  if (payment.provider === "cod" && !order.refund_iban) throw new BackendError(409, say(lang, MESSAGES.noIban));
  const provider = await paymentProvider(env, payment.provider);
  if (!provider) throw new BackendError(503, say(lang, MESSAGES.providerDown));

  const id = newRefundId();
  const staffId = actor.kind === "staff" ? actor.staff.user_id : null;
  const claim = opts.claim;
  const shipping = claim?.shipping ?? 0;
  await runTransition(
    db,
    [
      // Shipping is refunded once: the claim of it is part of the same conditional update.
      db
        .prepare(
          `UPDATE orders SET refunded = refunded + ?1, shipping_refunded = MAX(shipping_refunded, ?4), updated_at = ${NOW}
           WHERE id = ?2 AND refunded = ?3 AND paid_at IS NOT NULL AND refunded + ?1 <= total
             AND (?4 = 0 OR shipping_refunded = 0)`,
        )
        .bind(amount, order.id, order.refunded, shipping > 0 ? 1 : 0),
      orderEventStatement(
        db,
        { id: order.id },
        "refund_requested",
        { refund_id: id, amount, ...about },
        actor,
        "guard",
      ),
      db
        .prepare(
          "INSERT INTO refunds (id, order_id, payment_id, amount, reason, return_id, status, staff_user_id) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)",
        )
        .bind(id, order.id, payment.id, amount, reason, returnId, staffId),
      ...(claim ? claimStatements(db, id, claim) : []),
    ],
    lang,
  );

  let result: RefundResult;
  try {
    // The provider's own record of the refund (its dashboard, the merchant's statement) names the return.
    result = await provider.refund(payment, amount, reason ?? (returnId ? `Return ${returnId}` : null));
  } catch (err) {
    console.error(JSON.stringify({ level: "error", event: "refund_failed", refund_id: id, error: String(err) }));
    result = { status: "failed", providerRef: null, message: "provider_unavailable" };
  }

  const succeeded = result.status === "succeeded";
  const settle: D1PreparedStatement[] = [
    db
      .prepare(`UPDATE refunds SET status = ?, provider_ref = ?, message = ? WHERE id = ? AND status = 'pending'`)
      .bind(result.status, result.providerRef, result.message, id),
  ];
  if (!succeeded) {
    settle.push(
      db
        .prepare(`UPDATE orders SET refunded = refunded - ?, updated_at = ${NOW} WHERE id = ? AND refunded >= ?`)
        .bind(amount, order.id, amount),
    );
    // The lines and the shipping it claimed may be refunded again.
    if (claim) {
      settle.push(claimLinesStatement(db, "refund_items", id, -1));
      if (shipping > 0) settle.push(db.prepare("UPDATE orders SET shipping_refunded = 0 WHERE id = ?").bind(order.id));
    }
  } else if (claim?.restock) {
    settle.push(...restockStatements(db, order, id, claim, actor));
  }
  settle.push(
    orderEventStatement(
      db,
      { id: order.id },
      succeeded ? "refunded" : "refund_failed",
      { refund_id: id, amount, ...about, message: result.message },
      actor,
    ),
    ...auditFor(db, actor, succeeded ? "order.refund" : "order.refund_failed", order, {
      refunded: succeeded ? order.refunded + amount : order.refunded,
    }),
    ...(succeeded ? notifyStatements(db, order, "refunded", { ref: id, detail: { amount, refund_id: id } }) : []),
  );
  if (succeeded) settle.push(...creditNoteStatements(db, order, { id, amount }, vatRateOf(env, order)));
  await db.batch(settle);
  if (succeeded) await flushNotifications(env, order.id);
  // A refund that restocked may owe back-in-stock alerts.
  await flushShopperMessages(env);
  const refund = (await refundsOf(db, order.id)).find((r) => r.id === id)!;
  return {
    refund,
    succeeded,
    message: succeeded ? null : say(lang, MESSAGES.refundFailed, { reason: result.message ?? "?" }),
  };
}

/** The claim of a refund's lines: per line, its counters move (conditionally on the value read) and its refund line is written. */
function claimStatements(db: D1Database, refundId: string, claim: LineClaim): D1PreparedStatement[] {
  return [
    db
      .prepare("UPDATE refunds SET shipping = ?, restock = ? WHERE id = ?")
      .bind(claim.shipping, claim.restock ? 1 : 0, refundId),
    ...claim.items.flatMap((line) => [
      db
        .prepare(
          `UPDATE order_items SET claimed_quantity = claimed_quantity + ?1, claimed_amount = claimed_amount + ?2
           WHERE id = ?3 AND claimed_quantity = ?4`,
        )
        .bind(line.quantity, line.amount, line.id, line.claimed_quantity),
      db
        .prepare(
          "INSERT INTO refund_items (refund_id, order_item_id, quantity, amount, applied) VALUES (?, ?, ?, ?, changes())",
        )
        .bind(refundId, line.id, line.quantity, line.amount),
    ]),
  ];
}

/** A refund's lines back on the shelf, when staff chose so: as a return's receipt does (services/orders/returns.ts). */
function restockStatements(
  db: D1Database,
  order: OrderRow,
  refundId: string,
  claim: LineClaim,
  actor: OrderActor,
): D1PreparedStatement[] {
  const staffId = actor.kind === "staff" ? actor.staff.user_id : null;
  const note = `${order.number} ${refundId}`;
  return claim.items.flatMap((line) => restockVariantStatements(db, line, note, staffId));
}

/**
 * What refunding `count` more units of each line gives back now, for 1..units left: the console's
 * refund dialog adds these up, so the amount it confirms is the one the server pays.
 */
export function lineRefundAmounts(item: {
  quantity: number;
  claimed_quantity: number;
  claimed_amount: number;
  net: number;
}): number[] {
  const left = item.quantity - item.claimed_quantity;
  return Array.from({ length: Math.max(0, left) }, (_, k) =>
    returnedAmount(item.net, item.quantity, item.claimed_quantity, item.claimed_amount, k + 1),
  );
}

/** What is left of the shipping charge to refund: all of it until it was refunded once, within what is refundable. */
export const shippingRefundableOf = (order: OrderRow) =>
  order.shipping_refunded ? 0 : Math.min(order.shipping, refundableOf(order));

const LINE_MESSAGES = {
  nothing: msg("orders.fulfilment.lineMessages.nothing"),
  notInOrder: msg("orders.fulfilment.lineMessages.notInOrder"),
  tooMany: msg("orders.fulfilment.lineMessages.tooMany"),
  shippingDone: msg("orders.fulfilment.lineMessages.shippingDone"),
  changed: msg("orders.fulfilment.lineMessages.changed"),
} satisfies Record<string, Bilingual>;

/**
 * A console refund of chosen lines (and the shipping, once): each line gives back its units' share
 * of what was paid for it (the same rule as a return, services/orders/returns.ts returnedAmount, from the
 * same counters), so a line refunded here cannot be returned for money, nor the other way round.
 * `expected` is the amount the console confirmed: if it no longer matches, nothing is refunded.
 */
export async function refundLines(
  env: Env,
  order: OrderRow,
  input: {
    lines: { product_id: number; quantity: number }[];
    shipping: boolean;
    restock: boolean;
    expected?: number | null;
  },
  actor: OrderActor,
  opts: { lang: Lang; reason: string | null },
): Promise<RefundOutcome> {
  const { lang } = opts;
  requireAllowed(order, "refund", lang);
  const { results: rows } = await env.DB.prepare("SELECT * FROM order_items WHERE order_id = ? ORDER BY id")
    .bind(order.id)
    .all<OrderItemRow & { id: number; claimed_quantity: number; claimed_amount: number }>();
  const nets = netsOfItems(rows, order.discount);
  const errors: Record<string, string[]> = {};
  const items: LineClaim["items"] = [];
  input.lines.forEach((line, index) => {
    if (line.quantity === 0) return;
    const found = findOrderLine(rows, line);
    const at = found ? rows.indexOf(found) : -1;
    if (at < 0) {
      errors[`lines.${index}.product_id`] = [say(lang, LINE_MESSAGES.notInOrder)];
      return;
    }
    const row = rows[at];
    const left = row.quantity - row.claimed_quantity;
    if (line.quantity > left) {
      errors[`lines.${index}.quantity`] = [say(lang, LINE_MESSAGES.tooMany, { count: left })];
      return;
    }
    const amount = returnedAmount(nets[at], row.quantity, row.claimed_quantity, row.claimed_amount, line.quantity);
    items.push({
      id: row.id,
      product_id: row.product_id,
      variant_id: row.variant_id,
      quantity: line.quantity,
      amount,
      claimed_quantity: row.claimed_quantity,
      net: nets[at],
    });
  });
  if (input.shipping && order.shipping_refunded) errors.shipping = [say(lang, LINE_MESSAGES.shippingDone)];
  if (Object.keys(errors).length) throw unprocessable(errors, Object.values(errors)[0][0]);
  const shipping = input.shipping ? shippingRefundableOf(order) : 0;
  const amount = items.reduce((sum, i) => sum + i.amount, 0) + shipping;
  if (amount <= 0) {
    const message = say(lang, LINE_MESSAGES.nothing);
    throw unprocessable({ lines: [message] }, message);
  }
  if (input.expected != null && input.expected !== amount)
    throw new BackendError(409, say(lang, LINE_MESSAGES.changed, { amount: (amount / 100).toFixed(2) }));
  return refundOrder(env, order, amount, actor, {
    lang,
    reason: opts.reason,
    claim: { items, shipping, restock: input.restock },
  });
}

async function refundsOf(db: D1Database, orderId: number): Promise<ConsoleRefund[]> {
  const { results } = await db
    .prepare(
      `SELECT r.id, r.payment_id, r.amount, r.reason, r.return_id, r.status, r.message, u.email AS staff_email, r.created_at
       FROM refunds r LEFT JOIN users u ON u.id = r.staff_user_id WHERE r.order_id = ? ORDER BY r.created_at, r.rowid`,
    )
    .bind(orderId)
    .all<ConsoleRefund>();
  return results;
}

type ClaimedItemRow = Omit<OrderItemRow, "order_id"> & { claimed_quantity: number; claimed_amount: number };

const itemsWithNets = (rows: ClaimedItemRow[], discount: number, lang: Lang) => {
  const nets = netsOfItems(rows, discount);
  return rows.map(({ claimed_amount, ...i }, index) => ({
    ...i,
    net_total: nets[index],
    name: lang === "ar" ? i.name_ar : i.name_en,
    refund_amounts: lineRefundAmounts({ ...i, claimed_amount, net: nets[index] }),
  }));
};

/** Street and building as support sees them: that there is one, not what it is. */
const maskText = (value: string | null | undefined) => (value ? "•••" : value);

/** GET /admin/orders/{number}: the order with its lines, payments, refunds and timeline. */
export async function consoleOrderDetail(
  db: D1Database,
  order: OrderRow,
  staff: Pick<StaffCaller, "role">,
  lang: Lang,
): Promise<ConsoleOrder> {
  const [items, payments, events, messages] = await db.batch([
    db.prepare("SELECT * FROM order_items WHERE order_id = ? ORDER BY id").bind(order.id),
    db
      .prepare(
        `SELECT p.id, p.provider, p.status, p.amount, p.currency, p.provider_ref, p.message, p.created_at,
           COALESCE((SELECT SUM(r.amount) FROM refunds r WHERE r.payment_id = p.id AND r.status = 'succeeded'), 0) AS refunded
         FROM payments p WHERE p.order_id = ? ORDER BY p.created_at, p.rowid`,
      )
      .bind(order.id),
    db
      .prepare("SELECT id, type, detail, actor, created_at FROM order_events WHERE order_id = ? ORDER BY id")
      .bind(order.id),
    db
      .prepare(
        "SELECT id, kind, channel, via, provider_status, status, attempts, last_error, created_at, sent_at FROM notifications WHERE order_id = ? ORDER BY id",
      )
      .bind(order.id),
  ]);
  const refunds = await refundsOf(db, order.id);
  const paymentRows = payments.results as unknown as ConsolePayment[];
  const latest = paymentRows.at(-1)?.status;
  const open = seesContactData(staff);
  const address = parseAddress(order.address);
  return {
    number: order.number,
    status: presentedStatus(order),
    payment_status: paymentStatusFor(order, latest),
    created_at: order.created_at,
    paid_at: order.paid_at,
    shipped_at: order.shipped_at,
    delivered_at: order.delivered_at,
    cancelled_at: order.cancelled_at,
    carrier: order.carrier,
    tracking_number: order.tracking_number,
    refunded: order.refunded,
    refundable: refundableOf(order),
    subtotal: order.subtotal,
    discount: order.discount,
    shipping: order.shipping,
    ...(order.cod_fee > 0 ? { cod_fee: order.cod_fee } : {}),
    vat: order.vat,
    total: order.total,
    currency: order.currency,
    email: open ? order.email : maskEmail(order.email),
    phone: open ? order.phone : maskPhone(order.phone),
    masked: !open,
    guest: order.user_id === null,
    // Each line's net (what was paid for it) beside its list total: what a return of it refunds.
    items: itemsWithNets(items.results as unknown as ClaimedItemRow[], order.discount, lang),
    shipping_refundable: shippingRefundableOf(order),
    documents: (await documentLinks(db, [order.id])).get(order.id)!,
    notes: await notesOf(db, `order:${order.id}`),
    promo_code: order.promo_code,
    address: open
      ? address
      : {
          ...address,
          phone: maskPhone(address.phone) ?? "",
          street: maskText(address.street) ?? "",
          building: maskText(address.building),
          // Notes carry gate codes and second phone numbers; a postal code narrows the door to a
          // few streets. Support learns only that there is one (as presentAddress in console-customers.ts).
          postal_code: maskText(address.postal_code),
          additional_number: maskText(address.additional_number),
          short_address: maskText(address.short_address),
          notes: maskText(address.notes),
        },
    shipping_method: order.shipping_method,
    payment_method: order.payment_method,
    payments: paymentRows.map((p) => ({
      ...p,
      status:
        p.status === "paid" && p.refunded > 0 ? (p.refunded >= p.amount ? "refunded" : "partially_refunded") : p.status,
    })),
    refunds,
    events: (events.results as unknown as (Omit<OrderEvent, "detail"> & { detail: string | null })[]).map((e) => ({
      ...e,
      detail: e.detail ? (JSON.parse(e.detail) as Record<string, unknown>) : null,
    })),
    messages: messages.results as unknown as ConsoleOrderMessage[],
    actions: open ? allowedActions(order) : [],
    late_payments: await latePaymentsOf(db, order.id),
    cash_to_collect: cashToCollect(order),
    refund_account: order.refund_iban
      ? { iban: open ? order.refund_iban : maskIban(order.refund_iban), name: order.refund_iban_name ?? "" }
      : null,
    bank_transfers: await bankTransfersOf(db, order.id, open),
    shipments: await shipmentsOf(db, order.id, lang),
    shippable: open && ["paid", "processing"].includes(order.status) ? await shippableOf(db, order.id, lang) : [],
  };
}

/** What the courier collects for a COD order not yet delivered (nor cancelled); 0 for every other order. */
export const cashToCollect = (order: Pick<OrderRow, "payment_method" | "paid_at" | "status" | "total">) =>
  order.payment_method === "cod" && !order.paid_at && !["cancelled", "payment_failed"].includes(order.status)
    ? order.total
    : 0;

/** The answer's state of an order, in SQL: `refunded` once a non-cancelled order was refunded in full. */
const STATUS_SQL =
  "(CASE WHEN o.status <> 'cancelled' AND o.refunded > 0 AND o.refunded >= o.total THEN 'refunded' ELSE o.status END)";
const LATEST_PAYMENT =
  "(SELECT p.status FROM payments p WHERE p.order_id = o.id ORDER BY p.created_at DESC, p.rowid DESC LIMIT 1)";
/** The same payment state as paymentStatusFor (services/orders/orders.ts), in SQL for the filter. */
const PAYMENT_SQL = `(CASE WHEN o.refunded > 0 AND o.refunded >= o.total THEN 'refunded'
  WHEN o.refunded > 0 THEN 'partially_refunded'
  WHEN o.paid_at IS NOT NULL THEN 'paid'
  WHEN o.payment_method = 'cod' AND o.status IN ('processing', 'shipped', 'delivered') THEN 'pending'
  WHEN o.status IN ('paid', 'processing', 'shipped', 'delivered') THEN 'paid'
  WHEN o.status = 'cancelled' THEN 'unpaid'
  WHEN ${LATEST_PAYMENT} = 'failed' THEN 'failed'
  WHEN ${LATEST_PAYMENT} IN ('initiated', 'challenge') THEN 'pending'
  ELSE 'unpaid' END)`;

export const ORDER_SORT_COLUMNS = {
  created_at: "o.created_at",
  number: "o.number",
  total: "o.total",
  status: STATUS_SQL,
  email: "o.email",
} as const;

export interface OrderFilters {
  status?: string;
  payment_status?: string;
  /** YYYY-MM-DD, UTC days, both included. */
  date_from?: string;
  date_to?: string;
  search?: string;
  /** `open`: a return is requested, approved or received, not yet refunded or rejected. */
  returns?: "open";
  /** `unconfirmed`: cash-on-delivery orders still waiting for the shopper's code (holding stock). */
  cod?: "unconfirmed";
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();

/**
 * The WHERE clause of an orders search, as the viewer's role allows it: the rule of the customers
 * list (services/console/customers.ts). Managers and owners find an order by its number, any part
 * of the email, or six or more digits of a phone. Support finds it only by the exact number, the
 * exact email (case aside) or the exact phone (of the order or its delivery address, typed the
 * international or the local way): whether a partial guess still lists the order would otherwise
 * let support spell out the contact data the answer masks, a letter at a time.
 */
function orderSearchClause(search: string, staff: Pick<StaffCaller, "role">): { sql: string; binds: unknown[] } {
  const addressPhone = "json_extract(o.address, '$.phone')";
  if (!seesContactData(staff)) {
    // A delivery phone is kept as typed: "05…" and "+9665…" name the same Saudi mobile.
    const phone = normalizePhone(search);
    const international = /^05\d{8}$/.test(phone) ? `+966${phone.slice(1)}` : phone;
    const local = /^\+9665\d{8}$/.test(phone) ? `0${phone.slice(4)}` : phone;
    return {
      sql: `(o.number = ? OR o.email = ? COLLATE NOCASE OR o.phone IN (?, ?, ?) OR ${addressPhone} IN (?, ?, ?))`,
      binds: [search.toUpperCase(), search, phone, international, local, phone, international, local],
    };
  }
  // An order number, an email (or part of one), or a phone number's digits.
  const digits = search.replace(/\D/g, "").replace(/^0+/, "");
  const terms = ["o.number = ?", "o.email LIKE ? ESCAPE '\\'"];
  const binds: unknown[] = [search.toUpperCase(), `%${search.toLowerCase().replace(/[%_\\]/g, (ch) => `\\${ch}`)}%`];
  if (digits.length >= 6 && /^[\d\s+()-]+$/.test(search)) {
    terms.push("o.phone LIKE ?", `${addressPhone} LIKE ?`);
    binds.push(`%${digits}%`, `%${digits}%`);
  }
  return { sql: `(${terms.join(" OR ")})`, binds };
}

/** GET /admin/orders: filtered, sorted and paged on the server; contact data masked for support. */
export async function listConsoleOrders(
  db: D1Database,
  query: ListQuery,
  filters: OrderFilters,
  staff: Pick<StaffCaller, "role">,
) {
  await releaseExpiredReservations(db);
  const where: string[] = [];
  const binds: unknown[] = [];
  if (filters.status) {
    where.push(`${STATUS_SQL} = ?`);
    binds.push(filters.status);
  }
  if (filters.payment_status) {
    where.push(`${PAYMENT_SQL} = ?`);
    binds.push(filters.payment_status);
  }
  if (filters.date_from) {
    where.push("o.created_at >= ?");
    binds.push(`${filters.date_from}T00:00:00.000Z`);
  }
  if (filters.date_to) {
    where.push("o.created_at < ?");
    binds.push(nextDay(filters.date_to));
  }
  if (filters.returns === "open")
    where.push(
      "EXISTS (SELECT 1 FROM returns r WHERE r.order_id = o.id AND r.status IN ('requested', 'approved', 'received'))",
    );
  if (filters.cod === "unconfirmed")
    where.push("o.payment_method = 'cod' AND o.status = 'pending_payment' AND o.stock_reserved = 1");
  const search = filters.search?.trim();
  if (search) {
    const clause = orderSearchClause(search, staff);
    where.push(clause.sql);
    binds.push(...clause.binds);
  }
  const from = `FROM orders o${where.length ? ` WHERE ${where.join(" AND ")}` : ""}`;
  const { rows, meta } = await pageOf<
    Pick<
      OrderRow,
      | "number"
      | "created_at"
      | "email"
      | "phone"
      | "total"
      | "refunded"
      | "currency"
      | "status"
      | "paid_at"
      | "payment_method"
    > & {
      customer: string | null;
      latest_payment: string | null;
    }
  >(
    db,
    `o.number, o.created_at, json_extract(o.address, '$.name') AS customer, o.email, o.phone, o.total, o.refunded,
     o.currency, o.status, o.paid_at, o.payment_method, ${LATEST_PAYMENT} AS latest_payment`,
    from,
    binds,
    // Emails in order would tell support more than their masked form does (as for customers).
    query.sort === "email" && !seesContactData(staff) ? { ...query, sort: "created_at" } : query,
    ORDER_SORT_COLUMNS,
  );
  const open = seesContactData(staff);
  const list: ConsoleOrderRow[] = rows.map((r) => ({
    number: r.number,
    created_at: r.created_at,
    customer: r.customer ?? "",
    email: open ? r.email : maskEmail(r.email),
    phone: open ? r.phone : maskPhone(r.phone),
    total: r.total,
    refunded: r.refunded,
    currency: r.currency,
    status: presentedStatus(r),
    payment_status: paymentStatusFor(r, r.latest_payment ?? undefined),
    payment_method: r.payment_method,
  }));
  return { rows: list, meta };
}
