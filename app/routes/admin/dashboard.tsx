import { Link } from "../../lib/link";
import type { Route } from "./+types/dashboard";
import { roleAtLeast } from "../../../contract/console";
import { DataTable } from "../../components/console/DataTable";
import { OrderStatusBadge } from "../../components/console/OrderBadges";
import { getDashboard } from "../../lib/api/console-dashboard";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { consoleFormat } from "../../lib/console-format";
import { countOf } from "../../lib/plural";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.dashboard");

export async function loader(args: Route.LoaderArgs) {
  return consoleLoad(args, async (api, me) => ({
    dashboard: (await getDashboard(api)).data,
    // Inventory is a manager's page; support's low-stock list links to the products instead.
    inventory: roleAtLeast(me.role, "manager"),
  }));
}

type Trend = "up" | "down" | "same" | "none";

/** A figure against the same span of the period before: its trend and the change in whole percent. */
function change(now: number, before: number): { trend: Trend; percent: number } {
  if (before === 0) return { trend: now === 0 ? "same" : "none", percent: 0 };
  const percent = Math.round((Math.abs(now - before) / before) * 100);
  return { trend: percent === 0 ? "same" : now > before ? "up" : "down", percent };
}

const TREND_MARK: Record<Trend, string> = { up: "▲", down: "▼", same: "=", none: "•" };

/**
 * The dashboard: today's and this week's orders (and revenue, for managers), each against the same
 * span of yesterday and of last week, this week's best sellers, work waiting, low stock.
 */
