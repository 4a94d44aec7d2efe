import { flushShopperMessages } from "../messages/shopper-messages";
import { restockVariantStatements } from "../catalogue/variants";
import { loadSettings } from "../shared/settings";
import type { Env, Lang, StaffCaller } from "../../env";
import { BackendError, notFound, unprocessable } from "../../http";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import { roleAtLeast } from "../../../../contract/console";
import { shopLongDay } from "../../../../contract/shop-time";
import type {
  ConsoleReturn,
  OrderRefund,
  OrderReturn,
  OrderSelfService,
  ReturnAction,
  ReturnLine,
  ReturnReason,
  ReturnRequestInput,
  ReturnStatus,
} from "../../../../contract/returns";
import { CANCELLABLE, cancelOrder, refundableOf, refundOrder } from "./fulfilment";
import { flushNotifications, notifyStatements, staffAlertStatement } from "../messages/notifications";
import { claimLinesStatement, findOrderLine, lineAmountSql, returnedAmount } from "./claimed-lines";
import {
  isFullyRefunded,
  isTransitionLost,
  netsOfItems,
  orderEventStatement,
  type OrderActor,
  type OrderRow,
} from "./orders";
import { auditStatement } from "../console/audit-log";
import { msg } from "../../messages";
import { refundAccountStatement } from "../payments/cash-on-delivery";
import { inputMessages } from "../../../../contract/server/input-messages";

/**
 * The shopper's self-service on an order: cancel before it ships, and returns within
 * the return window after delivery, per line with a reason. Staff then approve or reject a return,
 * mark it received (its items go back on the shelf, with an inventory ledger line of reason
 * `returned`) and refund it through refundOrder.
 *
 * What a return refunds is what was paid for its units: each order line's net (its list total less
 * its share of the order's discount, written at checkout) shared across the line's units, never the
 * list price. Shipping is never part of a return: the delivery was made. It is refunded only when
 * the whole order is cancelled before it ships (cancelOrder refunds everything paid), or by staff
 * with the console's own refund, capped at what is left to refund.
 */

const MESSAGES = {
  notDelivered: msg("orders.returns.notDelivered"),
  windowClosed: msg("orders.returns.windowClosed"),
  notInOrder: msg("orders.fulfilment.lineMessages.notInOrder"),
  tooMany: msg("orders.returns.tooMany"),
  nothingLeft: msg("orders.returns.nothingLeft"),
  nothingPaid: msg("orders.returns.nothingPaid"),
  changed: msg("orders.returns.changed"),
  notAllowed: msg("orders.returns.notAllowed"),
  notFound: msg("orders.returns.notFound"),
} satisfies Record<string, Bilingual>;

const STATUS_WORDS: Record<ReturnStatus, Bilingual> = {
  requested: msg("orders.returns.statusWords.requested"),
  approved: msg("orders.returns.statusWords.approved"),
  rejected: msg("orders.returns.statusWords.rejected"),
  received: msg("orders.returns.statusWords.received"),
  refunded: msg("orders.returns.statusWords.refunded"),
};

const ACTION_WORDS: Record<ReturnAction, Bilingual> = {
  approve: msg("orders.returns.actionWords.approve"),
  reject: msg("orders.returns.actionWords.reject"),
  receive: msg("orders.returns.actionWords.receive"),
  refund: msg("orders.fulfilment.actionWords.refund"),
};

/** Each action moves a return from exactly one state. */
const FROM: Record<ReturnAction, ReturnStatus> = {
  approve: "requested",
  reject: "requested",
  receive: "approved",
  refund: "received",
};

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
const DAY_MS = 86_400_000;

/** The store's return window in days (0 closes returns): the settings' `returns` section. */
export const returnWindowDays = async (env: Pick<Env, "DB"> & Partial<Env>): Promise<number> =>
  (await loadSettings(env)).returns.window_days;

export const returnableUntil = (order: Pick<OrderRow, "delivered_at">, days: number): string | null =>
  order.delivered_at ? new Date(Date.parse(order.delivered_at) + days * DAY_MS).toISOString() : null;

interface ItemRow {
  id: number;
  order_id: number;
  product_id: number;
  variant_id: number;
  name_en: string;
  name_ar: string;
  quantity: number;
  unit_price: number;
  line_total: number;
  net_total: number | null;
  /** Units claimed by returns not rejected and console refunds of lines (migration 0032), and what they give back. */
  claimed_quantity: number;
  claimed_amount: number;
}

