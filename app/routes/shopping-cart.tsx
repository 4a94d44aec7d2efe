import type { Route } from "./+types/shopping-cart";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "cart", noindex: true });

/** Rendered on the client only: the cart lives with the visitor's session storage. */
export async function clientLoader() {
  return null;
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  const t = useT();
  return <div className="container page"><p aria-busy="true">{t("app.loading")}</p></div>;
}

export default function ShoppingCart() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.cart.title")}</h1>
    </div>
  );
}
