import type { Order } from "../../../contract/orders";
import type { Cart } from "../../../contract/cart";
import type { Api } from "./client";

/**
 * The shopper's self-service on their order page: cancel before it ships, and ask for a
 * return after delivery. Each answers the order as its page shows it. `access`: the tab's grant
 * for the order (tab-storage.ts), when a message link or tracking opened it.
 */

const path = (number: string, action: string) => `/orders/${encodeURIComponent(number)}/${action}`;

/** POST /orders/{number}/cancel: the stock returns; a paid order is refunded in full. */
export function cancelMyOrder(api: Api, number: string, access?: string | null) {
  return api.post<Order>(path(number, "cancel"), undefined, { access });
}

export interface ReturnRequestLine {
  product_id: number;
  /** The line's variant: an order may hold several variants of one product. */
  variant_id?: number;
  quantity: number;
  reason?: string;
  note?: string | null;
}

/** POST /orders/{number}/returns: a quantity and a reason per line (quantity 0 leaves a line out). */
/**
 * POST /orders/{number}/returns; `refundAccount`, for an order paid in cash on delivery: the Saudi
 * IBAN and holder its refund is transferred to.
 */
export function requestReturn(
  api: Api,
  number: string,
  items: ReturnRequestLine[],
  access?: string | null,
  refundAccount?: { iban: string; name: string },
) {
  return api.post<Order>(
    path(number, "returns"),
    { items, ...(refundAccount ? { refund_account: refundAccount } : {}) },
    { access },
  );
}

/** What "order again" could not bring back as it was ordered (names in the page's language). */
export interface ReorderAnswer {
  reorder: { added: number; reduced: string[]; unavailable: string[] };
}

/** POST /orders/{number}/order-again: a cancelled order's lines back in the cart, as stock allows. */
export function orderAgain(api: Api, number: string, access?: string | null) {
  return api.post<Cart & ReorderAnswer>(path(number, "order-again"), undefined, { access });
}

/** POST /orders/{number}/shipments/{seq}/reschedule {day}: after a missed delivery, the day the shopper is home. */
export function rescheduleParcel(api: Api, number: string, seq: number, day: string, access?: string | null) {
  return api.post<Order>(path(number, `shipments/${seq}/reschedule`), { day }, { access });
}
