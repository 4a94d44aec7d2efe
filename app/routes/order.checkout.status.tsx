import type { Route } from "./+types/order.checkout.status";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "checkoutStatus", noindex: true });

export default function CheckoutStatus() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.checkoutStatus.title")}</h1>
    </div>
  );
}
