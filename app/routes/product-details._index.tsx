import type { Route } from "./+types/product-details._index";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "productFinder" });

export default function ProductFinder() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.productFinder.title")}</h1>
    </div>
  );
}
