import type { ConsoleDashboard, DashboardLowStock, DashboardRecentOrder } from "../../../contract/console-dashboard";
import type { Lang, StaffCaller } from "../env";
import { roleAtLeast } from "../../../contract/console";
import type { DashboardLatePayment } from "../../../contract/console-orders";
import { PAID_OR_LATER } from "./console-customers";
import { owedLatePaymentsStatements } from "./late-payments";
import { maskEmail, presentedStatus, type StoredOrderStatus } from "./orders";
import { seesContactData } from "./staff";

/**
 * The console's dashboard (issue 20). The shop's day is Riyadh's: Asia/Riyadh is UTC+3 all year
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

export const LOW_STOCK_SHOWN = 5;
export const RECENT_ORDERS_SHOWN = 8;

/** Who may see the shop's revenue: managers and owners. */
export const seesRevenue = (staff: Pick<StaffCaller, "role">): boolean => roleAtLeast(staff.role, "manager");

export async function dashboard(
  db: D1Database,
  staff: Pick<StaffCaller, "role">,
  lang: Lang,
  now = new Date(),
): Promise<ConsoleDashboard> {
  const { today, week } = shopPeriods(now);
  const figures = (from: Date) =>
    db
      .prepare(
        `SELECT COUNT(*) AS orders, COALESCE(SUM(total - refunded), 0) AS revenue
         FROM orders WHERE status IN ${PAID_OR_LATER} AND created_at >= ?`,
      )
      .bind(from.toISOString());
  const name = lang === "ar" ? "name_ar" : "name_en";
  const [todayRow, weekRow, pending, lowCount, lowRows, recent, lateCount, lateRows] = await db.batch([
    figures(today),
    figures(week),
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
    pending_shipments: { paid: byStatus.get("paid") ?? 0, processing: byStatus.get("processing") ?? 0 },
    low_stock: {
      count: (lowCount.results[0] as { n: number }).n,
      products: lowRows.results as DashboardLowStock[],
    },
    // The state every console list shows (services/orders.ts `presentedStatus`), not the stored one.
    recent_orders: (recent.results as (DashboardRecentOrder & { refunded: number })[]).map(({ refunded, ...o }) => ({
      ...o,
      status: presentedStatus({ status: o.status as StoredOrderStatus, refunded, total: o.total }),
      email: full ? o.email : maskEmail(o.email),
    })),
    late_payments: {
      count: (lateCount.results[0] as { n: number }).n,
      orders: lateRows.results as DashboardLatePayment[],
    },
  };
}
