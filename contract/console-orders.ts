/**
 * Orders in the operator console: the list and its filters, an order with its payments,
 * refunds and timeline, the transitions staff may run, and their inputs. Imported by the console's
 * order pages and by the backend's /admin/orders routes.
 */
import * as v from "valibot";
import type { InputMessages } from "./inputs";
import {
  ORDER_STATUSES,
  type OrderAddress,
  type OrderItem,
  type OrderStatus,
  type PaymentStatus,
  type Totals,
} from "./orders";
import type { OrderDocuments } from "./invoices";
import type { ConsoleShipment } from "./shipping";

/** What staff can do next with an order; the detail answer lists only the allowed ones. */
export const ORDER_ACTIONS = ["process", "ship", "deliver", "cancel", "refund"] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/** The statuses the list filters by: every answered state (`refunded` is derived: a non-cancelled order refunded in full). */
export const CONSOLE_ORDER_STATUSES = ORDER_STATUSES;

export const CONSOLE_PAYMENT_STATUSES = [
  "unpaid",
  "pending",
  "paid",
  "failed",
  "partially_refunded",
  "refunded",
] as const satisfies readonly PaymentStatus[];

/** `email` sorts only for roles that see contact data; support's list falls back to `created_at`. */
export const ORDER_SORTS = ["created_at", "number", "total", "status", "email"] as const;

/** One row of GET /admin/orders. */
export interface ConsoleOrderRow {
  number: string;
  created_at: string;
  /** The delivery name. */
  customer: string;
  /** Masked for support. */
  email: string;
  phone: string | null;
  total: number;
  refunded: number;
  currency: string;
  status: OrderStatus;
  payment_status: PaymentStatus;
  payment_method: string;
}

export interface ConsolePayment {
  id: string;
  provider: string;
  /** Stored state; `refunded` / `partially_refunded` once refunds succeeded against a paid payment. */
  status: "initiated" | "challenge" | "paid" | "failed" | "partially_refunded" | "refunded";
  amount: number;
  refunded: number;
  currency: string;
  provider_ref: string | null;
  message: string | null;
  created_at: string;
}

export interface ConsoleRefund {
  id: string;
  payment_id: string;
  amount: number;
  /** What staff typed, if anything. */
  reason: string | null;
  /** The return this refund was made for (the console names it in the reader's language). */
  return_id: string | null;
  status: "pending" | "succeeded" | "failed";
  message: string | null;
  staff_email: string | null;
  created_at: string;
}

/** A cash-on-delivery refund owed (or paid) by bank transfer to the shopper's IBAN. */
export interface ConsoleBankTransfer {
  id: string;
  amount: number;
  /** Masked (SA••••1234) for staff who do not see contact data. */
  iban: string;
  holder: string;
  status: "due" | "sent";
  /** The bank's reference, recorded when staff mark it sent. */
  reference: string | null;
  sent_at: string | null;
  created_at: string;
}

export const TRANSFER_REFERENCE_MAX = 60;

/** POST /admin/orders/{number}/transfers/{id}/sent: the bank's reference of the transfer. */
export function transferSentInput(m: InputMessages) {
  return v.object({
    reference: v.pipe(
      v.optional(v.string(m.required("reference")), ""),
      v.trim(),
      v.nonEmpty(m.required("reference")),
      v.maxLength(TRANSFER_REFERENCE_MAX, m.maxLength("reference", TRANSFER_REFERENCE_MAX)),
    ),
  });
}

/** One step of an order's timeline (order_events). */
export interface OrderEvent {
  id: number;
  /** placed, paid, payment_failed, stock_released, expired, processing, shipped, delivered, cancelled, refund_requested, refunded, refund_failed */
  type: string;
  detail: Record<string, unknown> | null;
  /** A staff email, `shopper` or `system`. */
  actor: string;
  created_at: string;
}