interface ReturnRow {
  id: string;
  order_id: number;
  status: ReturnStatus;
  amount: number;
  decided_email: string | null;
  decision_note: string | null;
  created_at: string;
  decided_at: string | null;
  received_at: string | null;
  refunded_at: string | null;
  refund_id: string | null;
}

interface ReturnItemRow {
  return_id: string;
  product_id: number;
  variant_id: number;
  quantity: number;
  reason: ReturnReason;
  note: string | null;
  amount: number;
  name_en: string;
  name_ar: string;
}

/** The returns of some orders with their lines, the orders' items and refunds, in one batch. */
async function readReturns(db: D1Database, orderIds: number[]) {
  const marks = orderIds.map(() => "?").join(",");
  const [items, returns, lines, refunds] = await db.batch([
    db
      .prepare(
        `SELECT id, order_id, product_id, variant_id, name_en, name_ar, quantity, unit_price, line_total, net_total,
           claimed_quantity, claimed_amount
         FROM order_items WHERE order_id IN (${marks}) ORDER BY id`,
      )
      .bind(...orderIds),
    db
      .prepare(
        `SELECT r.id, r.order_id, r.status, r.amount, u.email AS decided_email, r.decision_note, r.created_at, r.decided_at,
           r.received_at, r.refunded_at, r.refund_id
         FROM returns r LEFT JOIN users u ON u.id = r.decided_by WHERE r.order_id IN (${marks}) ORDER BY r.created_at, r.rowid`,
      )
      .bind(...orderIds),
    db
      .prepare(
        `SELECT ri.return_id, ri.product_id, oi.variant_id, ri.quantity, ri.reason, ri.note, ri.amount, oi.name_en, oi.name_ar
         FROM return_items ri JOIN order_items oi ON oi.id = ri.order_item_id JOIN returns r ON r.id = ri.return_id
         WHERE r.order_id IN (${marks}) ORDER BY ri.id`,
      )
      .bind(...orderIds),
    db
      .prepare(
        `SELECT order_id, id, amount, status, created_at FROM refunds WHERE order_id IN (${marks}) ORDER BY created_at, rowid`,
      )
      .bind(...orderIds),
  ]);
  return {
    items: items.results as unknown as ItemRow[],
    returns: returns.results as unknown as ReturnRow[],
    lines: lines.results as unknown as ReturnItemRow[],
    refunds: refunds.results as unknown as (OrderRefund & { order_id: number })[],
  };
}

function presentReturn(r: ReturnRow, lines: ReturnItemRow[], lang: Lang): OrderReturn {
  return {
    id: r.id,
    status: r.status,
    amount: r.amount,
    items: lines
      .filter((l) => l.return_id === r.id)
      .map((l): ReturnLine => ({
        product_id: l.product_id,
        variant_id: l.variant_id,
        name: lang === "ar" ? l.name_ar : l.name_en,
        quantity: l.quantity,
        reason: l.reason,
        note: l.note,
        amount: l.amount,
      })),
    created_at: r.created_at,
    decided_at: r.decided_at,
    received_at: r.received_at,
    refunded_at: r.refunded_at,
    refund_id: r.refund_id,
    decision_note: r.status === "rejected" ? r.decision_note : null,
  };
}

/** What the order page offers each order's owner: presentOrders (services/orders/orders.ts) adds it. */
export async function selfServiceOf(
  db: D1Database,
  orders: OrderRow[],
  lang: Lang,
  opts: { windowDays: number; sendTo: string | null },
  now = Date.now(),
): Promise<Map<number, OrderSelfService>> {
  const { windowDays, sendTo } = opts;
  const found = new Map<number, OrderSelfService>();
  if (!orders.length) return found;
  const { items, returns, lines, refunds } = await readReturns(
    db,
    orders.map((o) => o.id),
  );
  for (const order of orders) {
    const returnable: Record<number, number> = {};
    for (const i of items.filter((i) => i.order_id === order.id))
      returnable[i.variant_id] = Math.max(0, i.quantity - i.claimed_quantity);
    const until = order.status === "delivered" ? returnableUntil(order, windowDays) : null;
    found.set(order.id, {
      can_cancel: CANCELLABLE.includes(order.status),
      returnable_until: until,
      can_return:
        until !== null &&
        Date.parse(until) > now &&
        !isFullyRefunded(order) &&
        Object.values(returnable).some((n) => n > 0),
      returnable,
      refunds: refunds
        .filter((r) => r.order_id === order.id)
        .map(({ id, amount, status, created_at }) => ({ id, amount, status, created_at })),
      returns: returns.filter((r) => r.order_id === order.id).map((r) => presentReturn(r, lines, lang)),
      send_to: sendTo,
    });
  }
  return found;
}

