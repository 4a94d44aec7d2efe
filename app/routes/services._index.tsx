import type { Route } from "./+types/services._index";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "services" });

export default function Services() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.services.title")}</h1>
    </div>
  );
}
