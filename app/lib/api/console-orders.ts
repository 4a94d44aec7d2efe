import type { ConsoleOrder, ConsoleOrderRow, PackingSlip } from "../../../contract/console-orders";
import type { TaxDocument } from "../../../contract/invoices";
import type { Api } from "./client";
import type { ConsoleList, ListParams } from "./console";

/** Orders in the console: the list, an order's page, and the transitions staff run. */

/** The filters the orders list passes through from its URL. */
export const ORDER_FILTERS = ["status", "payment_status", "date_from", "date_to", "search", "returns", "cod"] as const;

export function listConsoleOrders(api: Api, params: ListParams) {
  return api.get<ConsoleOrderRow[]>("/admin/orders", { query: params }) as Promise<ConsoleList<ConsoleOrderRow>>;
}

const path = (number: string, action = "") =>
  `/admin/orders/${encodeURIComponent(number)}${action ? `/${action}` : ""}`;

export function getConsoleOrder(api: Api, number: string) {
  return api.get<ConsoleOrder>(path(number));
}

/** paid → processing. */
export function processOrder(api: Api, number: string) {
  return api.post<ConsoleOrder>(path(number, "process"));
}

/** processing → shipped, with the carrier and its tracking number. */
export function shipOrder(api: Api, number: string, shipment: { carrier: string; tracking_number: string }) {
  return api.post<ConsoleOrder>(path(number, "ship"), shipment);
}

/** shipped → delivered. */
export function deliverOrder(api: Api, number: string) {
  return api.post<ConsoleOrder>(path(number, "deliver"));
}

/** Cancels an order that has not shipped: stock returns; a paid order is refunded in full. */
export function cancelOrder(api: Api, number: string, reason: string | null = null) {
  return api.post<ConsoleOrder>(path(number, "cancel"), { reason });
}

/** What a refund gives back: chosen lines and/or the shipping (priced by the server), or an amount alone. */
export interface RefundChoice {
  lines: { product_id: number; variant_id?: number; quantity: number }[];
  shipping: boolean;
  restock: boolean;
}

/**
 * Refunds through the payment provider: `amount` (minor units) alone, or the chosen lines and
 * shipping, whose total `amount` the console confirmed (the server refuses if it no longer matches).
 */
export function refundOrder(
  api: Api,
  number: string,
  amount: number,
  reason: string | null,
  choice: RefundChoice = { lines: [], shipping: false, restock: false },
) {
  return api.post<ConsoleOrder>(path(number, "refund"), { amount, reason, ...choice });
}

/** Raises the order's total after its invoice: a debit note with why (amount in halalas). */
export function raiseOrderTotal(api: Api, number: string, amount: number, reason: string) {
  return api.post<ConsoleOrder>(path(number, "debit-notes"), { amount, reason });
}

/** Adds an internal note to the order (never shown to the shopper). */
export function addOrderNote(api: Api, number: string, body: string) {
  return api.post<ConsoleOrder>(path(number, "notes"), { body });
}

/** The order's tax invoice, as the shopper gets it. */
export function getConsoleInvoice(api: Api, number: string) {
  return api.get<TaxDocument>(path(number, "invoice"));
}

/** One of the order's credit notes, or (`kind` "debit") its debit notes. */
export function getConsoleCreditNote(api: Api, number: string, id: string, kind: "credit" | "debit" = "credit") {
  return api.get<TaxDocument>(path(number, `${kind}-notes/${encodeURIComponent(id)}`));
}

/** The order's packing slip (managers and owners). */
export function getPackingSlip(api: Api, number: string) {
  return api.get<PackingSlip>(path(number, "packing-slip"));
}

/** Refunds in full a payment the gateway took after the order was closed. */
/** Records a cash-on-delivery refund's bank transfer as sent, with the bank's reference. */
export function markTransferSent(api: Api, number: string, transferId: string, reference: string) {
  return api.post<ConsoleOrder>(path(number, `transfers/${encodeURIComponent(transferId)}/sent`), { reference });
}

export function refundLatePayment(api: Api, number: string, paymentId: string) {
  return api.post<ConsoleOrder>(path(number, `late-payments/${encodeURIComponent(paymentId)}/refund`));
}

/** Sends a dead order message again (a fresh set of the queue's retries). */
export function resendOrderMessage(api: Api, number: string, messageId: number) {
  return api.post<ConsoleOrder>(path(number, `messages/${messageId}/resend`));
}
