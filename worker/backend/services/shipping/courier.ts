import * as v from "valibot";
import { SHIPMENT_STATUSES } from "../../../../contract/shipping";
import { hmacHex, verifyHmac } from "../payments/providers/hmac";
import type { Carrier, CarrierEvent, CarrierRemittance } from "./carrier";

/**
 * The local courier: a Saudi shop's own drivers or a city courier without an API of its own. The
 * shop numbers its waybills (`SQC` and ten digits, unique by construction), and the courier's app
 * reports each step to the shop's webhook, signed with the secret both hold:
 *
 *   POST /backend/shipping/webhooks/courier
 *   Courier-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
 *   { "id": "<delivery id, unique>", "events": [CarrierEvent...], "remittances": [CarrierRemittance...] }
 *
 * A request older than five minutes, signed with anything else, or whose delivery id was already
 * taken is refused (services/shipping/webhooks.ts). The same format is what the development
 * stand-in of the courier's app sends (routes/dev.ts), so tests run this verification.
 */

export const COURIER_SIGNATURE_HEADER = "courier-signature";
/** How old a signed request may be: long enough for a slow network, short enough that a captured one soon dies. */
export const COURIER_TOLERANCE_SECONDS = 300;

/** The courier's waybill: the shop's own, so it never collides with another carrier's. */
function courierWaybill(): string {
  const digits = crypto.getRandomValues(new Uint32Array(2));
  return `SQC${String(digits[0] % 100_000).padStart(5, "0")}${String(digits[1] % 100_000).padStart(5, "0")}`;
}

export function courierCarrier(): Carrier {
  return {
    id: "courier",
    async createShipment() {
      return { waybill: courierWaybill() };
    },
    // The courier learns of a cancelled parcel from the shop's manifest; nothing to call.
    async cancelShipment() {},
    // Pushed, never polled.
    async track() {
      return [];
    },
    async bookPickup() {
      return { waybill: courierWaybill(), pickup_reference: null };
    },
    async remittances() {
      return [];
    },
  };
}

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max));
const moment = v.pipe(v.string(), v.isoTimestamp());

/** The body the courier's app sends. */
export const courierWebhookBody = v.object({
  id: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(100)),
  events: v.optional(
    v.pipe(
      v.array(
        v.object({
          waybill: v.pipe(text(40), v.nonEmpty()),
          status: v.picklist(SHIPMENT_STATUSES),
          code: v.optional(text(40), ""),
          description: v.optional(text(300), ""),
          location: v.optional(v.nullable(text(120)), null),
          at: moment,
        }),
      ),
      v.maxLength(500),
    ),
    [],
  ),
  remittances: v.optional(
    v.pipe(
      v.array(
        v.object({
          waybill: v.pipe(text(40), v.nonEmpty()),
          amount: v.pipe(v.number(), v.integer(), v.minValue(0)),
          reference: v.pipe(text(80), v.nonEmpty()),
          at: moment,
        }),
      ),
      v.maxLength(500),
    ),
    [],
  ),
});
export type CourierWebhook = v.InferOutput<typeof courierWebhookBody>;

/** The header value a request with this body is signed with at `now` (the courier's app, and the stand-in). */
export async function signCourierWebhook(secret: string, body: string, now = Date.now()): Promise<string> {
  const t = Math.floor(now / 1000);
  return `t=${t},v1=${await hmacHex(secret, `${t}.${body}`)}`;
}

export type CourierVerdict =
  | { ok: true; body: CourierWebhook; events: CarrierEvent[]; remittances: CarrierRemittance[] }
  | { ok: false; reason: "signature" | "stale" | "body" };

/** Checks a delivery's signature and age, then its body. Constant-time on the signature. */
export async function verifyCourierWebhook(
  secret: string,
  raw: string,
  header: string | null,
  now = Date.now(),
): Promise<CourierVerdict> {
  const parts = Object.fromEntries(
    (header ?? "").split(",").map((p) => {
      const i = p.indexOf("=");
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const t = Number(parts.t);
  if (!/^\d{1,12}$/.test(parts.t ?? "") || !(await verifyHmac(secret, `${t}.${raw}`, parts.v1)))
    return { ok: false, reason: "signature" };
  if (Math.abs(now / 1000 - t) > COURIER_TOLERANCE_SECONDS) return { ok: false, reason: "stale" };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: "body" };
  }
  const parsed = v.safeParse(courierWebhookBody, json);
  if (!parsed.success) return { ok: false, reason: "body" };
  const body = parsed.output;
  return {
    ok: true,
    body,
    events: body.events.map((e) => ({ ...e, code: e.code || e.status, location: e.location ?? null })),
    remittances: body.remittances,
  };
}
