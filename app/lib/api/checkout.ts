import type { NewAddress } from "../checkout";
import type { Order, PaymentStart, PaymentStatus } from "../orders";
import type { Api } from "./client";

/**
 * Placing an order and paying for it: the order itself, the payment's start and its status.
 * Each takes the caller's client and answers the backend's envelope; failures are the client's
 * `ApiError`.
 */

/** What POST /checkout sends: a new address or a saved one's id, and the chosen methods. */
export interface PlaceOrder {
  idempotency_key: string;
  email?: string;
  address?: NewAddress;
  address_id?: number;
  shipping_method: string;
  payment_method: string;
}

/** POST /checkout: the cart becomes an order (the backend empties the cart). */
export function placeOrder(api: Api, order: PlaceOrder) {
  return api.post<Order>("/checkout", order);
}

/** POST /payments/{number}/start: where to send the shopper to pay, and where they come back. */
export function startPayment(api: Api, number: string, returnUrl: string) {
  return api.post<PaymentStart>(`/payments/${encodeURIComponent(number)}/start`, { return_url: returnUrl });
}

/** GET /payments/{id}/status: whether a payment went through. */
export function getPaymentStatus(api: Api, paymentId: string, signal?: AbortSignal) {
  return api.get<PaymentStatus>(`/payments/${encodeURIComponent(paymentId)}/status`, { signal });
}
