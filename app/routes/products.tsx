import type { Route } from "./+types/products";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "products" });

export default function Products() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.products.title")}</h1>
    </div>
  );
}
