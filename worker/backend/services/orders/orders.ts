import { stockAlertStatements } from "../stock-alerts/trigger";
import { bumpOnFlip, bumpOnReleaseFlip } from "../catalogue/availability";
import type { CartOwner } from "../../identity";
import { lineNets } from "../shared/money";
import type {
  OrderStatus,
  PaymentStatus,
  OrderAddress,
  OrderItem,
  Order,
  StoredOrderStatus,
  Totals,
} from "../../../../contract/orders";
export type { OrderStatus, PaymentStatus, OrderAddress, OrderItem, Order, StoredOrderStatus };

/**
 * Orders: what the shopper sees of them, who may see them, and the stock they hold. States:
 * pending_payment → paid → processing → shipped → delivered, plus payment_failed and cancelled
 * (the console's transitions and refunds: services/orders/fulfilment.ts).
 */

export interface OrderRow extends Totals {
  id: number;
  number: string;
  user_id: number | null;
  guest_id: string | null;
  email: string;
  phone: string | null;
  status: StoredOrderStatus;
  promo_code: string | null;
  address: string;
  shipping_method: string;
  payment_method: string;
  stock_reserved: number;
  reserved_until: string | null;
  idempotency_key: string;
  paid_at: string | null;
  carrier: string | null;
  tracking_number: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
  /** The shop day the order was promised to arrive by (migration 0047); null for older orders. */
  /** A business buyer's company and VAT number (given at checkout): their invoice is a standard one. */
  buyer_company?: string | null;
  buyer_vat_number?: string | null;
  promised_by: string | null;
  cancelled_at: string | null;
  /** Refunded so far (succeeded and pending refunds), in halalas. */
  refunded: number;
  /** 1 once the shipping charge was refunded (migration 0032): it is refunded at most once. */
  shipping_refunded: number;
  /** The VAT rate the order was charged at (migration 0020); null for orders placed before it. */
  vat_rate: number | null;
  /** Cash on delivery (migration 0045): the fee in the total, and the IBAN a refund is transferred to. */
  cod_fee: number;
  refund_iban: string | null;
  refund_iban_name: string | null;
  created_at: string;
  updated_at: string;
}

export interface OrderItemRow {
  order_id: number;
  product_id: number;
  variant_id: number;
  sku: string | null;
  slug: string;
  /** With the variant's values: what was sold ("iPhone 16 Pro, Blue, 256 GB"). */
  name_en: string;
  name_ar: string;
  variant_en: string | null;
  variant_ar: string | null;
  image: string | null;
  quantity: number;
  unit_price: number;
  line_total: number;
  /** Its list total less its share of the order's discount (migration 0026); see netsOfItems. */
  net_total: number | null;
}

/**
 * Each item's net, in the order of `items` (one order's): as stored at checkout, or for a line
 * whose order kept none, the order's discount shared across its lines the same way checkout shares
 * it (migration 0026 fills these in; this keeps a row written without one exact as well).
 */
export function netsOfItems(items: Pick<OrderItemRow, "line_total" | "net_total">[], discount: number): number[] {
  if (items.every((i) => i.net_total !== null)) return items.map((i) => i.net_total!);
  return lineNets(
    items.map((i) => i.line_total),
    discount,
  );
}

export const nowIso = () => new Date().toISOString();
export const isoIn = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

export function parseAddress(raw: string): OrderAddress {
  return JSON.parse(raw) as OrderAddress;
}

/** Fully refunded: a paid order whose refunds reached its total. */
export const isFullyRefunded = (order: Pick<OrderRow, "refunded" | "total">) =>
  order.refunded > 0 && order.refunded >= order.total;

/**
 * The state an order is answered in, everywhere it is shown: `refunded` (derived, never stored)
 * once refunded in full (`STATUS_SQL` in services/orders/fulfilment.ts is its twin for sorting).
 */
export function presentedStatus(order: Pick<OrderRow, "status" | "refunded" | "total">): OrderStatus {
  return order.status !== "cancelled" && isFullyRefunded(order) ? "refunded" : order.status;
}

