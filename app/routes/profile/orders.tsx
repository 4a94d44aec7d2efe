import type { Route } from "./+types/orders";
import type { ProfileHandle } from "./data";
import { OrderList, type OrderListData } from "../../components/OrderList";
import { listOrders } from "../../lib/api/orders";
import { handleServerError, serverApi } from "../../lib/api/server";
import { translate } from "../../lib/i18n";
import { isLocale } from "../../lib/locales";
import { pageMeta } from "../../lib/seo";
import { authMiddleware } from "../../middleware/auth";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const handle: ProfileHandle = { profileSection: "orders" };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

/**
 * The orders, server-rendered as the other sections are (the `auth` guard ran, so there is a
 * session): the page the server sends is the page the browser hydrates, not a loading line the
 * list then replaces. A failed read shows its message with a retry; a lost session goes to login.
 */
export async function loader({ context, request, params }: Route.LoaderArgs): Promise<OrderListData> {
  const locale = isLocale(params.locale) ? params.locale : "en";
  try {
    const res = await listOrders(await serverApi(context, request, locale));
    return { orders: Array.isArray(res.data) ? res.data : [] };
  } catch (error) {
    const handled = handleServerError(error, locale);
    return { message: handled.message || translate(locale, "orders.loadFailed") };
  }
}

export default function ProfileOrders({ loaderData }: Route.ComponentProps) {
  return <OrderList data={loaderData} />;
}
