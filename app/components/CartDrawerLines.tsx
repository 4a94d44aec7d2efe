import { Link } from "../lib/link";
import { formatMoney } from "../lib/money";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { lineKey, type CartList } from "../state/cart";
import { CartLine } from "./CartLine";
import { CheckoutNeedsConnection, OfflineCartNotice } from "./OfflineCartNotice";

/**
 * What an open drawer shows once the cart has products: the lines (with their quantity steppers)
 * and the foot with the subtotal and the way on. The cart is only known after hydration, so this
 * is never part of the first render; CartDrawer loads it lazily, right after hydrating.
 */
export function CartDrawerLines({ cart, onNavigate }: { cart: CartList; onNavigate: () => void }) {
  const t = useT();
  const to = useLocalePath();
  const locale = useLocale();
  return (
    <>
      <div className="drawer__body">
        <OfflineCartNotice id="offline-notice-drawer" />
        <ul className="cart-lines" aria-label={t("cart.lines")}>
          {cart.products.map((line) => (
            <CartLine key={lineKey(line)} line={line} currency={cart.currency} onNavigate={onNavigate} compact />
          ))}
        </ul>
      </div>
      <div className="drawer__foot">
        <p className="cart-drawer__subtotal">
          <span>{t("cart.subtotal")}</span>
          <strong>
            <bdi>{formatMoney(cart.subtotal, cart.currency, locale)}</bdi>
          </strong>
        </p>
        {cart.discount > 0 ? (
          <p className="cart-drawer__subtotal cart-drawer__subtotal--discount">
            <span>{t("cart.discount")}</span>
            <span>
              −<bdi>{formatMoney(cart.discount, cart.currency, locale)}</bdi>
            </span>
          </p>
        ) : null}
        <CheckoutNeedsConnection>
          <Link className="button button--primary button--block" to={to("/checkout")} onClick={onNavigate}>
            {t("cart.checkout")}
          </Link>
        </CheckoutNeedsConnection>
        <Link className="button button--block" to={to("/shopping-cart")} onClick={onNavigate}>
          {t("cart.viewCart")}
        </Link>
      </div>
    </>
  );
}
