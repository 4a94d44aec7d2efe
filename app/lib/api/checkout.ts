import type { Order } from "../../../contract/orders";
import type { CheckoutRequest, PaymentMethodId } from "../../../contract/checkout";
import type {
  CodConfirmRequest,
  PaymentStart,
  PaymentStartRequest,
  PaymentStatusView,
  StcPayMobileRequest,
  StcPayOtpRequest,
  StcPayStep,
} from "../../../contract/payments";
import type { Api } from "./client";

/**
 * Placing an order and paying for it: the order itself, the payment's start and its status.
 * Each takes the caller's client and answers the backend's envelope; failures are the client's
 * `ApiError`. The shapes are the contract's (contract/checkout.ts, contract/payments.ts).
 */

/** POST /checkout: the cart becomes an order (the backend empties the cart). `headers`: a challenge's token. */
export function placeOrder(api: Api, order: CheckoutRequest, headers?: Record<string, string>) {
  return api.post<Order>("/checkout", order, { headers });
}

/** POST /payments/{number}/start: where to send the shopper to pay, and where they come back. */
export function startPayment(api: Api, number: string, returnUrl: string, method?: PaymentMethodId) {
  const body: PaymentStartRequest = { return_url: returnUrl, ...(method ? { method } : {}) };
  return api.post<PaymentStart>(`/payments/${encodeURIComponent(number)}/start`, body);
}

/** POST /payments/{id}/stcpay: the wallet's number; STC Pay texts a code to it, or refuses. */
export function sendStcPayMobile(api: Api, paymentId: string, mobile: string) {
  const body: StcPayMobileRequest = { mobile };
  return api.post<StcPayStep>(`/payments/${encodeURIComponent(paymentId)}/stcpay`, body);
}

/** POST /payments/{id}/cod: the code texted to the delivery phone, which confirms a cash-on-delivery order. */
export function confirmCod(api: Api, paymentId: string, otp: string) {
  const body: CodConfirmRequest = { otp };
  return api.post<Order>(`/payments/${encodeURIComponent(paymentId)}/cod`, body);
}

/** POST /payments/{id}/stcpay/otp: the code, which pays (or fails) the payment. */
export function confirmStcPay(api: Api, paymentId: string, otp: string) {
  const body: StcPayOtpRequest = { otp };
  return api.post<PaymentStatusView>(`/payments/${encodeURIComponent(paymentId)}/stcpay/otp`, body);
}

/** GET /payments/{id}/status: whether a payment went through. */
export function getPaymentStatus(api: Api, paymentId: string, signal?: AbortSignal, returned?: URLSearchParams) {
  // What the provider added to the return address (a pay-later provider's "cancelled"), for the
  // backend to weigh: it can only ever make a payment fail, never pay it.
  const query = new URLSearchParams(
    [...(returned ?? [])].filter(([name]) => name !== "payment_id" && name !== "order"),
  );
  const suffix = query.size ? `?${query}` : "";
  return api.get<PaymentStatusView>(`/payments/${encodeURIComponent(paymentId)}/status${suffix}`, { signal });
}