/** The shopper cancels an order that has not shipped; a paid one is refunded in full (cancelOrder). */
export async function cancelByShopper(env: Env, order: OrderRow, lang: Lang) {
  return cancelOrder(env, order, { kind: "shopper" }, { lang, reason: null });
}

const newReturnId = () => `ret_${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`;

/**
 * POST /orders/{number}/returns: the owner asks to return lines of a delivered order within the
 * window. Quantities are checked against what is left (422 per line), and again inside the batch
 * (return_items.within), so two requests racing cannot claim more than was bought.
 */
export async function requestReturn(
  env: Env,
  order: OrderRow,
  input: ReturnRequestInput,
  lang: Lang,
  now = Date.now(),
): Promise<string> {
  const db = env.DB;
  if (order.status !== "delivered" || !order.delivered_at)
    throw new BackendError(409, say(lang, MESSAGES.notDelivered));
  const until = returnableUntil(order, await returnWindowDays(env))!;
  if (Date.parse(until) <= now)
    throw new BackendError(409, say(lang, MESSAGES.windowClosed, { date: shopLongDay(until, lang) }));
  if (isFullyRefunded(order)) throw new BackendError(409, say(lang, MESSAGES.nothingLeft));

  const { items } = await readReturns(db, [order.id]);
  const nets = new Map(netsOfItems(items, order.discount).map((net, i) => [items[i].id, net]));
  const errors: Record<string, string[]> = {};
  const chosen: { item: ItemRow; quantity: number; reason: ReturnReason; note: string | null; amount: number }[] = [];
  input.items.forEach((line, index) => {
    if (line.quantity === 0) return;
    const item = findOrderLine(items, line);
    if (!item) {
      errors[`items.${index}.product_id`] = [say(lang, MESSAGES.notInOrder)];
      return;
    }
    const before = item.claimed_quantity;
    const left = item.quantity - before;
    if (line.quantity > left) {
      errors[`items.${index}.quantity`] = [say(lang, MESSAGES.tooMany, { count: Math.max(0, left) })];
      return;
    }
    const amount = returnedAmount(nets.get(item.id)!, item.quantity, before, item.claimed_amount, line.quantity);
    chosen.push({ item, quantity: line.quantity, reason: line.reason!, note: line.note, amount });
  });
  // Cash paid at the door comes back by bank transfer: the shopper names the account (once is enough).
  if (order.payment_method === "cod" && !input.refund_account && !order.refund_iban)
    errors["refund_account.iban"] = [inputMessages(lang).required("iban")];
  if (Object.keys(errors).length) throw unprocessable(errors, Object.values(errors)[0][0]);

  const id = newReturnId();
  const amount = chosen.reduce((sum, c) => sum + c.amount, 0);
  if (amount <= 0) throw new BackendError(409, say(lang, MESSAGES.nothingPaid));
  // Each line's amount is worked out again inside the batch from the claims committed by then
  // (lineAmountSql), so two requests racing (or a return and a console refund of the same line)
  // cannot together refund more than the line's net; the return's amount is then the sum of its
  // lines, and the lines' claims are added to the order items' counters.
  const statements = [
    db.prepare("INSERT INTO returns (id, order_id, amount) VALUES (?, ?, ?)").bind(id, order.id, amount),
    ...chosen.map((c) =>
      db
        .prepare(
          `INSERT INTO return_items (return_id, order_item_id, product_id, quantity, reason, note, amount, within)
           SELECT ?1, oi.id, oi.product_id, ?2, ?3, ?4, ${lineAmountSql("?2", "?5")}, oi.quantity - oi.claimed_quantity >= ?2
           FROM order_items oi WHERE oi.id = ?6`,
        )
        .bind(id, c.quantity, c.reason, c.note, nets.get(c.item.id)!, c.item.id),
    ),
    db
      .prepare("UPDATE returns SET amount = (SELECT SUM(amount) FROM return_items WHERE return_id = ?1) WHERE id = ?1")
      .bind(id),
    claimLinesStatement(db, "return_items", id, 1),
    orderEventStatement(db, { id: order.id }, "return_requested", { return_id: id, amount }, "shopper"),
    ...notifyStatements(db, { id: order.id }, "return_requested", { ref: id, detail: { return_id: id } }),
    staffAlertStatement(db, { id: order.id }, "staff_return", id),
    ...(order.payment_method === "cod" && input.refund_account
      ? [refundAccountStatement(db, order, input.refund_account)]
      : []),
  ];
  try {
    await db.batch(statements);
  } catch (err) {
    if (
      /CHECK constraint failed/i.test(String(err instanceof Error ? `${err.message} ${String(err.cause ?? "")}` : err))
    )
      throw new BackendError(409, say(lang, MESSAGES.changed));
    throw err;
  }
  await flushNotifications(env, order.id);
  return id;
}