/**
 * The payment state every view of an order answers (lists, order page, dashboard, shopper): the one
 * place it is derived (`PAYMENT_SQL` in services/orders/fulfilment.ts is its twin for the orders filter).
 * "failed" is a payment that failed on an order still open: an unpaid order that was cancelled or
 * expired was simply not paid, whatever its last attempt did.
 */
export function paymentStatusFor(
  order: Pick<OrderRow, "paid_at" | "status" | "refunded" | "total"> & { payment_method?: string },
  latest: string | undefined,
): PaymentStatus {
  if (isFullyRefunded(order)) return "refunded";
  if (order.refunded > 0) return "partially_refunded";
  if (order.paid_at) return "paid";
  // Cash on delivery: confirmed, it is paid when the courier collects it.
  if (order.payment_method === "cod" && ["processing", "shipped", "delivered"].includes(order.status)) return "pending";
  if (["paid", "processing", "shipped", "delivered"].includes(order.status)) return "paid";
  if (order.status === "cancelled") return "unpaid";
  if (latest === "failed") return "failed";
  if (latest === "initiated" || latest === "challenge") return "pending";
  return "unpaid";
}

/**
 * An email as a tracking answer shows it: `a***@e***.com`. Tracking needs only the order number
 * and a contact, and the phone number is guessable, so the answer must not hand out the email.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "***";
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  const tld = dot > 0 ? domain.slice(dot) : "";
  return `${email[0]}***@${domain[0] ?? ""}***${tld}`;
}

export async function findOrderByNumber(db: D1Database, number: string): Promise<OrderRow | null> {
  return db.prepare("SELECT * FROM orders WHERE number = ?").bind(number.trim().toUpperCase()).first<OrderRow>();
}

/** The user it belongs to, or the guest who placed it (also after the order became a user's at login). */
export function ownsOrder(order: OrderRow, owner: CartOwner): boolean {
  return owner.userId !== null
    ? order.user_id === owner.userId
    : order.guest_id !== null && order.guest_id === owner.guestId;
}

/** Who moved an order: a staff member, its shopper, or the shop itself (expiry, payments). */
export type OrderActor =
  { kind: "staff"; staff: { user_id: number; email: string } } | { kind: "shopper" } | { kind: "system" };

export const actorName = (actor: OrderActor): string => (actor.kind === "staff" ? actor.staff.email : actor.kind);

/**
 * A line of an order's timeline (order_events). `when`: `always`; `changed`, only if the statement
 * just before it changed a row (the existing flows' conditional updates); `guard`, the line is the
 * transition's guard: a conditional update that changed nothing aborts the whole batch.
 */
export function orderEventStatement(
  db: D1Database,
  order: { id: number } | { number: string },
  type: string,
  detail: Record<string, unknown> | null,
  actor: OrderActor | string,
  when: "always" | "changed" | "guard" = "always",
): D1PreparedStatement {
  const orderId = "id" in order ? "?1" : "(SELECT id FROM orders WHERE number = ?1)";
  const values = [
    "id" in order ? order.id : order.number,
    type,
    detail ? JSON.stringify(detail) : null,
    typeof actor === "string" ? actor : actorName(actor),
  ];
  const columns = "INSERT INTO order_events (order_id, type, detail, actor, applied)";
  const sql =
    when === "changed"
      ? `${columns} SELECT ${orderId}, ?2, ?3, ?4, 1 WHERE changes() > 0`
      : `${columns} VALUES (${orderId}, ?2, ?3, ?4, ${when === "guard" ? "changes()" : "1"})`;
  return db.prepare(sql).bind(...values);
}

/** True when a transition's guard event refused the batch: another request moved the order first. */
export function isTransitionLost(err: unknown): boolean {
  const text = String(err instanceof Error ? `${err.message} ${String(err.cause ?? "")}` : err);
  return /CHECK constraint failed/i.test(text) && /applied|order_events/i.test(text);
}

