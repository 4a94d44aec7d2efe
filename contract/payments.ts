// Paying for an order: where the shopper is sent to pay, and what the return page is told.
// Part of the contract between the storefront and the backend (DESIGN §6, §10).
import type { PaymentMethodId } from "./checkout";
import type { OrderStatus } from "./orders";

/**
 * POST /payments/{number}/start: where to send the shopper to pay. With `step` "stcpay", the
 * shop's own page asks for the STC Pay mobile number and its code first (POST /payments/{id}/stcpay,
 * then /stcpay/otp), and sends the shopper to `redirect_url` (the return path) when it is done.
 * With `step` "cod" (cash on delivery, CodStep) a code went to the delivery phone, and the page
 * asks for it (POST /payments/{id}/cod).
 */
export interface PaymentStart {
  payment_id: string;
  redirect_url: string;
  method?: PaymentMethodId;
  step?: "stcpay" | "cod";
  /** The order's contact number in STC Pay's form (05XXXXXXXX), to offer; null: none fits. */
  mobile?: string | null;
}

/** What POST /payments/{number}/start sends: the storefront path the provider returns to. */
export interface PaymentStartRequest {
  return_url: string;
  /** Pay this way instead of the order's method (after a refusal, say); must be offered. */
  method?: PaymentMethodId;
}

/** POST /payments/{id}/stcpay: the wallet's mobile number (Saudi, 05XXXXXXXX or +9665XXXXXXXX). */
export interface StcPayMobileRequest {
  mobile: string;
}

/** POST /payments/{id}/stcpay/otp: the code STC Pay sent to that mobile. */
export interface StcPayOtpRequest {
  otp: string;
}

/** The answer to the mobile number: STC Pay sent its code (`otp`), or refused the payment. */
export interface StcPayStep {
  payment_id: string;
  status: "otp" | "failed";
  /** In the request's language: where the code went, or why STC Pay refused. */
  message: string;
}

/** A cash-on-delivery order's confirmation: the code went to `mobile` (masked), or one went a moment ago. */
export interface CodStep extends PaymentStart {
  method: "cod";
  step: "cod";
  mobile: string;
  /** In the request's language: where the code went, or to use the one sent a moment ago. */
  message: string;
  code_sent: boolean;
}

/** POST /payments/{id}/cod: the code texted to the delivery phone; answers the confirmed order. */
export interface CodConfirmRequest {
  otp: string;
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
  /** How this payment was made: after a failed one not by card, the page offers the card. */
  method?: PaymentMethodId;
}
