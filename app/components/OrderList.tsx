import { useCallback, useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { browserApi, handleBrowserError } from "../lib/api/browser";
import { listOrders } from "../lib/api/orders";
import { formatMoney } from "../lib/money";
import { formatDate, type Order } from "../lib/orders";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { OrderStatusBadge } from "./OrderStatusBadge";
import "../styles/cart.css";

type Load = { state: "loading" } | { state: "ready"; orders: Order[] } | { state: "error"; message: string };

/**
 * The signed-in visitor's orders (GET /orders), newest first as the backend sends them. Rendered
 * by `orders` and by the profile's orders tab; it loads in the browser with the session's token.
 */
export function OrderList() {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const [load, setLoad] = useState<Load>({ state: "loading" });

  const fetchOrders = useCallback(
    async (signal?: AbortSignal) => {
      setLoad({ state: "loading" });
      try {
        const res = await listOrders(browserApi(locale), signal);
        setLoad({ state: "ready", orders: Array.isArray(res.data) ? res.data : [] });
      } catch (error) {
        if (signal?.aborted) return;
        const handled = handleBrowserError(error, locale, (path) => navigate(path));
        setLoad({ state: "error", message: handled.message || t("orders.loadFailed") });
      }
    },
    [locale, navigate, t],
  );

  useEffect(() => {
    const controller = new AbortController();
    void fetchOrders(controller.signal);
    return () => controller.abort();
  }, [fetchOrders]);

  if (load.state === "loading")
    return (
      <p className="muted" aria-busy="true">
        {t("app.loading")}
      </p>
    );
  if (load.state === "error") {
    return (
      <div className="notice notice--danger" role="alert">
        <p>{t("orders.loadFailed")}</p>
        <button type="button" className="button" onClick={() => void fetchOrders()}>
          {t("orders.retry")}
        </button>
      </div>
    );
  }
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
  );
}
