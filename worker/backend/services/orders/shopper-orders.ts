import { shipmentsOf, shopperShipments } from "../shipping/views";
import type { Lang } from "../../env";
import { documentLinks } from "./invoices";
import {
  findOrderByNumber,
  maskEmail,
  netsOfItems,
  ownsOrder,
  parseAddress,
  paymentStatusFor,
  presentedStatus,
  type Order,
  type OrderItemRow,
  type OrderRow,
} from "./orders";
import { selfServiceOf } from "./returns";
import { presentPromise } from "./delivery-promise";
import { loadSettings } from "../shared/settings";
import { releaseExpiredReservations } from "./reservations";
import type { CartOwner } from "../../identity";

/**
 * Orders as their shopper finds and sees them: their own by number or all of them, a guest's by
 * number and contact (tracking), each shaped for the contract's `Order` with its items, payment
 * state, documents and, on the owner's own page, what they may still do (cancel, return).
 */

export interface PresentOptions {
  /** False for tracking by number and contact: the city only. */
  withAddress?: boolean;
  /** True for tracking by number and contact: the email masked (the owner's own views keep it). */
  maskEmail?: boolean;
  /** For the owner's own order page: add `self_service` (cancel, returns) with this return window in days. */
  selfService?: { returnWindowDays: number; sendTo: string | null };
}

/** The states in which the order page says when the order arrives: placed and not yet delivered nor closed. */
const PROMISE_SHOWN: ReadonlySet<string> = new Set(["pending_payment", "paid", "processing", "shipped"]);

/** Shapes orders for the contract, with their items and payment state, in the caller's language. */
export async function presentOrders(
  db: D1Database,
  rows: OrderRow[],
  lang: Lang,
  opts: PresentOptions = {},
): Promise<Order[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const marks = ids.map(() => "?").join(",");
  const [items, payments] = await db.batch([
    db.prepare(`SELECT * FROM order_items WHERE order_id IN (${marks}) ORDER BY id`).bind(...ids),
    db
      .prepare(
        `SELECT order_id, status FROM payments WHERE order_id IN (${marks}) ORDER BY created_at DESC, rowid DESC`,
      )
      .bind(...ids),
  ]);
  const itemRows = items.results as unknown as OrderItemRow[];
  // "Arrives by …" while the order is on its way; whether Arabic adds the Hijri date is the owner's
  // choice now (one read of the small settings table, only when some order shows a promise).
  const promising = (row: OrderRow) => row.promised_by !== null && PROMISE_SHOWN.has(row.status);
  const hijri = rows.some(promising) ? (await loadSettings({ DB: db })).delivery.hijri : false;
  const selfService = opts.selfService
    ? await selfServiceOf(db, rows, lang, {
        windowDays: opts.selfService.returnWindowDays,
        sendTo: opts.selfService.sendTo,
      })
    : null;
  const latestPayment = new Map<number, string>();
  for (const p of payments.results as unknown as { order_id: number; status: string }[]) {
    if (!latestPayment.has(p.order_id)) latestPayment.set(p.order_id, p.status);
  }
  const documents = await documentLinks(db, ids);
  return rows.map((row) => {
    const address = parseAddress(row.address);
    const lines = itemRows.filter((i) => i.order_id === row.id);
    const nets = netsOfItems(lines, row.discount);
    return {
      number: row.number,
      status: presentedStatus(row),
      created_at: row.created_at,
      email: opts.maskEmail ? maskEmail(row.email) : row.email,
      items: lines.map((i, index) => ({
        product_id: i.product_id,
        variant_id: i.variant_id,
        variant: (lang === "ar" ? i.variant_ar : i.variant_en) ?? null,
        sku: i.sku,
        name: lang === "ar" ? i.name_ar : i.name_en,
        slug: i.slug,
        image: i.image,
        quantity: i.quantity,
        unit_price: i.unit_price,
        line_total: i.line_total,
        net_total: nets[index],
      })),
      subtotal: row.subtotal,
      discount: row.discount,
      shipping: row.shipping,
      ...(row.cod_fee > 0 ? { cod_fee: row.cod_fee } : {}),
      vat: row.vat,
      total: row.total,
      currency: row.currency,
      promo_code: row.promo_code,
      address: opts.withAddress === false ? { city: address.city } : address,
      shipping_method: row.shipping_method,
      payment_method: row.payment_method,
      payment_status: paymentStatusFor(row, latestPayment.get(row.id)),
      reserved_until: row.status === "pending_payment" ? row.reserved_until : null,
      carrier: row.carrier,
      tracking_number: row.tracking_number,
      shipped_at: row.shipped_at,
      delivered_at: row.delivered_at,
      promised_by: row.promised_by,
      delivery_promise: promising(row) ? presentPromise({ arrives_by: row.promised_by!, hijri }, lang) : null,
      cancelled_at: row.cancelled_at,
      refunded: row.refunded,
      ...(selfService ? { self_service: selfService.get(row.id) } : {}),
      // Tracking (not the owner) gets no document links: the documents are the owner's only.
      ...(opts.withAddress === false
        ? { invoice_number: null, credit_notes: [], debit_notes: [] }
        : documents.get(row.id)!),
    };
  });
}

export async function presentOrder(
  db: D1Database,
  row: OrderRow,
  lang: Lang,
  opts: PresentOptions = {},
): Promise<Order> {
  const [[order], parcels] = await Promise.all([presentOrders(db, [row], lang, opts), shipmentsOf(db, row.id, lang)]);
  // Only the owner's own page may ask for a new delivery day; tracking by number and contact reads.
  const shipments = shopperShipments(parcels).map((s) => (opts.selfService ? s : { ...s, attempt_days: [] }));
  return shipments.length ? { ...order, shipments } : order;
}

/** The owner's order by number, or null for anyone else (who must not learn it exists). */
export async function findOwnedOrder(db: D1Database, number: string, owner: CartOwner): Promise<OrderRow | null> {
  await releaseExpiredReservations(db);
  const order = await findOrderByNumber(db, number);
  return order && ownsOrder(order, owner) ? order : null;
}

export async function listUserOrders(db: D1Database, userId: number): Promise<OrderRow[]> {
  await releaseExpiredReservations(db);
  const { results } = await db
    .prepare("SELECT * FROM orders WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT 100")
    .bind(userId)
    .all<OrderRow>();
  return results;
}

const normalizePhone = (value: string) => value.replace(/[\s\-()]/g, "").replace(/^00/, "+");

/** Tracking: the order only when the contact is its email or its phone (the order's or the address's). */
export async function trackOrder(db: D1Database, number: string, contact: string): Promise<OrderRow | null> {
  await releaseExpiredReservations(db);
  const order = await findOrderByNumber(db, number);
  if (!order) return null;
  const given = contact.trim();
  if (given.includes("@")) return order.email.toLowerCase() === given.toLowerCase() ? order : null;
  const phone = normalizePhone(given);
  if (phone.replace(/\D/g, "").length < 6) return null;
  const phones = [order.phone, parseAddress(order.address).phone].filter((p): p is string => !!p).map(normalizePhone);
  return phones.includes(phone) ? order : null;
}
