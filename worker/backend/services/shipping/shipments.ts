import type { Env, Lang } from "../../env";
import { BackendError } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { msg } from "../../messages";
import { regionOfCity } from "../../../../contract/regions";
import {
  CARRIER_IDS,
  CARRIER_NAMES,
  type ParcelPlan,
  carrierFor,
  type BulkShipResult,
  type CarrierId,
  type ShipFrom,
  type ShipmentStatus,
} from "../../../../contract/shipping";
import { loadSettings } from "../shared/settings";
import { orderEventStatement, parseAddress, type OrderActor, type OrderRow } from "../orders/orders";
import { auditStatement } from "../console/audit-log";
import { flushNotifications, notifyStatements } from "../messages/notifications";
import { cashToCollect, deliverOrder } from "../orders/fulfilment";
import { receiveReturn } from "../orders/returns";
import { carrierOf } from "./registry";
import { attemptDays, attemptDaysNow, type ShipmentRow } from "./views";
import {
  CarrierRefused,
  type CarrierAddress,
  type CarrierEvent,
  type CarrierItem,
  type CarrierRemittance,
} from "./carrier";

/**
 * Parcels: an order leaves in one or more, each created with the carrier its region and weight
 * call for (Settings → Carriers), printed as a label with the carrier's waybill, and followed by
 * the carrier's events (its webhook, or the cron's polling) until delivered. The order follows its
 * parcels: shipped once every unit is in one, delivered once every parcel is. A failed attempt
 * lets the shopper choose a new day; an approved return is picked up from the shopper the same way.
 */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

const SAY = {
  notShippable: msg("shipping.notShippable"),
  nothingLeft: msg("shipping.nothingLeft"),
  tooMany: msg("shipping.tooMany"),
  unknownLine: msg("shipping.unknownLine"),
  noCarrier: msg("shipping.noCarrier"),
  carrierRefused: msg("shipping.carrierRefused"),
  carrierDown: msg("shipping.carrierDown"),
  notCancellable: msg("shipping.notCancellable"),
  changed: msg("shipping.changed"),
  notFound: msg("shipping.notFound"),
  noAttempt: msg("shipping.noAttempt"),
  badDay: msg("shipping.badDay"),
};

/** A product without a recorded weight counts as half a kilo: carriers bill by weight, and a guess too light is refused at the depot. */
export const UNKNOWN_UNIT_GRAMS = 500;

interface LineRow {
  id: number;
  variant_id: number;
  sku: string | null;
  name_en: string;
  name_ar: string;
  quantity: number;
  claimed_quantity: number;
  unit_price: number;
  weight_grams: number | null;
  /** Units already in the order's live delivery parcels. */
  shipped: number;
}

async function linesOf(db: D1Database, orderId: number): Promise<LineRow[]> {
  const { results } = await db
    .prepare(
      `SELECT oi.id, oi.variant_id, COALESCE(oi.sku, p.sku) AS sku, oi.name_en, oi.name_ar, oi.quantity, oi.claimed_quantity,
              oi.unit_price, p.weight_grams,
              COALESCE((SELECT SUM(si.quantity) FROM shipment_items si JOIN shipments s ON s.id = si.shipment_id
                        WHERE si.order_item_id = oi.id AND s.kind = 'delivery' AND s.status != 'cancelled'), 0) AS shipped
       FROM order_items oi LEFT JOIN products p ON p.id = oi.product_id WHERE oi.order_id = ? ORDER BY oi.id`,
    )
    .bind(orderId)
    .all<LineRow>();
  return results;
}

/** Units of a line still to ship: bought, less refunded before shipping, less what is in a parcel. */
const leftOf = (l: LineRow) => Math.max(0, l.quantity - l.claimed_quantity - l.shipped);

const unitGrams = (l: Pick<LineRow, "weight_grams">) => l.weight_grams ?? UNKNOWN_UNIT_GRAMS;

/** The shopper's delivery address as a carrier reads it (its national address where given). */
export function consigneeOf(order: OrderRow): CarrierAddress {
  const a = parseAddress(order.address);
  return {
    name: a.name,
    phone: a.phone || order.phone || "",
    email: order.email,
    line1: [a.building, a.street].filter(Boolean).join(" "),
    district: a.district,
    city: a.city,
    postal_code: a.postal_code ?? null,
    short_address: a.short_address ?? null,
    building_number: a.building ?? null,
    additional_number: a.additional_number ?? null,
    country: "SA",
  };
}

