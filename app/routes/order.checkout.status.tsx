import { lazy, Suspense } from "react";
import { Link } from "../lib/link";
import type { Route } from "./+types/order.checkout.status";
import { OrderDetails } from "../components/OrderDetails";
import { readOwnedOrder, type Owned } from "../lib/owned";
import { getOrder } from "../lib/api/orders";
import type { Order } from "../lib/orders";
import { pageMeta } from "../lib/seo";
import { isLocale } from "../lib/locales";
import { tabIdentity } from "../lib/tab-identity.server";
import { OrderLinkRefused } from "../components/OrderLinkRefused";
import { useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "../components/Stylesheet";
import cartCss from "../styles/cart.css?url";

/**
 * Cancel and returns carry the shop's form library: their chunk loads once the order
 * is on screen, not with the page (the details first; the bundle budget counts first loads).
 */
const OrderSelfService = lazy(() =>
  import("../components/OrderSelfService").then((m) => ({ default: m.OrderSelfService })),
);

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "checkoutStatus", noindex: true });

/** The server gives the page only the signed-in session's token, for a new tab (tab-identity.server.ts). */
export async function loader({ context }: Route.LoaderArgs) {
  return { identity: await tabIdentity(context) };
}

/**
 * The status of one order (`?order=<number>`). Read in the browser: a guest owns the order
 * through the guest id, or a message link's or tracking's grant, in session storage, which the
 * server cannot see.
 */
export async function clientLoader({ params, request, serverLoader }: Route.ClientLoaderArgs): Promise<Owned<Order>> {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const number = new URL(request.url).searchParams.get("order")?.trim() ?? "";
  if (!number) return { state: "missing" };
  return readOwnedOrder(
    locale,
    request.signal,
    number,
    async () => (await serverLoader()).identity,
    (api, access) => getOrder(api, number, request.signal, access),
  );
}
clientLoader.hydrate = true as const;

function StatusPage({ children }: { children: React.ReactNode }) {
  const t = useT();
  return (
    <div className="container page order-status-page">
      <Stylesheet href={cartCss} />
      <h1>{t("pages.checkoutStatus.title")}</h1>
      {children}
    </div>
  );
}

export function HydrateFallback() {
  const t = useT();
  return (
    <StatusPage>
      <p aria-busy="true">{t("app.loading")}</p>
    </StatusPage>
  );
}

export default function CheckoutStatus({ loaderData: load }: Route.ComponentProps) {
  const t = useT();
  const to = useLocalePath();

  return (
    <StatusPage>
      {load.state === "missing" ? (
        <div className="notice" role="status">
          <p>{t("orders.missingNumber")}</p>
          <Link to={to("/track-order")}>{t("orders.trackOrder")}</Link>
        </div>
      ) : null}
      {load.state === "refused" ? <OrderLinkRefused number={load.number} /> : null}
      {load.state === "error" ? (
        <div className="notice notice--danger" role="alert">
          <p>{load.message}</p>
        </div>
      ) : null}
      {load.state === "found" ? (
        <OrderDetails order={load.data}>
          {load.data.status === "pending_payment" || load.data.status === "payment_failed" ? (
            <p>
              <Link
                className="button button--primary"
                to={`${to("/proceed-payement")}?order=${encodeURIComponent(load.data.number)}`}
              >
                {t(load.data.payment_method === "cod" ? "orders.codConfirm" : "orders.payNow")}
              </Link>
            </p>
          ) : null}
          {load.data.self_service ? (
            <Suspense fallback={null}>
              <OrderSelfService order={load.data} />
            </Suspense>
          ) : null}
        </OrderDetails>
      ) : null}
    </StatusPage>
  );
}
