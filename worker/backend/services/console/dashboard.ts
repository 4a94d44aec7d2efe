import type {
  ConsoleDashboard,
  DashboardLowStock,
  DashboardOnTime,
  DashboardRecentOrder,
  DashboardTopProduct,
} from "../../../../contract/console-dashboard";
import type { Lang, StaffCaller } from "../../env";
import { roleAtLeast } from "../../../../contract/console";
import type { DashboardLatePayment } from "../../../../contract/console-orders";
import { PAID_OR_LATER } from "./customers";
import { owedLatePaymentsStatements } from "../payments/late-payments";
import { maskEmail, presentedStatus, type StoredOrderStatus } from "../orders/orders";
import { seesContactData } from "./staff";

/**
 * The console's dashboard. The shop's day is Riyadh's: Asia/Riyadh is UTC+3 all year
 * (no daylight saving), so its midnight is a fixed offset from UTC. Its week starts on Sunday.
 * Orders count from the moment they were placed, once paid or later; revenue is their totals less
 * refunds. Support sees the counts, the work waiting and the low stock, not the revenue.
 */
const RIYADH_OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC instants of the shop's midnight today and of the Sunday that started this week. */
export function shopPeriods(now: Date): { today: Date; week: Date } {
  const local = new Date(now.getTime() + RIYADH_OFFSET_MS);
  const localMidnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  const today = new Date(localMidnight - RIYADH_OFFSET_MS);
  const week = new Date(today.getTime() - local.getUTCDay() * DAY_MS);
  return { today, week };
}

/**
 * The periods today and this week are compared with: as much of yesterday, and of last week, as
 * has gone by of today and of this week (so a morning is not set against a whole day).
 */
export function previousPeriods(now: Date): { yesterday: [Date, Date]; lastWeek: [Date, Date] } {
  const { today, week } = shopPeriods(now);
  const yesterday = today.getTime() - DAY_MS;
  const lastWeek = week.getTime() - 7 * DAY_MS;
  return {
    yesterday: [new Date(yesterday), new Date(yesterday + (now.getTime() - today.getTime()))],
    lastWeek: [new Date(lastWeek), new Date(lastWeek + (now.getTime() - week.getTime()))],
  };
}

export const TOP_PRODUCTS_SHOWN = 5;
export const LOW_STOCK_SHOWN = 5;
export const RECENT_ORDERS_SHOWN = 8;

/** Who may see the shop's revenue: managers and owners. */
export const seesRevenue = (staff: Pick<StaffCaller, "role">): boolean => roleAtLeast(staff.role, "manager");

function onTime(rows: D1Result, from: Date): DashboardOnTime {
  const { delivered, on_time } = rows.results[0] as { delivered: number; on_time: number };
  return { from: from.toISOString(), delivered, on_time, share: delivered ? on_time / delivered : null };
}

