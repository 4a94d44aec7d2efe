// Orders as the backend answers them, and their states.
// Part of the contract between the storefront and the backend (DESIGN §6, §10): both sides import
// it, and it imports neither (test/node/boundaries.test.ts).
import type { OrderShipment } from "./shipping";
import type { ShownPromise } from "./delivery-promise";
import type { OrderSelfService } from "./returns";
import type { OrderDocuments } from "./invoices";

/** The states an order is stored in. */
export type StoredOrderStatus =
  "pending_payment" | "paid" | "processing" | "shipped" | "delivered" | "payment_failed" | "cancelled";

/**
 * The states an order is answered in: its stored state, or `refunded` once a (not cancelled) order
 * was refunded in full. Derived, never stored (the orders table's CHECK stays as it is).
 */
export const ORDER_STATUSES = [
  "pending_payment",
  "paid",
  "processing",
  "shipped",
  "delivered",
  "payment_failed",
  "cancelled",
  "refunded",
] as const satisfies readonly (StoredOrderStatus | "refunded")[];
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** `partially_refunded` / `refunded`: derived from the refunded amount of a paid order. */
export type PaymentStatus = "unpaid" | "pending" | "paid" | "failed" | "partially_refunded" | "refunded";

export interface OrderAddress {
  name: string;
  phone: string;
  city: string;
  district: string;
  street: string;
  building?: string | null;
  postal_code?: string | null;
  additional_number?: string | null;
  short_address?: string | null;
  notes?: string | null;
}

export interface OrderItem {
  product_id: number;
  /** The variant sold: a line's key (an order holds one line per variant). */
  variant_id?: number;
  /** The chosen options' values ("Desert Titanium · 512 GB"), when the product has options. */
  variant?: string | null;
  sku?: string | null;
  /** The product's name with the variant's values: what the order's documents call the line. */
  name: string;
  slug: string;
  image: string | null;
  quantity: number;
  unit_price: number;
  line_total: number;
  /**
   * What was paid for the line: its list total less its share of the order's discount. Returns
   * and their refunds are worked out from it, never from the list price. The reference backend
   * always answers it; a backend built to the shop's original spec may not.
   */
  net_total?: number;
}

/** What an order or a checkout costs, in minor units (halalas); prices include VAT. */
export interface Totals {
  subtotal: number;
  discount: number;
  shipping: number;
  /** The cash-on-delivery fee, part of the total; absent or 0 for every other way of paying. */
  cod_fee?: number;
  /** The VAT contained in the total. */
  vat: number;
  total: number;
  currency: string;
}

/** `invoice_number`, `credit_notes`: the tax documents issued so far (contract/invoices.ts). */
export interface Order extends Totals, OrderDocuments {
  number: string;
  status: OrderStatus;
  created_at: string;
  /** Masked (`a***@e***.com`) in a tracking answer. */
  email: string;
  items: OrderItem[];
  promo_code: string | null;
  /** Tracking by number and contact leaves the address details out (city only). */
  address: OrderAddress | { city: string };
  shipping_method: string;
  payment_method: string;
  payment_status: PaymentStatus;
  /** While unpaid: until when the stock is held. */
  reserved_until: string | null;
  /** Fulfilment, once the shop shipped it: the carrier and its tracking number. */
  carrier: string | null;
  tracking_number: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
  /** The shop day (YYYY-MM-DD) the order was promised to arrive by when it was placed; null: none kept. */
  promised_by?: string | null;
  /** "Arrives by …" in the caller's language while the order is on its way; null once delivered or closed. */
  delivery_promise?: ShownPromise | null;
  cancelled_at: string | null;
  /** Refunded so far, in minor units. */
  refunded: number;
  /** The parcels it left in (and return pickups), with each one's steps; absent before any. */
  shipments?: OrderShipment[];
  /** Only in the owner's answer: what the order page may offer (cancel, returns) and their refunds. */
  self_service?: OrderSelfService;
}
