import { useAtomValue } from "jotai";
import { lazy, Suspense, useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { Link } from "../lib/link";
import type { Route } from "./+types/checkout";
import { pageMeta } from "../lib/seo";
import { useLocalePath, useT } from "../lib/use-locale";
import { cartListAtom, cartLoadedAtom } from "../state/cart";
import { Stylesheet } from "../components/Stylesheet";
import cartCss from "../styles/cart.css?url";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "checkout", noindex: true });

/** Rendered on the client only: the cart lives with the visitor's session storage. */
export async function clientLoader() {
  return null;
}
clientLoader.hydrate = true as const;

/** The loading line, shared by the hydration fallback and the page. */
function CheckoutLoading() {
  const t = useT();
  return <p aria-busy="true">{t("app.loading")}</p>;
}

/** The form waits for the cart anyway (client only): its code loads beside the cart, not first. */
const CheckoutForm = lazy(() =>
  import("../components/CheckoutForm").then(async (m) => {
    await m.ready;
    return { default: m.CheckoutForm };
  }),
);

export function HydrateFallback() {
  return (
    <div className="container page">
      <Stylesheet href={cartCss} />
      <CheckoutLoading />
    </div>
  );
}

export default function Checkout() {
  const t = useT();
  const to = useLocalePath();
  const navigate = useNavigate();
  const cart = useAtomValue(cartListAtom);
  const loaded = useAtomValue(cartLoadedAtom);
  const placed = useRef(false);
  const empty = cart.products.length === 0;

  // Spec §4: with an empty cart a checkout page has nothing to do; the visitor goes home. Once:
  // the page re-renders while that navigation loads, and a second navigate would cancel the first
  // (a loop of home-page data requests that never arrived).
  const leaving = useRef(false);
  useEffect(() => {
    if (!loaded || !empty || placed.current || leaving.current) return;
    leaving.current = true;
    void navigate(to("/"), { replace: true });
  }, [loaded, empty, navigate, to]);

  return (
    <div className="container page checkout">
      <Stylesheet href={cartCss} />
      <div className="page-head">
        <h1>{t("pages.checkout.title")}</h1>
        <Link to={to("/shopping-cart")}>{t("cart.viewCart")}</Link>
      </div>
      {!loaded || empty ? (
        <CheckoutLoading />
      ) : (
        <Suspense fallback={<CheckoutLoading />}>
          <CheckoutForm
            onPlaced={(number) => {
              placed.current = true;
              navigate(`${to("/proceed-payement")}?order=${encodeURIComponent(number)}`);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