/** One message the order owed its shopper, as the queue left it. */
export interface ConsoleOrderMessage {
  id: number;
  /** placed, paid, shipped, delivered, cancelled, refunded, return_received */
  kind: string;
  channel: "email" | "sms";
  /**
   * How a phone message went: `whatsapp` for a shopper who chose it, `sms` once it fell back from
   * WhatsApp, null for a plain SMS and every email.
   */
  via: "sms" | "whatsapp" | null;
  /** WhatsApp's last word on it: accepted, sent, delivered, read or failed; null otherwise. */
  provider_status: "accepted" | "sent" | "delivered" | "read" | "failed" | null;
  /** queued → sending → sent; dead once the queue and the cron gave up (a manager may send it again). */
  status: "queued" | "sending" | "sent" | "dead";
  attempts: number;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/**
 * A gateway's "paid" that came after the shop had closed the payment (the order cancelled or its
 * hold run out): money taken for an order the shop will not fill, owed back to the shopper.
 */
export interface LatePayment {
  payment_id: string;
  provider: string;
  amount: number;
  currency: string;
  provider_ref: string | null;
  /** owed: still to refund (the console offers it); pending: a refund under way; refunded. */
  refund_status: "owed" | "pending" | "refunded";
  refund_ref: string | null;
  /** The gateway's reason when it refused the last refund. */
  refund_message: string | null;
  refunded_at: string | null;
  received_at: string;
}

/** A late payment still owed back, on the dashboard. */
export interface DashboardLatePayment {
  number: string;
  payment_id: string;
  amount: number;
  currency: string;
  refund_status: "owed" | "pending";
  received_at: string;
}

/** GET /admin/orders/{number}. */
export interface ConsoleOrder extends Totals {
  number: string;
  status: OrderStatus;
  payment_status: PaymentStatus;
  created_at: string;
  paid_at: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
  cancelled_at: string | null;
  carrier: string | null;
  tracking_number: string | null;
  refunded: number;
  /** What may still be refunded: paid total minus succeeded and pending refunds. */
  refundable: number;
  /** Masked for support (as are the phone numbers and the address's street and building). */
  email: string;
  phone: string | null;
  /** Whether contact data is shown masked to this caller. */
  masked: boolean;
  guest: boolean;
  /**
   * Each line with its net (what was paid for it after the discount: what returning it refunds),
   * the units already refunded or claimed by a return, and `refund_amounts[k - 1]`: what refunding
   * k more units gives back now (the refund dialog adds these up; the server prices them the same).
   */
  items: (OrderItem & {
    name_en: string;
    name_ar: string;
    net_total: number;
    claimed_quantity: number;
    refund_amounts: number[];
  })[];
  /** What refunding the shipping charge gives back now: 0 once it was refunded. */
  shipping_refundable: number;
  /** The order's tax invoice and credit notes, for the console's document links. */
  documents: OrderDocuments;
  /** Internal notes, oldest first (every staff role reads and adds them). */
  notes: StaffNote[];
  promo_code: string | null;
  address: OrderAddress;
  shipping_method: string;
  payment_method: string;
  payments: ConsolePayment[];
  refunds: ConsoleRefund[];
  events: OrderEvent[];
  messages: ConsoleOrderMessage[];
  /** What the caller may do next (empty for support). */
  actions: OrderAction[];
  /** Payments the gateway took after the shop had closed them; each is owed back in full. */
  late_payments: LatePayment[];
  /** Cash on delivery: what the courier collects (0 once collected, or for any other way of paying). */
  cash_to_collect: number;
  /** Cash on delivery: the IBAN (masked as `bank_transfers`) and holder the shopper gave for refunds. */
  refund_account: { iban: string; name: string } | null;
  bank_transfers: ConsoleBankTransfer[];
  /** Its parcels with the carriers, oldest first. */
  shipments: ConsoleShipment[];
  /** Units of each line still to put in a parcel (none once all shipped, or not shippable yet). */
  shippable: { variant_id: number; name: string; left: number }[];
}

export const CARRIER_MAX = 60;
export const TRACKING_MAX = 60;
export const REFUND_REASON_MAX = 300;
/** A tracking number: letters, digits, dashes and spaces as carriers print them. */
export const TRACKING_NUMBER = /^[A-Za-z0-9][A-Za-z0-9 -]*$/;

function requiredText(m: InputMessages, field: "carrier" | "tracking_number", max: number) {
  return v.pipe(
    v.optional(v.string(m.required(field)), ""),
    v.trim(),
    v.nonEmpty(m.required(field)),
    v.maxLength(max, m.maxLength(field, max)),
  );
}

/** POST /admin/orders/{number}/ship. */
export function shipInput(m: InputMessages) {
  return v.object({
    carrier: requiredText(m, "carrier", CARRIER_MAX),
    tracking_number: v.pipe(
      requiredText(m, "tracking_number", TRACKING_MAX),
      v.regex(TRACKING_NUMBER, m.invalid("tracking_number")),
    ),
  });
}

export const REFUND_LINES_MAX = 100;

/**
 * POST /admin/orders/{number}/refund: either chosen lines (units of each product) and/or the
 * shipping charge, which the server prices (what was paid for them; `amount`, if sent, is what the
 * console confirmed and must still match), or an amount alone (minor units), tied to no line.
 * `restock` puts the refunded lines back in stock. The reason is optional.
 */
export function refundInput(m: InputMessages) {
  return v.pipe(
    v.object({
      amount: v.optional(
        v.nullable(
          v.pipe(
            v.number(m.required("amount")),
            v.integer(m.invalid("amount")),
            v.minValue(1, m.invalid("amount")),
            v.maxValue(100_000_000_00, m.invalid("amount")),
          ),
        ),
        null,
      ),
      lines: v.optional(
        v.pipe(
          v.array(
            v.object({
              product_id: v.pipe(
                v.number(m.invalid("product_id")),
                v.integer(m.invalid("product_id")),
                v.minValue(1, m.invalid("product_id")),
              ),
              /** The line's variant; may be left out when the order holds one line of the product. */
              variant_id: v.optional(
                v.pipe(
                  v.number(m.invalid("variant_id")),
                  v.integer(m.invalid("variant_id")),
                  v.minValue(1, m.invalid("variant_id")),
                ),
              ),
              quantity: v.pipe(
                v.number(m.invalid("quantity")),
                v.integer(m.invalid("quantity")),
                v.minValue(0, m.invalid("quantity")),
                v.maxValue(10_000, m.invalid("quantity")),
              ),
            }),
            m.invalid("items"),
          ),
          v.maxLength(REFUND_LINES_MAX, m.invalid("items")),
        ),
        [],
      ),
      shipping: v.optional(v.boolean(m.invalid("amount")), false),
      restock: v.optional(v.boolean(m.invalid("amount")), false),
      reason: refundReason(m),
    }),
    v.forward(
      v.check((r) => r.amount !== null || r.shipping || r.lines.some((l) => l.quantity > 0), m.required("amount")),
      ["amount"],
    ),
  );
}

/** An optional reason typed by staff (a refund's, a cancel's). */
function refundReason(m: InputMessages) {
  return v.optional(
    v.nullable(
      v.pipe(
        v.string(m.invalid("reason")),
        v.trim(),
        v.maxLength(REFUND_REASON_MAX, m.maxLength("reason", REFUND_REASON_MAX)),
        v.transform((s) => (s === "" ? null : s)),
      ),
    ),
    null,
  );
}

/** POST /admin/orders/{number}/cancel: an optional reason. */
export function cancelInput(m: InputMessages) {
  return v.object({
    reason: refundReason(m),
  });
}

export const STAFF_NOTE_MAX = 2000;

/** POST /admin/orders/{number}/notes and /admin/customers/{id}/notes: an internal note. */
export function staffNoteInput(m: InputMessages) {
  return v.object({
    body: v.pipe(
      v.string(m.required("note")),
      v.trim(),
      v.nonEmpty(m.required("note")),
      v.maxLength(STAFF_NOTE_MAX, m.maxLength("note", STAFF_NOTE_MAX)),
    ),
  });
}

/** An internal note staff keep on an order or a customer; never shown to shoppers. */
export interface StaffNote {
  id: number;
  body: string;
  staff_email: string;
  created_at: string;
}

export type ShipInput = v.InferOutput<ReturnType<typeof shipInput>>;
export type RefundInput = v.InferOutput<ReturnType<typeof refundInput>>;
export type StaffNoteInput = v.InferOutput<ReturnType<typeof staffNoteInput>>;

/**
 * GET /admin/orders/{number}/packing-slip: what goes in the parcel, without prices. Each line
 * names the product in the caller's language, with its SKU; quantities less any refunded lines.
 */
export interface PackingSlip {
  order_number: string;
  created_at: string;
  shipping_method: string;
  address: OrderAddress;
  items: {
    product_id: number;
    variant_id?: number;
    name: string;
    sku: string | null;
    quantity: number;
    refunded: number;
  }[];
  /** The units to pack. */
  total_units: number;
  /** Cash on delivery: what the courier collects, in halalas (0 for an order paid online). */
  cash_to_collect: number;
  currency: string;
}
