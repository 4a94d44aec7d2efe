// The cart as the backend answers it, and what the storefront sends to change it.
// Part of the contract between the storefront and the backend (DESIGN §6, §10): both sides import
// it, and it imports neither (test/node/boundaries.test.ts). Money is in halalas.
import type * as v from "valibot";
import type { ProductSummary } from "./catalogue";
import type { cartFields, cartSyncInput, promoInput } from "./inputs";

/** 1: a percentage (the default, spec §9); 2: a fixed amount in halalas. */
export type DiscountType = 1 | 2;

/** The promo code applied to a cart. */
export interface CartPromo {
  code: string;
  discount_type: DiscountType;
  /** The discount on this cart, in halalas. */
  discount: number;
  /** The code's own value: a percent for type 1, halalas for type 2. */
  value: number;
}

/**
 * A cart line: a quantity of one variant of a product (spec §3), with the product as that variant
 * sells it (its price, stock, limit, SKU and image) and the line's total.
 */
export interface CartLine {
  product_id: number;
  variant_id: number;
  /** The chosen options' values ("Desert Titanium · 512 GB"); null for a product without options. */
  variant: string | null;
  /** The variant's values by option code, as its product page's URL carries them (empty without options). */
  options?: Record<string, string>;
  quantity: number;
  product: ProductSummary;
  line_total: number;
}

/** Which line a change or a refund means: its variant, or its product on a backend that answers none. */
export interface LineRef {
  product_id: number;
  variant_id?: number;
}

/**
 * A cart or order line's key: its variant id, or its product id from a backend without variants
 * (an order or cart holds one line per variant; `Cart.invalid` holds these ids).
 */
export const lineKey = (line: LineRef): number => line.variant_id ?? line.product_id;

/** GET /cart, and the answer to every cart change. */
export interface Cart {
  products: CartLine[];
  total_quantity: number;
  subtotal: number;
  discount: number;
  total: number;
  currency: string;
  promo: CartPromo | null;
  /** Variant ids (`CartLine.variant_id`) whose quantity exceeds what can be ordered now. */
  invalid: number[];
}

/** POST /cart/update-quantity (quantity 0 removes the line) and, with quantity optional, /cart/add-product. */
export type CartLineInput = v.InferInput<v.ObjectSchema<ReturnType<typeof cartFields>, undefined>>;

/** POST /promo-code/check. */
export type PromoCheck = v.InferInput<ReturnType<typeof promoInput>>;

/**
 * The answer to a valid POST /promo-code/check: `discount` is the code's value for its type (spec
 * §3: a percentage for type 1, halalas for type 2); `amount` is what it takes off this cart.
 */
export interface PromoChecked {
  code: string;
  discount_type: DiscountType;
  discount: number;
  amount: number;
}

/**
 * POST /cart/sync: what a browser changed while offline, replayed when it is back. Each line sets
 * its variant's quantity (0 removes the line), so sending the same lines twice leaves the same
 * cart: a replay cut short and sent again never doubles a quantity. A line is clamped to what is
 * left (stock and the per-order maximum) instead of refused, and its outcome says what happened.
 */
export type CartSyncInput = v.InferInput<ReturnType<typeof cartSyncInput>>;

/**
 * What became of one synced line: `applied` as asked, `reduced` to what is left, `sold_out` (none
 * left: the cart keeps what it had), `unavailable` (no longer sold, or no such product), `removed`.
 */
export type CartSyncStatus = "applied" | "reduced" | "sold_out" | "unavailable" | "removed";

export interface CartSyncOutcome {
  product_id: number;
  /** The variant the line meant, or null when none was named and the product sells none alone. */
  variant_id: number | null;
  /** The quantity the browser asked for. */
  requested: number;
  /** The line's quantity in the cart now (0: no line). */
  quantity: number;
  status: CartSyncStatus;
}

/** The answer to POST /cart/sync: the cart after it, and one outcome per line sent, in order. */
export interface CartSynced {
  cart: Cart;
  outcomes: CartSyncOutcome[];
}