/** What staff may do with a return now (nothing for support: they read). */
function actionsOf(r: Pick<ReturnRow, "status">, order: OrderRow, staff: Pick<StaffCaller, "role">): ReturnAction[] {
  if (!roleAtLeast(staff.role, "manager")) return [];
  return (Object.keys(FROM) as ReturnAction[]).filter(
    (a) => FROM[a] === r.status && (a !== "refund" || refundableOf(order) > 0),
  );
}

/** GET /admin/orders/{number}/returns: the order's returns with the actions valid for each. */
export async function consoleReturnsOf(
  db: D1Database,
  order: OrderRow,
  staff: Pick<StaffCaller, "role">,
  lang: Lang,
): Promise<ConsoleReturn[]> {
  const { returns, lines } = await readReturns(db, [order.id]);
  return returns.map((r) => ({
    ...presentReturn(r, lines, lang),
    decided_by: r.decided_email,
    decision_note: r.decision_note,
    actions: actionsOf(r, order, staff),
  }));
}

async function findReturn(db: D1Database, order: OrderRow, id: string, lang: Lang): Promise<ReturnRow> {
  const row = await db
    .prepare(`SELECT r.*, NULL AS decided_email FROM returns r WHERE r.id = ? AND r.order_id = ?`)
    .bind(id, order.id)
    .first<ReturnRow>();
  if (!row) throw notFound(say(lang, MESSAGES.notFound));
  return row;
}

async function runGuarded(db: D1Database, statements: D1PreparedStatement[], lang: Lang) {
  try {
    await db.batch(statements);
  } catch (err) {
    if (isTransitionLost(err)) throw new BackendError(409, say(lang, MESSAGES.changed));
    throw err;
  }
}

/**
 * A staff step on a return. approve / reject: requested → approved | rejected. receive: approved →
 * received; each returned item goes back on the shelf (stock + quantity, an inventory_adjustments
 * line `returned` naming the return), and the shopper is owed a `return_received` message. refund:
 * received → refunded; the return is claimed first (so two clicks cannot refund it twice), then
 * refundOrder pays back its amount (at most what is still refundable) and the refund is linked.
 * A refund the provider refuses gives the claim back and answers its message.
 */