export function shipperOf(from: ShipFrom): CarrierAddress {
  return {
    name: from.name,
    phone: from.phone,
    line1: from.line1,
    district: from.district || null,
    city: from.city,
    postal_code: from.postal_code || null,
    short_address: from.short_address || null,
    country: "SA",
  };
}

/** Statuses whose order may have parcels created: paid (or confirmed cash on delivery) and not yet all shipped. */
const SHIPPABLE = ["paid", "processing"] as const;

/**
 * Creates parcels of an order with their carriers. Each parcel is created with the carrier first
 * (its waybill is needed on the label), then recorded in one batch whose `within` checks refuse
 * units already in another parcel; a batch that fails cancels the carrier's parcel again. The cash a
 * COD order owes goes with its first parcel: one courier collects one amount.
 */
export async function createShipments(
  env: Env,
  order: OrderRow,
  plan: ParcelPlan[] | undefined,
  actor: OrderActor,
  lang: Lang,
): Promise<ShipmentRow[]> {
  const db = env.DB;
  if (!(SHIPPABLE as readonly string[]).includes(order.status))
    throw new BackendError(409, say(lang, SAY.notShippable));
  const lines = await linesOf(db, order.id);
  const byVariant = new Map(lines.map((l) => [l.variant_id, l]));
  const parcels = plan ?? [
    { lines: lines.filter((l) => leftOf(l) > 0).map((l) => ({ variant_id: l.variant_id, quantity: leftOf(l) })) },
  ];
  // Check the whole plan before any carrier is asked: units that exist and are still to ship.
  const asked = new Map<number, number>();
  for (const parcel of parcels)
    for (const line of parcel.lines) {
      if (!byVariant.has(line.variant_id))
        throw new BackendError(422, say(lang, SAY.unknownLine), { parcels: [say(lang, SAY.unknownLine)] });
      asked.set(line.variant_id, (asked.get(line.variant_id) ?? 0) + line.quantity);
    }
  for (const [variant, quantity] of asked)
    if (quantity > leftOf(byVariant.get(variant)!))
      throw new BackendError(422, say(lang, SAY.tooMany), { parcels: [say(lang, SAY.tooMany)] });
  const filled = parcels.map((p) => ({ lines: p.lines.filter((l) => l.quantity > 0) })).filter((p) => p.lines.length);
  if (!filled.length) throw new BackendError(409, say(lang, SAY.nothingLeft));

  const settings = await loadSettings(env);
  const consignee = consigneeOf(order);
  const region = regionOfCity(consignee.city);
  const { max } = (await db
    .prepare("SELECT COALESCE(MAX(seq), 0) AS max FROM shipments WHERE order_id = ?")
    .bind(order.id)
    .first<{ max: number }>()) ?? { max: 0 };
  const codPending = cashToCollect(order);
  const codTaken = await db
    .prepare(
      "SELECT 1 FROM shipments WHERE order_id = ? AND kind = 'delivery' AND status != 'cancelled' AND cod_amount > 0",
    )
    .bind(order.id)
    .first();

  const created: ShipmentRow[] = [];
  for (const [i, parcel] of filled.entries()) {
    const seq = max + i + 1;
    const items: CarrierItem[] = parcel.lines.map((l) => {
      const line = byVariant.get(l.variant_id)!;
      return {
        sku: line.sku ?? String(line.variant_id),
        name: line.name_en,
        quantity: l.quantity,
        value: line.unit_price * l.quantity,
      };
    });
    const weight = parcel.lines.reduce((sum, l) => sum + unitGrams(byVariant.get(l.variant_id)!) * l.quantity, 0);
    const cod = i === 0 && !codTaken ? codPending : 0;
    const carrierId = carrierFor(settings.carriers, region, weight);
    const carrier = carrierOf(env, carrierId);
    if (!carrier) throw new BackendError(503, say(lang, SAY.noCarrier, { carrier: CARRIER_NAMES[carrierId][lang] }));
    const reference = `${order.number}-${seq}`;
    const { waybill } = await askCarrier(lang, carrierId, () =>
      carrier.createShipment({
        reference,
        order_number: order.number,
        shipper: shipperOf(settings.carriers.ship_from),
        consignee,
        items,
        weight_grams: weight,
        cod_amount: cod,
        declared_value: items.reduce((s, it) => s + it.value, 0),
        description: items
          .map((it) => `${it.quantity} × ${it.sku}`)
          .join(", ")
          .slice(0, 200),
      }),
    );
    const shipment = `(SELECT id FROM shipments WHERE order_id = ?1 AND seq = ?2)`;
    const statements = [
      db
        .prepare(
          `INSERT INTO shipments (order_id, kind, seq, carrier, waybill, weight_grams, cod_amount, staff_user_id)
           VALUES (?, 'delivery', ?, ?, ?, ?, ?, ?)`,
        )
        .bind(order.id, seq, carrierId, waybill, weight, cod, actor.kind === "staff" ? actor.staff.user_id : null),
      ...parcel.lines.map((l) => {
        const line = byVariant.get(l.variant_id)!;
        return db
          .prepare(
            `INSERT INTO shipment_items (shipment_id, order_item_id, quantity, within)
             SELECT ${shipment}, oi.id, ?3,
               CASE WHEN oi.quantity - oi.claimed_quantity - COALESCE((SELECT SUM(si.quantity) FROM shipment_items si
                 JOIN shipments s ON s.id = si.shipment_id WHERE si.order_item_id = oi.id AND s.kind = 'delivery'
                 AND s.status != 'cancelled'), 0) >= ?3 THEN 1 ELSE 0 END
             FROM order_items oi WHERE oi.id = ?4`,
          )
          .bind(order.id, seq, l.quantity, line.id);
      }),
      orderEventStatement(
        db,
        { id: order.id },
        "shipment_created",
        {
          seq,
          carrier: carrierId,
          waybill,
          items: parcel.lines.reduce((s, l) => s + l.quantity, 0),
          ...(cod ? { cash_to_collect: cod } : {}),
        },
        actor,
      ),
      // A paid order with a parcel made is being prepared.
      db
        .prepare(`UPDATE orders SET status = 'processing', updated_at = ${NOW} WHERE id = ? AND status = 'paid'`)
        .bind(order.id),
      orderEventStatement(db, { id: order.id }, "processing", null, actor, "changed"),
      // The order is shipped once nothing is left to put in a parcel.
      db
        .prepare(
          `UPDATE orders SET status = 'shipped', carrier = ?, tracking_number = ?, shipped_at = ${NOW}, updated_at = ${NOW}
           WHERE id = ? AND status IN ('paid', 'processing') AND NOT EXISTS (
             SELECT 1 FROM order_items oi WHERE oi.order_id = orders.id AND oi.quantity - oi.claimed_quantity >
               COALESCE((SELECT SUM(si.quantity) FROM shipment_items si JOIN shipments s ON s.id = si.shipment_id
                         WHERE si.order_item_id = oi.id AND s.kind = 'delivery' AND s.status != 'cancelled'), 0))`,
        )
        .bind(CARRIER_NAMES[carrierId].en, waybill, order.id),
      orderEventStatement(
        db,
        { id: order.id },
        "shipped",
        { carrier: CARRIER_NAMES[carrierId].en, tracking_number: waybill },
        actor,
        "changed",
      ),
      ...notifyStatements(db, order, "shipped"),
      ...(actor.kind === "staff"
        ? [
            auditStatement(db, actor.staff, "order.shipment_create", "order", order.number, null, {
              seq,
              carrier: carrierId,
              waybill,
            }),
          ]
        : []),
    ];
    try {
      await db.batch(statements);
    } catch (err) {
      // Another parcel took these units first (or the order moved): the carrier's parcel goes too.
      await carrier.cancelShipment(waybill).catch(() => {});
      if (created.length) break;
      if (
        /CHECK constraint failed|UNIQUE constraint failed/i.test(
          String(err instanceof Error ? `${err.message} ${String(err.cause ?? "")}` : err),
        )
      )
        throw new BackendError(409, say(lang, SAY.changed));
      throw err;
    }
    const row = await db
      .prepare("SELECT * FROM shipments WHERE order_id = ? AND seq = ?")
      .bind(order.id, seq)
      .first<ShipmentRow>();
    if (row) created.push(row);
  }
  await flushNotifications(env, order.id);
  return created;
}

