import type { Route } from "./+types/payment-status";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "paymentStatus", noindex: true });

export default function PaymentStatus() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.paymentStatus.title")}</h1>
    </div>
  );
}
