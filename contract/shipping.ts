/**
 * Shipping with carriers: the carriers the shop can create parcels with, where a parcel is in
 * their hands, the parcels as the shopper's order page and the console read them, and the inputs
 * staff and shoppers send. Imported by the storefront, the console and the backend alike.
 */
import * as v from "valibot";
import type { InputMessages } from "./inputs";
import type { Locale } from "./locale";
import type { RegionId } from "./regions";

/**
 * The carriers the backend has adapters for: `courier`, a local courier whose app reports each
 * step to the shop's signed webhook (and whose waybills the shop numbers itself), and Aramex,
 * created and followed through its API.
 */
export const CARRIER_IDS = ["courier", "aramex"] as const;
export type CarrierId = (typeof CARRIER_IDS)[number];

export const CARRIER_NAMES: Record<CarrierId, Record<Locale, string>> = {
  courier: { en: "Local courier", ar: "المندوب المحلي" },
  aramex: { en: "Aramex", ar: "أرامكس" },
};

/** Where a parcel is in the carrier's hands. Its order follows: all parcels delivered, the order is. */
export const SHIPMENT_STATUSES = [
  "created",
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "delivery_attempted",
  "delivered",
  "returned_to_sender",
  "cancelled",
] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

/** Statuses after which nothing more happens to a parcel. */
export const SHIPMENT_FINAL: readonly ShipmentStatus[] = ["delivered", "returned_to_sender", "cancelled"];

/**
 * Which carrier takes a parcel: the first rule whose regions hold the delivery city's region (no
 * regions: anywhere) and whose weight band holds the parcel; else the default.
 */
export interface CarrierRule {
  carrier: CarrierId;
  regions: RegionId[];
  /** Grams, inclusive; null: any weight. */
  max_weight_grams: number | null;
}

/** Where the carriers collect parcels and bring returns: the shop's warehouse. */
export interface ShipFrom {
  name: string;
  phone: string;
  line1: string;
  district: string;
  city: string;
  postal_code: string;
  /** The national address's short code ("RRRD2929"), printed on labels. */
  short_address: string;
}

export interface CarriersSettings {
  default: CarrierId;
  rules: CarrierRule[];
  label_size: "a6" | "4x6";
  ship_from: ShipFrom;
}

export const CARRIER_RULES_MAX = 20;
export const LABEL_SIZES = ["a6", "4x6"] as const;

/** The carrier a parcel of this weight to this region goes with. */
export function carrierFor(settings: CarriersSettings, region: RegionId | null, weightGrams: number): CarrierId {
  const rule = settings.rules.find(
    (r) =>
      (r.regions.length === 0 || (region !== null && r.regions.includes(region))) &&
      (r.max_weight_grams === null || weightGrams <= r.max_weight_grams),
  );
  return rule?.carrier ?? settings.default;
}

/** One step of a parcel as the shopper and staff read it. */
export interface ShipmentStep {
  status: ShipmentStatus;
  /** The carrier's words and code (staff see both; the shopper reads the status in their language). */
  description: string;
  code: string;
  location: string | null;
  at: string;
}

/** A parcel on the shopper's order page. */
export interface OrderShipment {
  /** The order's parcel number: "Parcel 1 of 2". */
  seq: number;
  kind: "delivery" | "return";
  carrier: CarrierId;
  waybill: string;
  status: ShipmentStatus;
  /** The carrier's tracking page, when it has one. */
  tracking_url: string | null;
  steps: ShipmentStep[];
  /** Units of the order's lines in it, by variant. */
  items: { variant_id: number; name: string; quantity: number }[];
  /** After a failed attempt: the day the shopper asked for, YYYY-MM-DD. */
  next_attempt_on: string | null;
  /** The days the shopper may pick for a new attempt (only after a failed one), YYYY-MM-DD. */
  attempt_days: string[];
}

/** A parcel in the console: the shopper's view, with what only staff need. */
export interface ConsoleShipment extends OrderShipment {
  id: number;
  weight_grams: number;
  cod_amount: number;
  /** COD cash the carrier reported paid over for it. */
  remitted: number;
  created_at: string;
  cancellable: boolean;
}

export const PARCELS_MAX = 10;

/** Units of the order's lines (by variant) to put in one parcel. */
export interface ParcelPlan {
  lines: { variant_id: number; quantity: number }[];
}
export const BULK_SHIP_MAX = 50;

/**
 * POST /admin/orders/{number}/shipments: the parcels to create now, each with units of the
 * order's lines (by variant). Left out: one parcel of everything not yet shipped.
 */
export function createShipmentsInput(m: InputMessages) {
  const line = v.object({
    variant_id: v.pipe(
      v.number(m.invalid("parcels")),
      v.integer(m.invalid("parcels")),
      v.minValue(1, m.invalid("parcels")),
    ),
    quantity: v.pipe(
      v.number(m.invalid("parcels")),
      v.integer(m.invalid("parcels")),
      v.minValue(0, m.invalid("parcels")),
    ),
  });
  return v.object({
    parcels: v.optional(
      v.pipe(
        v.array(
          v.object({ lines: v.pipe(v.array(line), v.maxLength(200, m.invalid("parcels"))) }),
          m.invalid("parcels"),
        ),
        v.minLength(1, m.invalid("parcels")),
        v.maxLength(PARCELS_MAX, m.invalid("parcels")),
        // A parcel with no unit in it is a mistake, not an empty box to send.
        v.check((ps) => ps.every((p) => p.lines.some((l) => l.quantity > 0)), m.invalid("parcels")),
      ),
    ),
  });
}

/** POST /admin/shipments {orders}: one parcel each of everything not yet shipped. */
export function bulkShipInput(m: InputMessages) {
  return v.object({
    orders: v.pipe(
      v.array(
        v.pipe(v.string(m.invalid("orders")), v.regex(/^SQ-[A-Z0-9]{8}$/i, m.invalid("orders"))),
        m.invalid("orders"),
      ),
      v.minLength(1, m.required("orders")),
      v.maxLength(BULK_SHIP_MAX, m.invalid("orders")),
    ),
  });
}

/** What a bulk creation did for each order: its parcels' waybills, or why not. */
export interface BulkShipResult {
  number: string;
  waybills: string[];
  error: string | null;
}

/** A day as YYYY-MM-DD that exists in the calendar. */
export const isCalendarDay = (s: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/** POST …/shipments/{seq}/reschedule {day}: the day the shopper will be home, one of the offered days. */
export function rescheduleInput(m: InputMessages) {
  return v.object({
    day: v.pipe(
      v.optional(v.string(m.required("day")), ""),
      v.trim(),
      v.nonEmpty(m.required("day")),
      v.check(isCalendarDay, m.invalid("day")),
    ),
  });
}

/** A COD parcel whose cash the carriers' reports do not match. */
export interface RemittanceDifference {
  carrier: CarrierId | string;
  waybill: string;
  order_number: string | null;
  /** Halalas the courier should have collected (0: no parcel of ours). */
  expected: number;
  /** Halalas the carrier reported paid over. */
  remitted: number;
  /** missing: delivered, nothing reported; short / over: the amounts differ; unknown: no COD parcel of ours. */
  kind: "missing" | "short" | "over" | "unknown";
  delivered_at: string | null;
}

/** GET /admin/shipments/remittances: the reconciliation of delivered COD parcels with what carriers reported. */
export interface RemittanceReport {
  differences: RemittanceDifference[];
  /** Delivered COD parcels whose cash matched. */
  matched: number;
  expected_total: number;
  remitted_total: number;
}