/** Calls a carrier: its refusal is the staff member's 422 in their words, its silence a 502. */
async function askCarrier<T>(lang: Lang, carrierId: CarrierId, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const carrier = CARRIER_NAMES[carrierId][lang];
    if (err instanceof CarrierRefused)
      throw new BackendError(422, say(lang, SAY.carrierRefused, { carrier, reason: err.message }));
    console.error(
      JSON.stringify({ level: "error", event: "carrier.unavailable", carrier: carrierId, error: String(err) }),
    );
    throw new BackendError(502, say(lang, SAY.carrierDown, { carrier }));
  }
}

/** One parcel of everything not yet shipped, for each order; an order that cannot ship says why and the others go on. */
export async function shipOrders(
  env: Env,
  numbers: string[],
  actor: OrderActor,
  lang: Lang,
  find: (number: string) => Promise<OrderRow | null>,
): Promise<BulkShipResult[]> {
  const results: BulkShipResult[] = [];
  for (const number of [...new Set(numbers.map((n) => n.toUpperCase()))]) {
    const order = await find(number);
    if (!order) {
      results.push({ number, waybills: [], error: say(lang, SAY.notFound) });
      continue;
    }
    try {
      const made = await createShipments(env, order, undefined, actor, lang);
      results.push({ number: order.number, waybills: made.map((s) => s.waybill), error: null });
    } catch (err) {
      if (!(err instanceof BackendError)) throw err;
      results.push({ number: order.number, waybills: [], error: err.message });
    }
  }
  return results;
}

