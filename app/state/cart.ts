import { atom } from "jotai";

/** A cart line as spec §3 describes it: a quantity and a product id (plus what the backend adds). */
export interface CartLine {
  product_id: number;
  quantity: number;
  [key: string]: unknown;
}

export interface CartList {
  products: CartLine[];
}

export const cartListAtom = atom<CartList>({ products: [] });

/** total_quantity is derived: the sum of the lines' quantities. */
export const totalQuantityAtom = atom((get) => get(cartListAtom).products.reduce((sum, line) => sum + line.quantity, 0));

/** The cart drawer's visibility (spec §2: the cart is reachable as a drawer whose visibility toggles). */
export const cartDrawerOpenAtom = atom(false);
