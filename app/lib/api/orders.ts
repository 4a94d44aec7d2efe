import type { Order } from "../../../contract/orders";
import type { TaxDocument } from "../../../contract/invoices";
import type { OrderAccessGrant } from "../../../contract/order-access";
import type { Api } from "./client";

/**
 * The shopper's orders: the list, one order, and tracking by number and contact. Each takes the
 * caller's client and answers the backend's envelope; failures are the client's `ApiError`.
 */

/** GET /orders: the signed-in shopper's orders. */
export function listOrders(api: Api, signal?: AbortSignal) {
  return api.get<Order[]>("/orders", { signal });
}

/** GET /orders/{number}: one order of this visitor (or of the tab's grant for it, `access`). */
export function getOrder(api: Api, number: string, signal?: AbortSignal, access?: string | null) {
  return api.get<Order>(`/orders/${encodeURIComponent(number)}`, { signal, access });
}

/** POST /orders/{number}/access: a message link's signed token traded for the tab's grant. */
export function openOrderLink(api: Api, number: string, token: string, signal?: AbortSignal) {
  return api.post<OrderAccessGrant>(`/orders/${encodeURIComponent(number)}/access`, { token }, { signal });
}

/**
 * POST /orders/track: an order found by its number and the email or phone it was placed with;
 * for a guest's order, `meta.access` is a grant that opens its page (OrderAccessGrant).
 * `headers`: a Turnstile token, when a busy network was asked for one (lib/challenge.ts).
 */
export function trackOrder(api: Api, number: string, contact: string, headers?: Record<string, string>) {
  return api.post<Order>("/orders/track", { number, contact }, { headers });
}

/** GET /orders/{number}/invoice: the paid order's simplified tax invoice (its owner only). */
export function getInvoice(api: Api, number: string, signal?: AbortSignal, access?: string | null) {
  return api.get<TaxDocument>(`/orders/${encodeURIComponent(number)}/invoice`, { signal, access });
}

/** A note's kind in its address: a refund's credit note, or a debit note raising the total. */
export type NoteKind = "credit" | "debit";

/** GET /orders/{number}/{credit,debit}-notes/{id}: one of the order's notes (the order's owner only). */
export function getCreditNote(
  api: Api,
  number: string,
  id: string,
  signal?: AbortSignal,
  access?: string | null,
  kind: NoteKind = "credit",
) {
  return api.get<TaxDocument>(`/orders/${encodeURIComponent(number)}/${kind}-notes/${encodeURIComponent(id)}`, {
    signal,
    access,
  });
}

/** The signed copies a stamped tax document has besides its JSON: the UBL XML, and the PDF that carries it. */
export type TaxDocumentFormat = "xml" | "pdf";

/** GET /orders/{number}/invoice.{xml,pdf}: the stamped invoice's file (the same owners as the invoice). */
export function getInvoiceFile(
  api: Api,
  number: string,
  format: TaxDocumentFormat,
  signal?: AbortSignal,
  access?: string | null,
) {
  return api.file(`/orders/${encodeURIComponent(number)}/invoice.${format}`, { signal, access });
}

/** GET /orders/{number}/credit-notes/{id}.{xml,pdf}: a stamped note's file (the same owners as the note). */
export function getCreditNoteFile(
  api: Api,
  number: string,
  id: string,
  format: TaxDocumentFormat,
  signal?: AbortSignal,
  access?: string | null,
  kind: NoteKind = "credit",
) {
  return api.file(`/orders/${encodeURIComponent(number)}/${kind}-notes/${encodeURIComponent(id)}.${format}`, {
    signal,
    access,
  });
}