export async function actOnReturn(
  env: Env,
  order: OrderRow,
  returnId: string,
  action: ReturnAction,
  staff: Pick<StaffCaller, "user_id" | "email">,
  opts: { lang: Lang; note?: string | null },
): Promise<{ message: string | null }> {
  const db = env.DB;
  const { lang } = opts;
  const found = await findReturn(db, order, returnId, lang);
  if (found.status !== FROM[action] || (action === "refund" && refundableOf(order) <= 0))
    throw new BackendError(
      409,
      say(lang, MESSAGES.notAllowed, {
        status: say(lang, STATUS_WORDS[found.status]),
        action: say(lang, ACTION_WORDS[action]),
      }),
    );
  const actor: OrderActor = { kind: "staff", staff };
  const before = { status: found.status, refund_id: found.refund_id };
  const audit = (after: Record<string, unknown>) =>
    auditStatement(db, staff, `return.${action}`, "return", returnId, before, { ...before, ...after });
  const guard = (type: string, detail: Record<string, unknown> = {}) =>
    orderEventStatement(db, { id: order.id }, type, { return_id: returnId, ...detail }, actor, "guard");

  if (action === "approve" || action === "reject") {
    const status = action === "approve" ? "approved" : "rejected";
    const note = action === "reject" ? (opts.note ?? null) : null;
    await runGuarded(
      db,
      [
        db
          .prepare(
            `UPDATE returns SET status = ?, decided_by = ?, decided_at = ${NOW}, decision_note = ?, updated_at = ${NOW}
             WHERE id = ? AND status = 'requested'`,
          )
          .bind(status, staff.user_id, note, returnId),
        guard(`return_${status}`, note ? { note } : {}),
        // A rejected return gives its lines back: they may be returned or refunded again.
        ...(status === "rejected" ? [claimLinesStatement(db, "return_items", returnId, -1)] : []),
        audit({ status, decision_note: note }),
        // The shopper learns the decision: where to send the items, or why not.
        ...notifyStatements(db, { id: order.id }, `return_${status}`, {
          ref: returnId,
          detail: { return_id: returnId, ...(note ? { note } : {}) },
        }),
      ],
      lang,
    );
    await flushNotifications(env, order.id);
    return { message: null };
  }

  if (action === "receive") {
    await receiveStatements(env, order, returnId, actor, lang, [audit({ status: "received" })]);
    return { message: null };
  }

  // refund: claim the return, then ask the provider through refundOrder.
  const claimed = await db
    .prepare(
      `UPDATE returns SET status = 'refunded', refunded_at = ${NOW}, updated_at = ${NOW} WHERE id = ? AND status = 'received'`,
    )
    .bind(returnId)
    .run();
  if (!claimed.meta.changes) throw new BackendError(409, say(lang, MESSAGES.changed));
  const release = () =>
    db
      .prepare(
        `UPDATE returns SET status = 'received', refunded_at = NULL, updated_at = ${NOW} WHERE id = ? AND status = 'refunded' AND refund_id IS NULL`,
      )
      .bind(returnId)
      .run();
  const amount = Math.min(found.amount, refundableOf(order));
  let outcome;
  try {
    outcome = await refundOrder(env, order, amount, actor, { lang, returnId });
  } catch (err) {
    await release();
    throw err;
  }
  if (!outcome.succeeded) {
    await release();
    return { message: outcome.message };
  }
  await db.batch([
    db.prepare("UPDATE returns SET refund_id = ? WHERE id = ?").bind(outcome.refund.id, returnId),
    audit({ status: "refunded", refund_id: outcome.refund.id, amount }),
  ]);
  return { message: null };
}

/**
 * The return reached the shop: its lines go back on the shelf (each with its ledger line) and the
 * shopper is told. Staff scanning it in and the carrier delivering its pickup parcel both land here.
 */
async function receiveStatements(
  env: Env,
  order: OrderRow,
  returnId: string,
  actor: OrderActor,
  lang: Lang,
  extra: D1PreparedStatement[],
): Promise<void> {
  const db = env.DB;
  const { results: items } = await db
    .prepare(
      `SELECT ri.product_id, oi.variant_id, ri.quantity FROM return_items ri JOIN order_items oi ON oi.id = ri.order_item_id
       WHERE ri.return_id = ? ORDER BY ri.id`,
    )
    .bind(returnId)
    .all<{ product_id: number; variant_id: number; quantity: number }>();
  const note = `${order.number} ${returnId}`;
  const staffId = actor.kind === "staff" ? actor.staff.user_id : null;
  await runGuarded(
    db,
    [
      db
        .prepare(
          `UPDATE returns SET status = 'received', received_by = ?, received_at = ${NOW}, updated_at = ${NOW}
           WHERE id = ? AND status = 'approved'`,
        )
        .bind(staffId, returnId),
      orderEventStatement(db, { id: order.id }, "return_received", { return_id: returnId }, actor, "guard"),
      // Back on the shelf, each with its ledger line (applied = changes(): a missing product aborts).
      ...items.flatMap((i) => [...restockVariantStatements(db, i, note, staffId)]),
      ...extra,
      ...notifyStatements(db, { id: order.id }, "return_received", { ref: returnId }),
    ],
    lang,
  );
  await flushNotifications(env, order.id);
  await flushShopperMessages(env);
}

/** The carrier delivered a return's pickup parcel to the shop: received, as staff would mark it. */
export async function receiveReturn(env: Env, order: OrderRow, returnId: string, actor: OrderActor, lang: Lang) {
  await receiveStatements(env, order, returnId, actor, lang, []);
}
