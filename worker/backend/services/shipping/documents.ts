import { CARRIER_NAMES, type CarrierId } from "../../../../contract/shipping";
import { shopIsoDay } from "../../../../contract/shop-clock";
import { loadSettings } from "../shared/settings";
import type { Env } from "../../env";
import type { OrderRow } from "../orders/orders";
import { consigneeOf, shipperOf } from "./shipments";
import type { LabelParcel, ManifestRow, PickLine } from "./labels";

/**
 * What the printed shipping documents hold, read from the parcels: the labels of some parcels, the
 * pick list of some orders (what to take off the shelves), and a carrier's manifest of a day (what
 * its courier signs for). labels.ts draws them.
 */

interface ParcelRow {
  id: number;
  order_id: number;
  seq: number;
  kind: "delivery" | "return";
  carrier: CarrierId;
  waybill: string;
  weight_grams: number;
  cod_amount: number;
  created_at: string;
}

/** The labels of these parcels (live delivery parcels only), in the order asked; k of n counts the order's delivery parcels. */
export async function labelParcels(env: Env, where: { ids: number[] } | { orders: string[] }): Promise<LabelParcel[]> {
  const db = env.DB;
  const byIds = "ids" in where;
  const keys = byIds ? where.ids : where.orders.map((n) => n.toUpperCase());
  if (!keys.length) return [];
  const marks = keys.map(() => "?").join(",");
  const { results } = await db
    .prepare(
      `SELECT s.id, s.order_id, s.seq, s.kind, s.carrier, s.waybill, s.weight_grams, s.cod_amount, s.created_at
       FROM shipments s JOIN orders o ON o.id = s.order_id
       WHERE ${byIds ? "s.id" : "o.number"} IN (${marks}) AND s.kind = 'delivery' AND s.status != 'cancelled'
       ORDER BY o.created_at, s.seq`,
    )
    .bind(...keys)
    .all<ParcelRow>();
  if (!results.length) return [];
  const orderIds = [...new Set(results.map((r) => r.order_id))];
  const orderMarks = orderIds.map(() => "?").join(",");
  const [orders, counts] = await db.batch([
    db.prepare(`SELECT * FROM orders WHERE id IN (${orderMarks})`).bind(...orderIds),
    db
      .prepare(
        `SELECT order_id, seq FROM shipments WHERE order_id IN (${orderMarks}) AND kind = 'delivery' AND status != 'cancelled' ORDER BY seq`,
      )
      .bind(...orderIds),
  ]);
  const orderOf = new Map((orders.results as unknown as OrderRow[]).map((o) => [o.id, o]));
  const seqs = counts.results as { order_id: number; seq: number }[];
  const shipper = shipperOf((await loadSettings(env)).carriers.ship_from);
  const rows = byIds ? keys.map((id) => results.find((r) => r.id === id)).filter((r): r is ParcelRow => !!r) : results;
  return rows.map((r) => {
    const order = orderOf.get(r.order_id)!;
    const mine = seqs.filter((s) => s.order_id === r.order_id).map((s) => s.seq);
    return {
      waybill: r.waybill,
      carrier: CARRIER_NAMES[r.carrier] ?? { en: r.carrier, ar: r.carrier },
      reference: `${order.number}-${r.seq}`,
      order_number: order.number,
      parcel: mine.indexOf(r.seq) + 1,
      parcels: mine.length,
      shipper,
      consignee: consigneeOf(order),
      weight_grams: r.weight_grams,
      cod_amount: r.cod_amount,
      shipped_on: shopIsoDay(r.created_at),
    };
  });
}

/** What to take off the shelves for these orders' units not yet in a parcel, by SKU. */
export async function pickLines(db: D1Database, numbers: string[]): Promise<PickLine[]> {
  if (!numbers.length) return [];
  const marks = numbers.map(() => "?").join(",");
  const { results } = await db
    .prepare(
      `SELECT COALESCE(oi.sku, p.sku, CAST(oi.variant_id AS TEXT)) AS sku, oi.name_en, oi.name_ar, o.number,
              oi.quantity - oi.claimed_quantity - COALESCE((SELECT SUM(si.quantity) FROM shipment_items si
                JOIN shipments s ON s.id = si.shipment_id WHERE si.order_item_id = oi.id AND s.kind = 'delivery'
                AND s.status != 'cancelled'), 0) AS left
       FROM order_items oi JOIN orders o ON o.id = oi.order_id LEFT JOIN products p ON p.id = oi.product_id
       WHERE o.number IN (${marks}) AND o.status IN ('paid', 'processing')`,
    )
    .bind(...numbers.map((n) => n.toUpperCase()))
    .all<{ sku: string; name_en: string; name_ar: string; number: string; left: number }>();
  const lines = new Map<string, PickLine>();
  for (const r of results) {
    if (r.left <= 0) continue;
    const line = lines.get(r.sku) ?? { sku: r.sku, name: { en: r.name_en, ar: r.name_ar }, quantity: 0, orders: [] };
    line.quantity += r.left;
    if (!line.orders.includes(r.number)) line.orders.push(r.number);
    lines.set(r.sku, line);
  }
  return [...lines.values()].sort((a, b) => a.sku.localeCompare(b.sku));
}

/** A carrier's parcels created on a shop day (YYYY-MM-DD), not cancelled: what its courier takes away. */
export async function manifestRows(db: D1Database, carrier: CarrierId, day: string): Promise<ManifestRow[]> {
  // The shop's day runs from 21:00 UTC the evening before (Riyadh is UTC+3 all year).
  const from = new Date(Date.parse(`${day}T00:00:00+03:00`)).toISOString();
  const to = new Date(Date.parse(`${day}T00:00:00+03:00`) + 86_400_000).toISOString();
  const { results } = await db
    .prepare(
      `SELECT s.waybill, o.number AS order_number, json_extract(o.address, '$.city') AS city, s.weight_grams, s.cod_amount
       FROM shipments s JOIN orders o ON o.id = s.order_id
       WHERE s.carrier = ? AND s.kind = 'delivery' AND s.status != 'cancelled' AND s.created_at >= ? AND s.created_at < ?
       ORDER BY s.created_at, s.id`,
    )
    .bind(carrier, from, to)
    .all<Omit<ManifestRow, "parcels">>();
  return results.map((r) => ({ ...r, parcels: 1 }));
}
