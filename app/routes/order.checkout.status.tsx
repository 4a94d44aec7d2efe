import { useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import type { Route } from "./+types/order.checkout.status";
import { OrderDetails } from "../components/OrderDetails";
import { browserApi, handleBrowserError } from "../lib/api/browser";
import { ApiError } from "../lib/api/errors";
import { getOrder } from "../lib/api/orders";
import type { Order } from "../lib/orders";
import { pageMeta } from "../lib/seo";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import "../styles/cart.css";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "checkoutStatus", noindex: true });

type Load =
  { state: "loading" } | { state: "ready"; order: Order } | { state: "missing" } | { state: "error"; message: string };

/**
 * The status of one order (`?order=<number>`). Read in the browser: a guest owns the order
 * through the guest id in session storage.
 */
export default function CheckoutStatus() {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const number = params.get("order")?.trim() ?? "";
  const [load, setLoad] = useState<Load>({ state: "loading" });

  useEffect(() => {
    if (!number) return setLoad({ state: "missing" });
    const controller = new AbortController();
    setLoad({ state: "loading" });
    getOrder(browserApi(locale), number, controller.signal)
      .then((res) => setLoad({ state: "ready", order: res.data }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        // Not this visitor's order, or none: say so here rather than leave for the error page.
        if (error instanceof ApiError && (error.status === 404 || error.status === 403))
          return setLoad({ state: "missing" });
        setLoad({ state: "error", message: handleBrowserError(error, locale, (p) => navigate(p)).message });
      });
    return () => controller.abort();
  }, [number, locale, navigate]);

  return (
    <div className="container page order-status-page">
      <h1>{t("pages.checkoutStatus.title")}</h1>
      {load.state === "loading" ? <p aria-busy="true">{t("app.loading")}</p> : null}
      {load.state === "missing" ? (
        <div className="notice" role="status">
          <p>{number ? t("orders.notFound") : t("orders.missingNumber")}</p>
          <Link to={to("/track-order")}>{t("orders.trackOrder")}</Link>
        </div>
      ) : null}
      {load.state === "error" ? (
        <div className="notice notice--danger" role="alert">
          <p>{load.message}</p>
        </div>
      ) : null}
      {load.state === "ready" ? (
        <OrderDetails order={load.order}>
          {load.order.status === "pending_payment" || load.order.status === "payment_failed" ? (
            <p>
              <Link
                className="button button--primary"
                to={`${to("/proceed-payement")}?order=${encodeURIComponent(load.order.number)}`}
              >
                {t("orders.payNow")}
              </Link>
            </p>
          ) : null}
        </OrderDetails>
      ) : null}
    </div>
  );
}
