import type { Route } from "./+types/orders";
import { loadOrderList, OrderList, OrdersLoading } from "../components/OrderList";
import { isLocale } from "../lib/locales";
import { authMiddleware } from "../middleware/auth";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "orders", noindex: true });

/** Client only: the orders are read with the session's token, which lives in session storage. */
export async function clientLoader({ params, request }: Route.ClientLoaderArgs) {
  return loadOrderList(isLocale(params.locale) ? params.locale : "en", request.signal);
}
clientLoader.hydrate = true as const;

function OrdersPage({ children }: { children: React.ReactNode }) {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.orders.title")}</h1>
      {children}
    </div>
  );
}

export function HydrateFallback() {
  return (
    <OrdersPage>
      <OrdersLoading />
    </OrdersPage>
  );
}

export default function Orders({ loaderData }: Route.ComponentProps) {
  return (
    <OrdersPage>
      <OrderList data={loaderData} />
    </OrdersPage>
  );
}
