import type { Order } from "../orders";
import type { TaxDocument } from "../../../contract/invoices";
import type { Api } from "./client";

/**
 * The shopper's orders: the list, one order, and tracking by number and contact. Each takes the
 * caller's client and answers the backend's envelope; failures are the client's `ApiError`.
 */

/** GET /orders: the signed-in shopper's orders. */
export function listOrders(api: Api, signal?: AbortSignal) {
  return api.get<Order[]>("/orders", { signal });
}

/** GET /orders/{number}: one order of this visitor. */
export function getOrder(api: Api, number: string, signal?: AbortSignal) {
  return api.get<Order>(`/orders/${encodeURIComponent(number)}`, { signal });
}

/** POST /orders/track: an order found by its number and the email or phone it was placed with. */
export function trackOrder(api: Api, number: string, contact: string) {
  return api.post<Order>("/orders/track", { number, contact });
}

/** GET /orders/{number}/invoice: the paid order's simplified tax invoice (its owner only). */
export function getInvoice(api: Api, number: string, signal?: AbortSignal) {
  return api.get<TaxDocument>(`/orders/${encodeURIComponent(number)}/invoice`, { signal });
}

/** GET /orders/{number}/credit-notes/{id}: a refund's credit note (the order's owner only). */
export function getCreditNote(api: Api, number: string, id: string, signal?: AbortSignal) {
  return api.get<TaxDocument>(`/orders/${encodeURIComponent(number)}/credit-notes/${encodeURIComponent(id)}`, {
    signal,
  });
}
