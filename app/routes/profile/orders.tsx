import type { Route } from "./+types/orders";
import type { ProfileHandle } from "./data";
import { loadOrderList, OrderList, OrdersLoading } from "../../components/OrderList";
import { isLocale } from "../../lib/locales";
import { pageMeta } from "../../lib/seo";
import { authMiddleware } from "../../middleware/auth";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const handle: ProfileHandle = { profileSection: "orders" };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

/** Client only, as on /orders: the orders are read with the session's token. */
export async function clientLoader({ params, request }: Route.ClientLoaderArgs) {
  return loadOrderList(isLocale(params.locale) ? params.locale : "en", request.signal);
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return <OrdersLoading />;
}

export default function ProfileOrders({ loaderData }: Route.ComponentProps) {
  return <OrderList data={loaderData} />;
}
