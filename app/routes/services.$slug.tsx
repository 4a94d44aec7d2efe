import type { Route } from "./+types/services.$slug";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "service" });

export default function ServiceDetails() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.service.title")}</h1>
    </div>
  );
}
