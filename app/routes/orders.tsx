import type { Route } from "./+types/orders";
import { OrderList } from "../components/OrderList";
import { authMiddleware } from "../middleware/auth";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "orders", noindex: true });

export default function Orders() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.orders.title")}</h1>
      <OrderList />
    </div>
  );
}