export async function dashboard(
  db: D1Database,
  staff: Pick<StaffCaller, "role">,
  lang: Lang,
  now = new Date(),
): Promise<ConsoleDashboard> {
  const { today, week } = shopPeriods(now);
  const { yesterday, lastWeek } = previousPeriods(now);
  const figures = (from: Date, until?: Date) =>
    db
      .prepare(
        `SELECT COUNT(*) AS orders, COALESCE(SUM(total - refunded), 0) AS revenue
         FROM orders WHERE status IN ${PAID_OR_LATER} AND created_at >= ? AND (? IS NULL OR created_at < ?)`,
      )
      .bind(from.toISOString(), until?.toISOString() ?? null, until?.toISOString() ?? null);
  const name = lang === "ar" ? "name_ar" : "name_en";
  const [
    todayRow,
    weekRow,
    yesterdayRow,
    lastWeekRow,
    top,
    pending,
    lowCount,
    lowRows,
    recent,
    onTimeRow,
    lateCount,
    lateRows,
  ] = await db.batch([
    figures(today),
    figures(week),
    figures(...yesterday),
    figures(...lastWeek),
    // This week's best sellers by units, under the name the catalogue gives them now.
    db
      .prepare(
        `SELECT oi.product_id AS id, COALESCE(p.${name}, MAX(oi.${name})) AS name, SUM(oi.quantity) AS units,
           SUM(COALESCE(oi.net_total, oi.line_total)) AS revenue
         FROM order_items oi JOIN orders o ON o.id = oi.order_id LEFT JOIN products p ON p.id = oi.product_id
         WHERE o.status IN ${PAID_OR_LATER} AND o.created_at >= ?
         GROUP BY oi.product_id ORDER BY units DESC, revenue DESC, oi.product_id LIMIT ?`,
      )
      .bind(week.toISOString(), TOP_PRODUCTS_SHOWN),
    db.prepare("SELECT status, COUNT(*) AS n FROM orders WHERE status IN ('paid', 'processing') GROUP BY status"),
    db.prepare("SELECT COUNT(*) AS n FROM products WHERE active = 1 AND stock <= low_stock_threshold"),
    db
      .prepare(
        `SELECT id, slug, ${name} AS name, sku, stock, low_stock_threshold FROM products
         WHERE active = 1 AND stock <= low_stock_threshold ORDER BY stock ASC, id LIMIT ?`,
      )
      .bind(LOW_STOCK_SHOWN),
    db
      .prepare(
        "SELECT number, status, total, refunded, currency, email, created_at FROM orders ORDER BY created_at DESC, id DESC LIMIT ?",
      )
      .bind(RECENT_ORDERS_SHOWN),
    // Deliveries this week against the promise kept with each order: on time when the shop day
    // of delivered_at (UTC+3) is the promised day or before it.
    db
      .prepare(
        `SELECT COUNT(*) AS delivered,
             COALESCE(SUM(CASE WHEN date(delivered_at, '+3 hours') <= promised_by THEN 1 ELSE 0 END), 0) AS on_time
           FROM orders WHERE delivered_at IS NOT NULL AND promised_by IS NOT NULL AND delivered_at >= ?`,
      )
      .bind(week.toISOString()),
    // Money gateways took for closed orders, still owed back: every role sees it is waiting.
    ...owedLatePaymentsStatements(db),
  ]);
  const revenue = seesRevenue(staff);
  const period = (rows: D1Result, from: Date) => {
    const r = rows.results[0] as { orders: number; revenue: number };
    return { from: from.toISOString(), orders: r.orders, revenue: revenue ? r.revenue : null };
  };
  const byStatus = new Map((pending.results as { status: string; n: number }[]).map((r) => [r.status, r.n]));
  const full = seesContactData(staff);
  return {
    time_zone: "Asia/Riyadh",
    currency: "SAR",
    today: period(todayRow, today),
    week: period(weekRow, week),
    yesterday: { ...period(yesterdayRow, yesterday[0]), until: yesterday[1].toISOString() },
    last_week: { ...period(lastWeekRow, lastWeek[0]), until: lastWeek[1].toISOString() },
    top_products: (top.results as DashboardTopProduct[]).map((p) => ({ ...p, revenue: revenue ? p.revenue : null })),
    pending_shipments: { paid: byStatus.get("paid") ?? 0, processing: byStatus.get("processing") ?? 0 },
    low_stock: {
      count: (lowCount.results[0] as { n: number }).n,
      products: lowRows.results as DashboardLowStock[],
    },
    // The state every console list shows (services/orders/orders.ts `presentedStatus`), not the stored one.
    recent_orders: (recent.results as (DashboardRecentOrder & { refunded: number })[]).map(({ refunded, ...o }) => ({
      ...o,
      status: presentedStatus({ status: o.status as StoredOrderStatus, refunded, total: o.total }),
      email: full ? o.email : maskEmail(o.email),
    })),
    late_payments: {
      count: (lateCount.results[0] as { n: number }).n,
      orders: lateRows.results as DashboardLatePayment[],
    },
    on_time: onTime(onTimeRow, week),
  };
}
