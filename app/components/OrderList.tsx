import { redirect, useRevalidator } from "react-router";
import { Link } from "../lib/link";
import { browserApi } from "../lib/api/browser";
import { handleBrowserError } from "../lib/browser-errors";
import { listOrders } from "../lib/api/orders";
import { translate } from "../lib/i18n";
import type { Locale } from "../lib/locales";
import { formatMoney } from "../lib/money";
import { formatDate, type Order } from "../lib/orders";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { OrderStatusBadge } from "./OrderStatusBadge";
import { Stylesheet } from "./Stylesheet";
import cartCss from "../styles/cart.css?url";

/** What the orders pages' `clientLoader` answers: the orders, or the message of a failed read. */
export type OrderListData = { orders: Order[]; message?: undefined } | { orders?: undefined; message: string };

/**
 * GET /orders with the session's token, for the `clientLoader` of `orders` and the profile's orders
 * tab (client only: the token lives in session storage). A 401 goes to login as everywhere else.
 */
export async function loadOrderList(locale: Locale, signal?: AbortSignal): Promise<OrderListData> {
  try {
    const res = await listOrders(browserApi(locale), signal);
    return { orders: Array.isArray(res.data) ? res.data : [] };
  } catch (error) {
    if (signal?.aborted) throw error;
    const handled = handleBrowserError(error, locale, (path) => {
      throw redirect(path);
    });
    return { message: handled.message || translate(locale, "orders.loadFailed") };
  }
}

/** The orders pages' loading line, also their `HydrateFallback` (so it stays in the route's chunk). */
export function OrdersLoading() {
  const t = useT();
  return (
    <p className="muted" aria-busy="true">
      <Stylesheet href={cartCss} />
      {t("app.loading")}
    </p>
  );
}

/**
 * The signed-in visitor's orders (GET /orders), newest first as the backend sends them. Rendered
 * by `orders` and by the profile's orders tab with what their `clientLoader` read; retry reads again.
 */
export function OrderList({ data }: { data: OrderListData }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const revalidator = useRevalidator();

  if (revalidator.state === "loading" && data.orders === undefined) return <OrdersLoading />;
  if (data.orders === undefined) {
    return (
      <div className="notice notice--danger" role="alert">
        <p>{t("orders.loadFailed")}</p>
        <button type="button" className="button" onClick={() => void revalidator.revalidate()}>
          {t("orders.retry")}
        </button>
      </div>
    );
  }
  const load = { orders: data.orders };
  if (load.orders.length === 0) {
    return (
      <div className="empty-state">
        <p>{t("orders.empty")}</p>
        <Link className="button button--primary" to={to("/products")}>
          {t("cart.browseProducts")}
        </Link>
      </div>
    );
  }
  return (
    <>
      <Stylesheet href={cartCss} />
      <ul className="order-list">
        {load.orders.map((order) => {
          const count = order.items.reduce((sum, item) => sum + item.quantity, 0);
          return (
            <li key={order.number} className="order-card">
              <div className="order-card__head">
                <h2 className="order-card__number">
                  <span className="visually-hidden">{t("orders.number")} </span>
                  <bdi>{order.number}</bdi>
                </h2>
                <OrderStatusBadge status={order.status} />
              </div>
              <dl className="order-card__facts">
                <div>
                  <dt>{t("orders.date")}</dt>
                  <dd>
                    <time dateTime={order.created_at}>{formatDate(order.created_at, locale)}</time>
                  </dd>
                </div>
                <div>
                  <dt>{t("orders.total")}</dt>
                  <dd>
                    <bdi>{formatMoney(order.total, order.currency, locale)}</bdi>
                  </dd>
                </div>
                <div>
                  <dt>{t("orders.itemsTitle")}</dt>
                  <dd>{count}</dd>
                </div>
              </dl>
              <Link
                className="button order-card__link"
                to={`${to("/order/checkout/status")}?order=${encodeURIComponent(order.number)}`}
                aria-label={t("orders.viewLabel", { number: order.number })}
              >
                {t("orders.view")}
              </Link>
            </li>
          );
        })}
      </ul>
    </>
  );
}
