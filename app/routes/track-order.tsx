import type { Route } from "./+types/track-order";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "trackOrder", noindex: true });

export default function TrackOrder() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.trackOrder.title")}</h1>
    </div>
  );
}
