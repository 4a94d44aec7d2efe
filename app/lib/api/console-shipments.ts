import type { ConsoleOrder } from "../../../contract/console-orders";
import type { BulkShipResult, CarrierId, ParcelPlan, RemittanceReport } from "../../../contract/shipping";

import type { Api } from "./client";

/**
 * Parcels with the carriers from the console (managers and owners): create an order's parcels
 * (several to split it), cancel one before pickup, create one each for many orders, and reconcile
 * the cash on delivery carriers paid over. The PDFs (labels, pick list, manifest) are documents a
 * browser opens: `shippingDocumentHref` names them under the console (routes/admin/shipping-document.ts).
 */

const orderPath = (number: string, rest: string) => `/admin/orders/${encodeURIComponent(number)}/${rest}`;

/** POST /admin/orders/{number}/shipments: these parcels now (left out: one parcel of everything left). */
export function createShipments(api: Api, number: string, parcels?: ParcelPlan[]) {
  return api.post<ConsoleOrder>(orderPath(number, "shipments"), parcels ? { parcels } : {});
}

/** POST /admin/orders/{number}/shipments/{id}/cancel: a parcel the carrier has not picked up. */
export function cancelShipment(api: Api, number: string, id: number) {
  return api.post<ConsoleOrder>(orderPath(number, `shipments/${id}/cancel`));
}

/** POST /admin/shipments: one parcel of everything left for each order; each answers its waybills or why not. */
export function shipOrders(api: Api, orders: string[]) {
  return api.post<BulkShipResult[]>("/admin/shipments", { orders });
}

/** GET /admin/shipments/remittances: delivered COD parcels against the cash the carriers reported. */
export function getRemittances(api: Api) {
  return api.get<RemittanceReport>("/admin/shipments/remittances");
}

/** The shipping documents the backend renders as PDFs, with the query each one takes. */
export const SHIPPING_DOCUMENTS = {
  "labels.pdf": ["ids", "orders"],
  "pick-list.pdf": ["orders"],
  "manifest.pdf": ["carrier", "day"],
} as const;
export type ShippingDocument = keyof typeof SHIPPING_DOCUMENTS;

export const isShippingDocument = (name: string | undefined): name is ShippingDocument =>
  name !== undefined && Object.hasOwn(SHIPPING_DOCUMENTS, name);

type DocumentQuery =
  | { document: "labels.pdf"; ids: number[] }
  | { document: "labels.pdf"; orders: string[] }
  | { document: "pick-list.pdf"; orders: string[] }
  | { document: "manifest.pdf"; carrier: CarrierId; day: string };

function queryOf(q: DocumentQuery): string {
  const params = new URLSearchParams();
  if ("ids" in q) params.set("ids", q.ids.join(","));
  if ("orders" in q) params.set("orders", q.orders.join(","));
  if ("carrier" in q) {
    params.set("carrier", q.carrier);
    params.set("day", q.day);
  }
  // Commas kept as typed: the backend splits on them, and the link reads as the order numbers.
  return params.toString().replace(/%2C/g, ",");
}

/**
 * Where the browser opens a shipping document: the console's own path, which the edge answers with
 * the staff session's cookie (a plain link carries no bearer token), fetching the backend's
 * GET /admin/shipments/{document}.
 */
export function shippingDocumentHref(locale: string, q: DocumentQuery): string {
  return `/${locale}/admin/shipments/${q.document}?${queryOf(q)}`;
}

/** The backend path of a document the console's route was asked for, with only the query it takes. */
export function shippingDocumentPath(document: ShippingDocument, search: URLSearchParams): string {
  const params = new URLSearchParams();
  for (const key of SHIPPING_DOCUMENTS[document]) {
    const value = search.get(key);
    if (value) params.set(key, value);
  }
  const query = params.toString().replace(/%2C/g, ",");
  return `/admin/shipments/${document}${query ? `?${query}` : ""}`;
}

/** POST /admin/shipments/remittances {carrier, csv}: a carrier's COD statement (waybill, amount, reference, date). */
export function importStatement(api: Api, carrier: CarrierId, csv: string) {
  return api.post<{ rows: number; recorded: number; report: RemittanceReport }>("/admin/shipments/remittances", {
    carrier,
    csv,
  });
}
