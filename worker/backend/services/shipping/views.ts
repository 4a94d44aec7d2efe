import type { Lang } from "../../env";
import {
  CARRIER_NAMES,
  type CarrierId,
  type ConsoleShipment,
  type OrderShipment,
  type ShipmentStatus,
} from "../../../../contract/shipping";
import { shopIsoDay } from "../../../../contract/shop-clock";
import { WEEKEND_DAYS } from "../../../../contract/delivery-promise";
import { loadSettings } from "../shared/settings";
import { trackingUrl } from "../orders/carriers";

/**
 * Parcels as they are read: the console's order page and the shopper's. Apart from the service
 * that moves them (shipments.ts) so that the order pages read them without importing fulfilment.
 */

export interface ShipmentRow {
  id: number;
  order_id: number;
  kind: "delivery" | "return";
  return_id: string | null;
  seq: number;
  carrier: CarrierId;
  waybill: string;
  pickup_reference: string | null;
  status: ShipmentStatus;
  weight_grams: number;
  cod_amount: number;
  next_attempt_on: string | null;
  attempts: number;
  created_at: string;
  picked_up_at: string | null;
  delivered_at: string | null;
}

/**
 * The working days after `from` the shopper may choose for a new attempt: not the Saudi weekend,
 * nor a public holiday of the delivery settings (couriers do not go out on those).
 */
export function attemptDays(from: Date = new Date(), count = 5, holidays: readonly string[] = []): string[] {
  const days: string[] = [];
  let t = Date.parse(`${shopIsoDay(from)}T12:00:00Z`);
  for (let tries = 0; days.length < count && tries < 60; tries++) {
    t += 86_400_000;
    const day = new Date(t).toISOString().slice(0, 10);
    if (!WEEKEND_DAYS.includes(new Date(t).getUTCDay()) && !holidays.includes(day)) days.push(day);
  }
  return days;
}

/** The days a missed delivery may be asked again for, under the shop's holidays. */
export async function attemptDaysNow(db: D1Database): Promise<string[]> {
  return attemptDays(new Date(), 5, (await loadSettings({ DB: db })).delivery.holidays);
}

/** The parcels of some orders with their lines and steps, for the order page and the console. */
export async function shipmentsOf(db: D1Database, orderId: number, lang: Lang): Promise<ConsoleShipment[]> {
  const [shipments, items, events, remitted] = await db.batch([
    db.prepare("SELECT * FROM shipments WHERE order_id = ? ORDER BY seq").bind(orderId),
    db
      .prepare(
        `SELECT si.shipment_id, si.quantity, oi.variant_id, oi.name_en, oi.name_ar FROM shipment_items si
         JOIN order_items oi ON oi.id = si.order_item_id JOIN shipments s ON s.id = si.shipment_id
         WHERE s.order_id = ? ORDER BY oi.id`,
      )
      .bind(orderId),
    db
      .prepare(
        `SELECT e.shipment_id, e.status, e.code, e.description, e.location, e.happened_at FROM shipment_events e
         JOIN shipments s ON s.id = e.shipment_id WHERE s.order_id = ? ORDER BY e.happened_at, e.id`,
      )
      .bind(orderId),
    db
      .prepare(
        `SELECT r.shipment_id, SUM(r.amount) AS amount FROM cod_remittances r JOIN shipments s ON s.id = r.shipment_id
         WHERE s.order_id = ? GROUP BY r.shipment_id`,
      )
      .bind(orderId),
  ]);
  const itemRows = items.results as {
    shipment_id: number;
    quantity: number;
    variant_id: number;
    name_en: string;
    name_ar: string;
  }[];
  const eventRows = events.results as {
    shipment_id: number;
    status: ShipmentStatus;
    code: string;
    description: string;
    location: string | null;
    happened_at: string;
  }[];
  const remittedRows = remitted.results as { shipment_id: number; amount: number }[];
  const rows = shipments.results as unknown as ShipmentRow[];
  // The settings are read only when a parcel awaits a new day.
  const days = rows.some((s) => s.status === "delivery_attempted") ? await attemptDaysNow(db) : [];
  return rows.map((s) => ({
    id: s.id,
    seq: s.seq,
    kind: s.kind,
    carrier: s.carrier,
    waybill: s.waybill,
    status: s.status,
    tracking_url: s.carrier === "courier" ? null : trackingUrl(CARRIER_NAMES[s.carrier]?.en ?? s.carrier, s.waybill),
    steps: eventRows
      .filter((e) => e.shipment_id === s.id)
      .map((e) => ({
        status: e.status,
        description: e.description,
        code: e.code,
        location: e.location,
        at: e.happened_at,
      })),
    items: itemRows
      .filter((i) => i.shipment_id === s.id)
      .map((i) => ({ variant_id: i.variant_id, name: lang === "ar" ? i.name_ar : i.name_en, quantity: i.quantity })),
    next_attempt_on: s.next_attempt_on,
    attempt_days: s.status === "delivery_attempted" && s.kind === "delivery" ? days : [],
    weight_grams: s.weight_grams,
    cod_amount: s.cod_amount,
    remitted: remittedRows.find((r) => r.shipment_id === s.id)?.amount ?? 0,
    created_at: s.created_at,
    cancellable: s.status === "created",
  }));
}

/** The shopper's view of parcels: no staff fields. */
export function shopperShipments(shipments: ConsoleShipment[]): OrderShipment[] {
  return shipments
    .filter((s) => s.status !== "cancelled")
    .map(({ seq, kind, carrier, waybill, status, tracking_url, steps, items, next_attempt_on, attempt_days }) => ({
      seq,
      kind,
      carrier,
      waybill,
      status,
      tracking_url,
      steps: steps.map((st) => ({ ...st, code: "", description: "" })),
      items,
      next_attempt_on,
      attempt_days,
    }));
}

/** Units of each line not yet in a live parcel (less what was refunded before shipping). */
export async function shippableOf(db: D1Database, orderId: number, lang: Lang) {
  const { results } = await db
    .prepare(
      `SELECT oi.variant_id, oi.name_en, oi.name_ar, oi.variant_en, oi.variant_ar, oi.quantity - oi.claimed_quantity -
         COALESCE((SELECT SUM(si.quantity) FROM shipment_items si JOIN shipments s ON s.id = si.shipment_id
                   WHERE si.order_item_id = oi.id AND s.kind = 'delivery' AND s.status != 'cancelled'), 0) AS left
       FROM order_items oi WHERE oi.order_id = ? ORDER BY oi.id`,
    )
    .bind(orderId)
    .all<{ variant_id: number; name_en: string; name_ar: string; left: number }>();
  return results
    .filter((r) => r.left > 0)
    .map((r) => ({ variant_id: r.variant_id, name: lang === "ar" ? r.name_ar : r.name_en, left: r.left }));
}
