import {
  CART_CONTACT_PATH,
  CART_RESTORE_PATH,
  type CartContactAnswer,
  type CartRestored,
} from "../../../contract/cart-reminders";
import type { Api } from "./client";

/**
 * Cart reminders (contract/cart-reminders.ts): the checkout's yes or no for the visitor's cart,
 * and a reminder's link restoring the reminded cart into the visitor's own. Failures are the
 * client's `ApiError` (404: the link's cart is gone; 422: field errors; 429: too many).
 */

export function setCartContact(api: Api, body: { email?: string; phone?: string; consent: boolean }) {
  return api.post<CartContactAnswer>(CART_CONTACT_PATH, body);
}

export function restoreRemindedCart(api: Api, token: string) {
  return api.post<CartRestored>(CART_RESTORE_PATH, { token });
}
