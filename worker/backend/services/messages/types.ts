/**
 * The kinds of message the backend sends about an order (notifications.ts owes them, messenger.ts
 * names their purpose): a module of its own, so neither has to import the other for a name.
 */

/** What an order event owes its shopper (notifications.ts has the path of a message). */
export const ORDER_MESSAGE_KINDS = [
  "placed",
  "paid",
  "shipped",
  "out_for_delivery",
  "delivery_attempted",
  "delivered",
  "cancelled",
  "refunded",
  "return_received",
  "return_requested",
  "return_approved",
  "return_rejected",
] as const;

export type OrderMessageKind = (typeof ORDER_MESSAGE_KINDS)[number];

/** What staff may ask to be told of by email (staff.alert_orders, staff.alert_returns). */
export const STAFF_ALERT_KINDS = ["staff_order", "staff_return"] as const;

export type StaffAlertKind = (typeof STAFF_ALERT_KINDS)[number];
