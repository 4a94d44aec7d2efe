import type { Route } from "./+types/proceed-payement";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "proceedPayment", noindex: true });

export default function ProceedPayment() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.proceedPayment.title")}</h1>
    </div>
  );
}