export default function ConsoleDashboard({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const f = consoleFormat(locale);
  const { dashboard: d, inventory } = loaderData;
  const pending = d.pending_shipments.paid + d.pending_shipments.processing;
  const compared = (now: number, before: number, period: "yesterday" | "lastWeek") => {
    const c = change(now, before);
    return {
      trend: c.trend,
      text: t(`console.dashboardCompare.${period}.${c.trend}`, { percent: f.number(c.percent) }),
    };
  };
  const stats: {
    key: string;
    label: string;
    value: string;
    compared?: { trend: Trend; text: string };
    detail?: string;
  }[] = [
    {
      key: "orders-today",
      label: t("console.dashboard.ordersToday"),
      value: f.number(d.today.orders),
      compared: compared(d.today.orders, d.yesterday.orders, "yesterday"),
    },
    ...(d.today.revenue === null
      ? []
      : [
          {
            key: "revenue-today",
            label: t("console.dashboard.revenueToday"),
            value: f.money(d.today.revenue, d.currency),
            compared: compared(d.today.revenue, d.yesterday.revenue ?? 0, "yesterday"),
          },
        ]),
    {
      key: "orders-week",
      label: t("console.dashboard.ordersWeek"),
      value: f.number(d.week.orders),
      compared: compared(d.week.orders, d.last_week.orders, "lastWeek"),
    },
    ...(d.week.revenue === null
      ? []
      : [
          {
            key: "revenue-week",
            label: t("console.dashboard.revenueWeek"),
            value: f.money(d.week.revenue, d.currency),
            compared: compared(d.week.revenue, d.last_week.revenue ?? 0, "lastWeek"),
          },
        ]),
    { key: "pending", label: t("console.dashboard.pendingShipments"), value: f.number(pending) },
    { key: "low-stock", label: t("console.dashboard.lowStock"), value: f.number(d.low_stock.count) },
    // Delivered this week by the day promised when the order was placed (orders.promised_by).
    {
      key: "on-time",
      label: t("console.dashboard.onTime"),
      value: d.on_time.share === null ? "–" : `${f.number(Math.round(d.on_time.share * 100))}%`,
      detail:
        d.on_time.share === null
          ? t("console.dashboard.onTimeNone")
          : t("console.dashboard.onTimeDetail", {
              onTime: f.number(d.on_time.on_time),
              delivered: f.number(d.on_time.delivered),
            }),
    },
  ];
  return (
    <>
      <h1>{t("console.nav.dashboard")}</h1>
      <ul className="console-stats console-stats--compact" aria-describedby="dashboard-periods">
        {stats.map((s) => (
          <li key={s.key} className="console-stat" data-stat={s.key}>
            <div className="console-stat__label">{s.label}</div>
            <div className="console-stat__value">{s.value}</div>
            {s.compared ? (
              <div className="console-stat__change" data-trend={s.compared.trend}>
                <span aria-hidden="true">{TREND_MARK[s.compared.trend]} </span>
                {s.compared.text}
              </div>
            ) : null}
            {s.detail ? <div className="console-stat__change">{s.detail}</div> : null}
          </li>
        ))}
      </ul>
      <p id="dashboard-periods" className="console-hint">
        {t(d.today.revenue === null ? "console.dashboard.periodsNoteSupport" : "console.dashboard.periodsNote")}
      </p>

      {d.late_payments.count > 0 ? (
        <section className="console-panel console-alert" role="alert" aria-labelledby="dashboard-late">
          <h2 id="dashboard-late">{t("console.dashboard.latePaymentsTitle")}</h2>
          <p>{t("console.dashboard.latePaymentsLead", { count: f.number(d.late_payments.count) })}</p>
          <ul className="console-list">
            {d.late_payments.orders.map((o) => (
              <li key={o.payment_id}>
                <Link to={to(`/admin/orders/${o.number}`)} className="console-nowrap">
                  <bdi dir="ltr">{o.number}</bdi>
                </Link>
                <span className="console-list__value">{f.money(o.amount, o.currency)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <div className="console-columns">
        <section className="console-panel" aria-labelledby="dashboard-ship">
          <h2 id="dashboard-ship">{t("console.dashboard.toShip")}</h2>
          <ul className="console-list">
            <li>
              <Link to={to("/admin/orders?status=paid")}>{t("console.dashboard.paidWaiting")}</Link>
              <span className="console-list__value">{f.number(d.pending_shipments.paid)}</span>
            </li>
            <li>
              <Link to={to("/admin/orders?status=processing")}>{t("console.dashboard.processing")}</Link>
              <span className="console-list__value">{f.number(d.pending_shipments.processing)}</span>
            </li>
          </ul>
        </section>

        <section className="console-panel" aria-labelledby="dashboard-top">
          <h2 id="dashboard-top">{t("console.dashboardCompare.topProducts")}</h2>
          {d.top_products.length === 0 ? (
            <p className="console-hint">{t("console.dashboardCompare.noTopProducts")}</p>
          ) : (
            <ol className="console-list">
              {d.top_products.map((p) => (
                <li key={p.id}>
                  <Link to={to(`/admin/products/${p.id}`)}>
                    <bdi>{p.name}</bdi>
                  </Link>
                  <span className="console-list__value">
                    {countOf(t, locale, "console.dashboardCompare.unitsSold", p.units)}
                    {p.revenue === null ? null : ` · ${f.money(p.revenue, d.currency)}`}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>

        <section className="console-panel" aria-labelledby="dashboard-low">
          <h2 id="dashboard-low">{t("console.dashboard.lowStockTitle")}</h2>
          {d.low_stock.count === 0 ? (
            <p className="console-hint">{t("console.dashboard.noLowStock")}</p>
          ) : (
            <>
              <p className="console-hint">
                {t("console.dashboard.lowStockCount", { count: f.number(d.low_stock.count) })}
              </p>
              <ul className="console-list">
                {d.low_stock.products.map((p) => (
                  <li key={p.id}>
                    <Link to={to(inventory ? "/admin/inventory" : `/admin/products/${p.id}`)}>
                      <bdi>{p.name}</bdi>
                    </Link>
                    <span className="console-list__value">
                      {t("console.dashboard.stockLeft", {
                        stock: f.number(p.stock),
                        threshold: f.number(p.low_stock_threshold),
                      })}
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )}
          {inventory ? (
            <p>
              <Link to={to("/admin/inventory")}>{t("console.dashboard.toInventory")}</Link>
            </p>
          ) : null}
        </section>
      </div>

      <section className="console-panel" aria-labelledby="dashboard-recent">
        <h2 id="dashboard-recent">{t("console.dashboard.recentOrders")}</h2>
        {d.recent_orders.length === 0 ? (
          <p className="console-hint">{t("console.dashboard.noOrders")}</p>
        ) : (
          <DataTable
            caption={t("console.dashboard.recentOrders")}
            labelledBy="dashboard-recent"
            rows={d.recent_orders}
            rowKey={(o) => o.number}
            empty={t("console.dashboard.noOrders")}
            columns={[
              {
                label: t("console.dashboard.order"),
                cell: (o) => (
                  <Link to={to(`/admin/orders/${o.number}`)} className="console-nowrap">
                    <bdi dir="ltr">{o.number}</bdi>
                  </Link>
                ),
              },
              { label: t("console.dashboard.customer"), cell: (o) => <bdi dir="ltr">{o.email}</bdi> },
              { label: t("console.dashboard.status"), cell: (o) => <OrderStatusBadge status={o.status} /> },
              { label: t("console.dashboard.total"), numeric: true, cell: (o) => f.money(o.total, o.currency) },
              { label: t("console.dashboard.date"), cell: (o) => f.moment(o.created_at) },
            ]}
          />
        )}
      </section>
    </>
  );
}
