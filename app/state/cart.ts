import { atom } from "jotai";
import {
  lineKey,
  type Cart,
  type CartLine as WireLine,
  type CartPromo,
  type DiscountType,
  type LineRef,
} from "../../contract/cart";

export { lineKey };
export type { CartPromo, DiscountType, LineRef };

/**
 * The cart in the browser (spec §3 "Cart state", §4 "Cart" and "Promo code"). The atoms hold
 * what the backend last answered; the pure functions below are the rules that move them, so
 * they can be tested without a browser.
 */

/**
 * A cart line as the state holds it: the contract's line (contract/cart.ts), where a backend built
 * to the spec alone may answer only the quantity and the product id (spec §3).
 */
export type CartLine = Pick<WireLine, "product_id" | "quantity"> &
  Partial<Pick<WireLine, "variant_id" | "variant" | "options" | "product" | "line_total">>;

/** The cart the atoms hold: the backend's answer, with the count derived (totalQuantityAtom). */
export type CartList = Omit<Cart, "products" | "total_quantity"> & { products: CartLine[] };

/** The backend's answer as read: a backend built to the spec alone may leave the totals out. */
export type CartResponse = Partial<Omit<Cart, "products">> & { products: CartLine[] };

export const EMPTY_CART: CartList = {
  products: [],
  subtotal: 0,
  discount: 0,
  total: 0,
  currency: "SAR",
  promo: null,
  invalid: [],
};

export const DEFAULT_DISCOUNT_TYPE: DiscountType = 1;

/** Promo code: idle until checked, then valid or invalid (spec §4). */
export interface PromoState {
  state: "idle" | "valid" | "invalid";
  code: string;
  discount_type: DiscountType;
  discount: number;
  /** Valid: 'Discount received {n} on total payment'; invalid: the server's message. */
  message: string;
}

export const IDLE_PROMO: PromoState = {
  state: "idle",
  code: "",
  discount_type: DEFAULT_DISCOUNT_TYPE,
  discount: 0,
  message: "",
};

export const cartListAtom = atom<CartList>(EMPTY_CART);

/** Whether the cart has been read from the backend in this page's life (false until then). */
export const cartLoadedAtom = atom(false);

/** total_quantity is derived: the sum of the lines' quantities. */
export const totalQuantityAtom = atom((get) => totalQuantity(get(cartListAtom)));

/** The cart drawer's visibility (spec §2: the cart is reachable as a drawer whose visibility toggles). */
export const cartDrawerOpenAtom = atom(false);

export const promoAtom = atom<PromoState>(IDLE_PROMO);

/** Line keys (lineKey) a change was refused for (spec §4: a failed add records an invalid quantity). */
export const invalidQuantityAtom = atom<ReadonlySet<number>>(new Set<number>());

/* ---------- The rules, as pure functions ---------- */

export function totalQuantity(cart: Pick<CartList, "products">): number {
  return cart.products.reduce((sum, line) => sum + (Number.isFinite(line.quantity) ? line.quantity : 0), 0);
}

export function toDiscountType(value: unknown): DiscountType {
  return Number(value) === 2 ? 2 : DEFAULT_DISCOUNT_TYPE;
}

/** Reads a backend cart into the state shape, tolerating missing totals. */
export function cartFromResponse(data: CartResponse | null | undefined): CartList {
  if (!data || !Array.isArray(data.products)) return EMPTY_CART;
  return {
    products: data.products.map((line) => ({
      ...line,
      product_id: Number(line.product_id),
      quantity: Number(line.quantity),
    })),
    subtotal: data.subtotal ?? 0,
    discount: data.discount ?? 0,
    total: data.total ?? data.subtotal ?? 0,
    currency: data.currency ?? data.products[0]?.product?.currency ?? "SAR",
    promo: data.promo
      ? {
          code: data.promo.code,
          discount_type: toDiscountType(data.promo.discount_type),
          discount: Number(data.promo.discount) || 0,
          value: Number(data.promo.value ?? data.promo.discount) || 0,
        }
      : null,
    invalid: Array.isArray(data.invalid) ? data.invalid.map(Number) : [],
  };
}

/** The session storage flag `products`: "true" while the cart holds at least one product. */
export function productsFlag(cart: Pick<CartList, "products">): "true" | "false" {
  return cart.products.length > 0 ? "true" : "false";
}

/**
 * A line's quantity set ahead of the backend's answer (optimistic update). The line total
 * follows the unit price when known; quantity 0 removes the line.
 */
export function withLineQuantity(cart: CartList, ref: LineRef, quantity: number): CartList {
  const key = lineKey(ref);
  const products = cart.products
    .map((line) => {
      if (lineKey(line) !== key) return line;
      const unit =
        line.product?.price ??
        (line.line_total !== undefined && line.quantity > 0 ? line.line_total / line.quantity : undefined);
      return { ...line, quantity, line_total: unit !== undefined ? unit * quantity : line.line_total };
    })
    .filter((line) => line.quantity > 0);
  const subtotal = products.reduce((sum, line) => sum + (line.line_total ?? 0), 0);
  const discount = Math.min(cart.discount, subtotal);
  return { ...cart, products, subtotal, discount, total: subtotal - discount };
}

export function withoutLine(cart: CartList, ref: LineRef): CartList {
  return withLineQuantity(cart, ref, 0);
}

/** The most a shopper may pick of a product: the lower of stock and the per-order maximum. */
export function maxQuantityOf(line: CartLine): number {
  const p = line.product;
  if (!p) return Number.MAX_SAFE_INTEGER;
  const perOrder = p.max_per_order > 0 ? p.max_per_order : Number.MAX_SAFE_INTEGER;
  return Math.max(0, Math.min(p.stock, perOrder));
}

export function withInvalid(set: ReadonlySet<number>, productId: number): ReadonlySet<number> {
  if (set.has(productId)) return set;
  const next = new Set(set);
  next.add(productId);
  return next;
}

export function withoutInvalid(set: ReadonlySet<number>, productId: number): ReadonlySet<number> {
  if (!set.has(productId)) return set;
  const next = new Set(set);
  next.delete(productId);
  return next;
}

/**
 * The promo state after a valid answer: discount type and value, and the message
 * 'Discount received {n} on total payment' with n as a percent (type 1) or money (type 2).
 */
export function validPromo(
  answer: { code?: string; discount_type?: unknown; discount?: unknown },
  code: string,
  formatN: (type: DiscountType, discount: number) => string,
  template: (n: string) => string,
): PromoState {
  const discount_type = toDiscountType(answer.discount_type ?? DEFAULT_DISCOUNT_TYPE);
  const discount = Number(answer.discount) || 0;
  return {
    state: "valid",
    code: answer.code ?? code,
    discount_type,
    discount,
    message: template(formatN(discount_type, discount)),
  };
}

/** The promo state after a refusal: the server's message, and the discount reset to 0. */
export function invalidPromo(previous: PromoState, code: string, serverMessage: string): PromoState {
  return { state: "invalid", code, discount_type: previous.discount_type, discount: 0, message: serverMessage };
}
