/**
 * Orders and payments as the backend contract shapes them (brief: "Cart, checkout, orders,
 * payments"). Money is in minor units (halalas) with the order's currency.
 */
import { ORDER_STATUSES, type Order, type OrderStatus } from "../../contract/orders";
import { shopDay, shopMoment } from "../../contract/shop-time";

export { ORDER_STATUSES, type OrderStatus };

/** The happy path an order walks (DESIGN §6); `payment_failed` and `cancelled` leave it. */
export const ORDER_PROGRESS: readonly OrderStatus[] = ["pending_payment", "paid", "processing", "shipped", "delivered"];

/** An order, its lines and its delivery address, as the contract defines them. */
export type { Order, OrderAddress, OrderItem } from "../../contract/orders";

export function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

/** The message key of a status; an unknown status from a newer backend shows as it came. */
export function orderStatusKey(status: string): string | null {
  return isOrderStatus(status) ? `orders.statuses.${status}` : null;
}

/** The tone of a status badge: done, in progress, or a problem. */
export function orderStatusTone(status: string): "ok" | "progress" | "danger" | "neutral" {
  if (status === "paid" || status === "delivered" || status === "shipped" || status === "processing") return "ok";
  if (status === "pending_payment") return "progress";
  if (status === "payment_failed" || status === "cancelled") return "danger";
  if (status === "refunded") return "progress";
  return "neutral";
}

/** The payment states the backend answers (`partially_refunded`, `refunded` after refunds). */
export const PAYMENT_STATUSES = ["unpaid", "pending", "paid", "failed", "partially_refunded", "refunded"] as const;

/** The message key of a payment state; an unknown one shows as it came. */
export function paymentStatusKey(status: string): string | null {
  return (PAYMENT_STATUSES as readonly string[]).includes(status) ? `orders.paymentStatuses.${status}` : null;
}

/**
 * The step of the progress an order shows: a refunded order (a derived state) shows how far it got
 * (paid, shipped, delivered); its badge and the refund box say it was refunded.
 */
export function progressStatus(order: Pick<Order, "status" | "shipped_at" | "delivered_at">): string {
  if (order.status !== "refunded") return order.status;
  return order.delivered_at ? "delivered" : order.shipped_at ? "shipped" : "paid";
}

/** Which steps of the progress an order has reached (a failed or cancelled order has reached none past the first). */
export function reachedSteps(status: string): Set<OrderStatus> {
  const index = ORDER_PROGRESS.indexOf(status as OrderStatus);
  if (index < 0) return new Set<OrderStatus>(["pending_payment"]);
  return new Set(ORDER_PROGRESS.slice(0, index + 1));
}

/** A method as the backend may give it: an id string or an object with a name. */
export function methodName(method: Order["shipping_method"] | null | undefined): string {
  return method ?? "";
}

/**
 * A date in the visitor's language on the shop's clock (contract/shop-time.ts), with its time of
 * day and zone when `withTime`.
 */
export function formatDate(iso: string, locale: "en" | "ar", withTime = false): string {
  return withTime ? shopMoment(iso, locale) : shopDay(iso, locale);
}