/**
 * Cancels a parcel the carrier has not picked up: the carrier first, then the record, and the
 * order goes back to processing when it had been shipped (its units are to ship again).
 */
export async function cancelShipment(
  env: Env,
  order: OrderRow,
  id: number,
  actor: OrderActor,
  lang: Lang,
): Promise<void> {
  const db = env.DB;
  const shipment = await db
    .prepare("SELECT * FROM shipments WHERE id = ? AND order_id = ?")
    .bind(id, order.id)
    .first<ShipmentRow>();
  if (!shipment) throw new BackendError(404, say(lang, SAY.notFound));
  if (shipment.status !== "created") throw new BackendError(409, say(lang, SAY.notCancellable));
  const carrier = carrierOf(env, shipment.carrier);
  if (carrier) await askCarrier(lang, shipment.carrier, () => carrier.cancelShipment(shipment.waybill));
  const results = await db.batch([
    db
      .prepare(
        `UPDATE shipments SET status = 'cancelled', cancelled_at = ${NOW}, updated_at = ${NOW} WHERE id = ? AND status = 'created'`,
      )
      .bind(id),
    orderEventStatement(
      db,
      { id: order.id },
      "shipment_cancelled",
      { seq: shipment.seq, waybill: shipment.waybill },
      actor,
      "changed",
    ),
    db
      .prepare(
        `UPDATE orders SET status = 'processing', shipped_at = NULL, carrier = NULL, tracking_number = NULL, updated_at = ${NOW}
         WHERE id = ? AND status = 'shipped' AND ?2 = 'delivery'`,
      )
      .bind(order.id, shipment.kind),
    ...(actor.kind === "staff"
      ? [
          auditStatement(
            db,
            actor.staff,
            "order.shipment_cancel",
            "order",
            order.number,
            { waybill: shipment.waybill, status: "created" },
            { waybill: shipment.waybill, status: "cancelled" },
          ),
        ]
      : []),
  ]);
  if (!results[0].meta.changes) throw new BackendError(409, say(lang, SAY.changed));
}

/** How far along a status is: an event never moves a parcel back (a late webhook after a poll). */
const RANK: Record<ShipmentStatus, number> = {
  created: 0,
  picked_up: 1,
  in_transit: 2,
  out_for_delivery: 3,
  delivery_attempted: 3,
  delivered: 5,
  returned_to_sender: 5,
  cancelled: 6,
};

