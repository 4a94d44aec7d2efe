import type { DashboardLatePayment } from "./console-orders";
/**
 * The console's dashboard: GET /admin/dashboard. Days and weeks are the shop's, in
 * Asia/Riyadh (UTC+3, no daylight saving); a week starts on Sunday, as the Saudi working week does.
 * Orders count once they are paid or later (paid, processing, shipped, delivered).
 */

/** Orders and revenue over a period. `revenue` is null for support, who sees counts only. */
export interface DashboardPeriod {
  /** ISO start of the period (UTC), the shop's midnight. */
  from: string;
  orders: number;
  /** Paid totals less refunds, in halalas; null when the role may not see revenue. */
  revenue: number | null;
}

/** A period compared with today or this week: the same span of time, a day or a week earlier. */
export interface DashboardPreviousPeriod extends DashboardPeriod {
  /** ISO end of the period (UTC, excluded): as far into it as now is into today or this week. */
  until: string;
}

/** One of this week's best sellers (by units, paid orders and later). */
export interface DashboardTopProduct {
  id: number;
  name: string;
  units: number;
  /** What was paid for them (discounts taken off, VAT in), in halalas; null for support. */
  revenue: number | null;
}

export interface DashboardLowStock {
  id: number;
  slug: string;
  name: string;
  sku: string;
  stock: number;
  low_stock_threshold: number;
}

export interface DashboardRecentOrder {
  number: string;
  status: string;
  total: number;
  currency: string;
  /** Masked for support. */
  email: string;
  created_at: string;
}

/**
 * Deliveries against their promise this week: orders whose `delivered_at` falls in the week and
 * that carried a promise (`promised_by`, kept when they were placed), and how many of them arrived
 * on or before the promised shop day. Orders placed before promises existed are not counted.
 */
export interface DashboardOnTime {
  /** ISO start of the period (UTC), the shop's Sunday midnight. */
  from: string;
  delivered: number;
  on_time: number;
  /** on_time / delivered, 0 to 1; null when nothing with a promise was delivered. */
  share: number | null;
}

export interface ConsoleDashboard {
  time_zone: "Asia/Riyadh";
  currency: string;
  today: DashboardPeriod;
  week: DashboardPeriod;
  /** Yesterday up to this time of day, and last week up to this point of the week. */
  yesterday: DashboardPreviousPeriod;
  last_week: DashboardPreviousPeriod;
  top_products: DashboardTopProduct[];
  /** Paid orders waiting to be prepared, and orders being prepared: both still to ship. */
  pending_shipments: { paid: number; processing: number };
  low_stock: { count: number; products: DashboardLowStock[] };
  recent_orders: DashboardRecentOrder[];
  /** Money gateways took after the shop had closed the payment, not yet refunded: the oldest first. */
  late_payments: { count: number; orders: DashboardLatePayment[] };
  /** This week's deliveries against their promise. */
  on_time: DashboardOnTime;
}
