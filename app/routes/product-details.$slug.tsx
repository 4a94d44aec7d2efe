import type { Route } from "./+types/product-details.$slug";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "product" });

export default function ProductDetails() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.product.title")}</h1>
    </div>
  );
}