/**
 * Applies what a carrier reported: each event is recorded once (its key is the carrier's code and
 * moment), moves its parcel forward, lands on the order's timeline, and owes the shopper the
 * messages that matter (out for delivery, a failed attempt). A delivered parcel delivers its order
 * when it was the last; a return parcel delivered to the shop marks its return received.
 * Returns the number of new events.
 */
export async function applyCarrierEvents(env: Env, carrierId: string, events: CarrierEvent[]): Promise<number> {
  const db = env.DB;
  let applied = 0;
  const touched = new Set<number>();
  const sorted = [...events].sort((a, b) => a.at.localeCompare(b.at));
  for (const event of sorted) {
    const shipment = await db
      .prepare("SELECT * FROM shipments WHERE carrier = ? AND waybill = ?")
      .bind(carrierId, event.waybill)
      .first<ShipmentRow>();
    if (!shipment || shipment.status === "cancelled") continue;
    const inserted = await db
      .prepare(
        `INSERT OR IGNORE INTO shipment_events (shipment_id, status, code, description, location, happened_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .bind(shipment.id, event.status, event.code, event.description, event.location, event.at)
      .run();
    if (!inserted.meta.changes) continue;
    applied++;
    touched.add(shipment.order_id);
    const forward =
      RANK[event.status] > RANK[shipment.status] ||
      // After a failed attempt the courier goes out again.
      (event.status === "out_for_delivery" && shipment.status === "delivery_attempted") ||
      (event.status === "delivery_attempted" && shipment.status === "out_for_delivery");
    const detail = {
      seq: shipment.seq,
      waybill: shipment.waybill,
      carrier: carrierId,
      status: event.status,
      location: event.location,
    };
    const attempt = shipment.attempts + (event.status === "delivery_attempted" ? 1 : 0);
    const statements: D1PreparedStatement[] = [
      orderEventStatement(db, { id: shipment.order_id }, `shipment_${event.status}`, detail, "carrier"),
    ];
    if (forward) {
      statements.push(
        db
          .prepare(
            `UPDATE shipments SET status = ?, attempts = ?, updated_at = ${NOW},
               picked_up_at = CASE WHEN picked_up_at IS NULL AND ? IN ('picked_up', 'in_transit', 'out_for_delivery', 'delivery_attempted', 'delivered') THEN ? ELSE picked_up_at END,
               delivered_at = CASE WHEN ? = 'delivered' THEN ? ELSE delivered_at END,
               next_attempt_on = CASE WHEN ? = 'delivery_attempted' THEN NULL ELSE next_attempt_on END
             WHERE id = ?`,
          )
          .bind(event.status, attempt, event.status, event.at, event.status, event.at, event.status, shipment.id),
      );
      if (shipment.kind === "delivery" && event.status === "out_for_delivery")
        statements.push(
          ...notifyStatements(db, { id: shipment.order_id }, "out_for_delivery", {
            ref: `${shipment.waybill}:${attempt}`,
            detail,
          }),
        );
      if (shipment.kind === "delivery" && event.status === "delivery_attempted")
        statements.push(
          ...notifyStatements(db, { id: shipment.order_id }, "delivery_attempted", {
            ref: `${shipment.waybill}:${attempt}`,
            detail,
          }),
        );
    }
    await db.batch(statements);
    if (forward && event.status === "delivered") await afterDelivered(env, shipment);
  }
  for (const orderId of touched) await flushNotifications(env, orderId);
  return applied;
}

/** A parcel arrived: the order is delivered when every parcel is and nothing is left to ship; a return reaches the shop. */
async function afterDelivered(env: Env, shipment: ShipmentRow): Promise<void> {
  const db = env.DB;
  const order = await db.prepare("SELECT * FROM orders WHERE id = ?").bind(shipment.order_id).first<OrderRow>();
  if (!order) return;
  if (shipment.kind === "return") {
    if (shipment.return_id) await receiveReturnedParcel(env, order, shipment.return_id);
    return;
  }
  if (order.status !== "shipped") return;
  const open = await db
    .prepare(
      "SELECT 1 FROM shipments WHERE order_id = ? AND kind = 'delivery' AND status NOT IN ('delivered', 'cancelled', 'returned_to_sender')",
    )
    .bind(order.id)
    .first();
  if (open) return;
  await deliverOrder(env, order, { kind: "system" }, "en").catch((err) => {
    // Moved meanwhile (staff marked it delivered): nothing more to do.
    if (!(err instanceof BackendError)) throw err;
  });
}

/** The return parcel reached the shop: the return is received as if staff had scanned it in. */
async function receiveReturnedParcel(env: Env, order: OrderRow, returnId: string): Promise<void> {
  await receiveReturn(env, order, returnId, { kind: "system" }, "en").catch((err) => {
    if (!(err instanceof BackendError)) throw err;
  });
}

/**
 * After a failed attempt the shopper picks the day they are home; the parcel's next attempt is
 * set, staff and the courier see it on the order and the manifest, and the timeline says so.
 */
export async function rescheduleDelivery(
  env: Env,
  order: OrderRow,
  seq: number,
  day: string,
  lang: Lang,
): Promise<void> {
  const db = env.DB;
  const shipment = await db
    .prepare("SELECT * FROM shipments WHERE order_id = ? AND seq = ? AND kind = 'delivery'")
    .bind(order.id, seq)
    .first<ShipmentRow>();
  if (!shipment) throw new BackendError(404, say(lang, SAY.notFound));
  if (shipment.status !== "delivery_attempted") throw new BackendError(409, say(lang, SAY.noAttempt));
  if (!(await attemptDaysNow(db)).includes(day))
    throw new BackendError(422, say(lang, SAY.badDay), { day: [say(lang, SAY.badDay)] });
  const results = await db.batch([
    db
      .prepare(
        `UPDATE shipments SET next_attempt_on = ?, updated_at = ${NOW} WHERE id = ? AND status = 'delivery_attempted'`,
      )
      .bind(day, shipment.id),
    orderEventStatement(
      db,
      { id: order.id },
      "shipment_rescheduled",
      { seq, waybill: shipment.waybill, day },
      "shopper",
      "changed",
    ),
  ]);
  if (!results[0].meta.changes) throw new BackendError(409, say(lang, SAY.changed));
}

/**
 * An approved return is collected from the shopper: a pickup is booked with the carrier the
 * delivery address calls for, and followed like any parcel until it reaches the shop. Never
 * throws: a carrier that refuses leaves the return approved, and staff book it again or let the
 * shopper send it (the timeline says why).
 */
export async function bookReturnPickup(env: Env, order: OrderRow, returnId: string): Promise<ShipmentRow | null> {
  const db = env.DB;
  const settings = await loadSettings(env);
  const { results: lines } = await db
    .prepare(
      `SELECT ri.quantity, oi.name_en, COALESCE(oi.sku, p.sku) AS sku, oi.unit_price, p.weight_grams
       FROM return_items ri JOIN order_items oi ON oi.id = ri.order_item_id LEFT JOIN products p ON p.id = oi.product_id
       WHERE ri.return_id = ?`,
    )
    .bind(returnId)
    .all<{ quantity: number; name_en: string; sku: string | null; unit_price: number; weight_grams: number | null }>();
  if (!lines.length) return null;
  const weight = lines.reduce((s, l) => s + unitGrams(l) * l.quantity, 0);
  const pickup = consigneeOf(order);
  const carrierId = carrierFor(settings.carriers, regionOfCity(pickup.city), weight);
  const carrier = carrierOf(env, carrierId);
  const { max } = (await db
    .prepare("SELECT COALESCE(MAX(seq), 0) AS max FROM shipments WHERE order_id = ?")
    .bind(order.id)
    .first<{ max: number }>()) ?? {
    max: 0,
  };
  const seq = max + 1;
  try {
    if (!carrier) throw new CarrierRefused(`${carrierId} is not configured`);
    const booked = await carrier.bookPickup({
      reference: `${order.number}-${seq}`,
      order_number: order.number,
      pickup,
      deliver_to: shipperOf(settings.carriers.ship_from),
      items: lines.map((l) => ({
        sku: l.sku ?? "",
        name: l.name_en,
        quantity: l.quantity,
        value: l.unit_price * l.quantity,
      })),
      weight_grams: weight,
      ready_on: attemptDays(new Date(), 1, settings.delivery.holidays)[0],
    });
    await db.batch([
      db
        .prepare(
          `INSERT INTO shipments (order_id, kind, return_id, seq, carrier, waybill, pickup_reference, weight_grams)
           VALUES (?, 'return', ?, ?, ?, ?, ?, ?)`,
        )
        .bind(order.id, returnId, seq, carrierId, booked.waybill, booked.pickup_reference, weight),
      orderEventStatement(
        db,
        { id: order.id },
        "return_pickup_booked",
        { return_id: returnId, seq, carrier: carrierId, waybill: booked.waybill },
        "system",
      ),
    ]);
    return db
      .prepare("SELECT * FROM shipments WHERE order_id = ? AND seq = ?")
      .bind(order.id, seq)
      .first<ShipmentRow>();
  } catch (err) {
    await db.batch([
      orderEventStatement(
        db,
        { id: order.id },
        "return_pickup_failed",
        {
          return_id: returnId,
          carrier: carrierId,
          reason: String(err instanceof Error ? err.message : err).slice(0, 200),
        },
        "system",
      ),
    ]);
    return null;
  }
}

/** How often the cron asks a carrier about the same parcel. */
const POLL_EVERY_MINUTES = 30;

/**
 * The cron's round of the carriers that are asked rather than telling: the open parcels not
 * asked about for half an hour, oldest first, a batch at a time, and the cash they report paid over.
 */
export async function pollCarriers(env: Env, limit = 50): Promise<{ events: number; remittances: number }> {
  const db = env.DB;
  const { results } = await db
    .prepare(
      `SELECT carrier, waybill FROM shipments
       WHERE status NOT IN ('delivered', 'returned_to_sender', 'cancelled')
         AND (polled_at IS NULL OR polled_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?))
       ORDER BY COALESCE(polled_at, created_at) LIMIT ?`,
    )
    .bind(`-${POLL_EVERY_MINUTES} minutes`, limit)
    .all<{ carrier: CarrierId; waybill: string }>();
  const byCarrier = new Map<CarrierId, string[]>();
  for (const r of results) byCarrier.set(r.carrier, [...(byCarrier.get(r.carrier) ?? []), r.waybill]);
  let events = 0;
  let remitted = 0;
  for (const [id, waybills] of byCarrier) {
    const carrier = carrierOf(env, id);
    if (!carrier) continue;
    try {
      events += await applyCarrierEvents(env, id, await carrier.track(waybills));
      const marks = waybills.map(() => "?").join(",");
      await db
        .prepare(`UPDATE shipments SET polled_at = ${NOW} WHERE carrier = ? AND waybill IN (${marks})`)
        .bind(id, ...waybills)
        .run();
    } catch (err) {
      console.warn(JSON.stringify({ level: "warn", event: "carrier.poll_failed", carrier: id, error: String(err) }));
    }
  }
  // Carriers that say it in their webhook (the courier) answer nothing here.
  for (const id of CARRIER_IDS) {
    const carrier = carrierOf(env, id);
    if (!carrier) continue;
    const since = await db
      .prepare("SELECT MAX(remitted_at) AS at FROM cod_remittances WHERE carrier = ?")
      .bind(id)
      .first<string>("at");
    try {
      remitted += await recordRemittances(db, id, await carrier.remittances(since ?? "1970-01-01T00:00:00.000Z"));
    } catch (err) {
      console.warn(
        JSON.stringify({ level: "warn", event: "carrier.remittances_failed", carrier: id, error: String(err) }),
      );
    }
  }
  return { events, remittances: remitted };
}

/** Records the cash a carrier reports paid over, each line once, matched to its parcel. */
export async function recordRemittances(
  db: D1Database,
  carrierId: string,
  lines: CarrierRemittance[],
): Promise<number> {
  if (!lines.length) return 0;
  const results = await db.batch(
    lines.map((r) =>
      db
        .prepare(
          `INSERT OR IGNORE INTO cod_remittances (carrier, waybill, reference, amount, remitted_at, shipment_id)
           VALUES (?1, ?2, ?3, ?4, ?5, (SELECT id FROM shipments WHERE carrier = ?1 AND waybill = ?2))`,
        )
        .bind(carrierId, r.waybill, r.reference, r.amount, r.at),
    ),
  );
  return results.reduce((n, r) => n + (r.meta.changes ?? 0), 0);
}
