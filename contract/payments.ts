// Paying for an order: where the shopper is sent to pay, and what the return page is told.
// Part of the contract between the storefront and the backend (DESIGN §6, §10).
import type { OrderStatus } from "./orders";

/** POST /payments/{number}/start: where to send the shopper to pay. */
export interface PaymentStart {
  payment_id: string;
  redirect_url: string;
}

/** What POST /payments/{number}/start sends: the storefront path the provider returns to. */
export interface PaymentStartRequest {
  return_url: string;
}

/** A payment's outcome as the shopper sees it. */
export type PaymentState = "pending" | "paid" | "failed";

/** GET /payments/{id}/status. */
export interface PaymentStatusView {
  payment_id: string;
  status: PaymentState;
  order_number: string;
  order_status: OrderStatus;
  /** In the request's language: received, waiting, or why it failed. */
  message: string;
}