/**
 * The statements that give an order's stock back, exactly once: the product update only adds
 * while the order is in `status` (pending_payment unless a cancel says `cancelled`) and still
 * holds its stock, and the flag flips in the same batch, with a `stock_released` line on the
 * timeline when it did.
 */
export function releaseStockStatements(
  db: D1Database,
  orderId: number,
  status: "pending_payment" | "cancelled" = "pending_payment",
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO stock_moves (order_id, product_id, variant_id, quantity, applied)
         SELECT oi.order_id, oi.product_id, oi.variant_id, oi.quantity, 1 FROM order_items oi JOIN orders o ON o.id = oi.order_id
         WHERE oi.order_id = ?1 AND o.stock_reserved = 1 AND o.status = ?2`,
      )
      .bind(orderId, status),
    db
      .prepare(
        `UPDATE product_variants SET stock = stock + (SELECT oi.quantity FROM order_items oi WHERE oi.order_id = ?1 AND oi.variant_id = product_variants.id),
           updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id IN (SELECT variant_id FROM order_items WHERE order_id = ?1)
           AND EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND stock_reserved = 1 AND status = ?2)`,
      )
      .bind(orderId, status),
    // A sold-out variant back in stock: pages showing it sold out are out of date, and the
    // shoppers waiting for it are told.
    bumpOnReleaseFlip(db, orderId, status),
    ...stockAlertStatements(db, { orderId }),
    db
      .prepare(
        "UPDATE orders SET stock_reserved = 0, reserved_until = NULL, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND status = ? AND stock_reserved = 1",
      )
      .bind(orderId, status),
    orderEventStatement(db, { id: orderId }, "stock_released", null, "system", "changed"),
  ];
}

/**
 * A declined order gave its stock back; a retry takes it again with the same conditional
 * updates as checkout. False (and nothing changed) when an item is no longer in stock.
 */
export async function reReserveStock(db: D1Database, order: OrderRow, reservedUntil: string): Promise<boolean> {
  const { results: items } = await db
    .prepare("SELECT product_id, variant_id, quantity FROM order_items WHERE order_id = ?")
    .bind(order.id)
    .all<{ product_id: number; variant_id: number; quantity: number }>();
  const statements: D1PreparedStatement[] = [
    // Claims the order first: a concurrent retry finds it already reserved and its guard row
    // (applied = changes() = 0) aborts that whole batch, so stock is never taken twice.
    db
      .prepare(
        `UPDATE orders SET stock_reserved = 1, status = 'pending_payment', reserved_until = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND stock_reserved = 0 AND status IN ('payment_failed', 'pending_payment')`,
      )
      .bind(reservedUntil, order.id),
    db
      .prepare("INSERT INTO stock_moves (order_id, product_id, quantity, applied) VALUES (?, 0, 0, changes())")
      .bind(order.id),
  ];
  for (const item of items) {
    statements.push(
      db
        .prepare(
          "UPDATE product_variants SET stock = stock - ?1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?2 AND stock >= ?1",
        )
        .bind(item.quantity, item.variant_id),
      db
        .prepare(
          "INSERT INTO stock_moves (order_id, product_id, variant_id, quantity, applied) VALUES (?, ?, ?, ?, changes())",
        )
        .bind(order.id, item.product_id, item.variant_id, -item.quantity),
      bumpOnFlip(db, item.variant_id, -item.quantity),
    );
  }
  try {
    await db.batch(statements);
    return true;
  } catch (err) {
    if (isGuardFailure(err)) return false;
    throw err;
  }
}

/** True for the CHECK failure of a stock_moves guard row (a conditional update changed no row). */
export function isGuardFailure(err: unknown): boolean {
  const text = String(err instanceof Error ? `${err.message} ${String(err.cause ?? "")}` : err);
  return /CHECK constraint failed/i.test(text) && /applied|stock_moves/i.test(text);
}
