import { useAtomValue } from "jotai";
import { useLocation } from "react-router";
import { Link } from "../lib/link";
import type { CartRestored } from "../../contract/cart-reminders";
import { CartRestoredNote } from "../components/CartRestoredNote";
import type { Route } from "./+types/shopping-cart";
import { CartLine } from "../components/CartLine";
import { CheckoutNeedsConnection, OfflineCartNotice } from "../components/OfflineCartNotice";
import { DeliveryPromise } from "../components/DeliveryPromise";
import { OrderSummary, type ShownTotals } from "../components/OrderSummary";
import { PromoCode } from "../components/PromoCode";
import { optionsTotals, useCheckoutOptions } from "../lib/checkout";
import { pageMeta } from "../lib/seo";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { cartListAtom, cartLoadedAtom, lineKey, totalQuantityAtom } from "../state/cart";
import { Stylesheet } from "../components/Stylesheet";
import { InstalmentLine } from "../components/InstalmentLine";
import { instalmentTexts } from "../lib/instalments";
import cartCss from "../styles/cart.css?url";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "cart", noindex: true });

/** Rendered on the client only: the cart lives with the visitor's session storage. */
export async function clientLoader() {
  return null;
}
clientLoader.hydrate = true as const;

/** The loading line, shared by the hydration fallback and the page. */
function CartLoading() {
  const t = useT();
  return (
    <p className="cart-loading" aria-busy="true">
      {t("app.loading")}
    </p>
  );
}

/**
 * The server's page: the cart's title and the loading line, kept as tall as the empty cart (the
 * state a first visit lands on, cart.css `.cart-loading`), so the footer does not move when the
 * cart arrives.
 */
export function HydrateFallback() {
  const t = useT();
  return (
    <div className="container page cart-page">
      <Stylesheet href={cartCss} />
      <div className="page-head">
        <h1>{t("pages.cart.title")}</h1>
      </div>
      <CartLoading />
    </div>
  );
}

export default function ShoppingCart() {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const cart = useAtomValue(cartListAtom);
  const loaded = useAtomValue(cartLoadedAtom);
  const count = useAtomValue(totalQuantityAtom);
  const empty = cart.products.length === 0;
  // A reminder's link brought this cart back (routes/cart.restore.tsx).
  const restored = (useLocation().state as { cartRestored?: CartRestored } | null)?.cartRestored;
  // Shipping and the VAT line come from the checkout options, read again when the cart changes.
  const revision = `${cart.total}|${count}|${cart.promo?.code ?? ""}`;
  const { options } = useCheckoutOptions(locale, revision, undefined, loaded && !empty);
  const totals: ShownTotals = options
    ? { ...optionsTotals(options), subtotal: cart.subtotal, discount: cart.discount }
    : {
        subtotal: cart.subtotal,
        discount: cart.discount,
        shipping: null,
        vat: null,
        total: cart.total,
        currency: cart.currency,
      };
  if (options) totals.total = cart.total + (totals.shipping ?? 0);

  return (
    <div className="container page cart-page">
      <Stylesheet href={cartCss} />
      <div className="page-head">
        <h1>{t("pages.cart.title")}</h1>
        {count > 0 ? <p className="muted">{t("cart.items", { count })}</p> : null}
      </div>
      <OfflineCartNotice id="offline-notice-page" heading="h2" />
      {restored && loaded ? <CartRestoredNote restored={restored} /> : null}
      {!loaded ? (
        <CartLoading />
      ) : empty ? (
        <div className="empty-state card">
          <p>{t("cart.empty")}</p>
          <p className="muted">{t("cart.emptyHint")}</p>
          <Link className="button button--primary" to={to("/products")}>
            {t("cart.browseProducts")}
          </Link>
        </div>
      ) : (
        <div className="cart-page__layout">
          <section className="cart-page__lines" aria-labelledby="cart-lines-title">
            <h2 id="cart-lines-title" className="visually-hidden">
              {t("cart.lines")}
            </h2>
            <ul className="cart-lines">
              {cart.products.map((line) => (
                <CartLine key={lineKey(line)} line={line} currency={cart.currency} />
              ))}
            </ul>
          </section>
          <div className="cart-page__aside">
            <OrderSummary totals={totals}>
              <PromoCode />
            </OrderSummary>
            {options ? (
              <InstalmentLine
                lines={instalmentTexts(
                  options.payment_methods.flatMap((m) => (m.instalments ? [m.instalments] : [])),
                  totals.total,
                  totals.currency,
                  locale,
                )}
              />
            ) : null}
            <DeliveryPromise />
            <CheckoutNeedsConnection>
              <Link className="button button--primary button--block" to={to("/checkout")}>
                {t("cart.proceedToCheckout")}
              </Link>
            </CheckoutNeedsConnection>
            <Link className="button button--ghost button--block" to={to("/products")}>
              {t("cart.continueShopping")}
            </Link>
          </div>
        </div>
      )}
    </div>
  );
}
