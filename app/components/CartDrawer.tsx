import { useAtom, useAtomValue } from "jotai";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link } from "../lib/link";
import { whenIdle } from "../client/idle";
import { useLocalePath, useT } from "../lib/use-locale";
import { cartDrawerOpenAtom, cartListAtom, totalQuantityAtom } from "../state/cart";
import cartCss from "../styles/cart.css?url";
import { loadStylesheet } from "./Stylesheet";

/**
 * The drawer is a closed <dialog> at first paint, so its stylesheet is not render-blocking: it
 * loads once the browser is idle after hydration, or when the drawer opens if that is sooner
 * (docs/PERFORMANCE.md: the home page's HTML and CSS fit in 14 KB). Its frame is in app.css, so an
 * early opening shows a styled drawer while cart.css arrives. Pages that show cart UI in their
 * content (cart, checkout, product) declare cart.css themselves (`<Stylesheet>`) and get it in
 * their first load as before; React knows both by their href, so the sheet loads once.
 */
const loadCartStyles = () => loadStylesheet(cartCss);

/**
 * The lines (with their quantity steppers) and the subtotal are only seen once the drawer opens,
 * and the cart is only known after hydration, so their code is not in the first load either: the
 * drawer starts loading it once the browser is idle after hydration (client/idle.ts), well before
 * anyone opens it. The dialog, its focus handling and the empty state stay here, so opening is
 * instant; should the lines still be on their way, the open drawer says it is loading.
 */
const loadLines = () => import("./CartDrawerLines");
const CartDrawerLines = lazy(() => loadLines().then((m) => ({ default: m.CartDrawerLines })));

/**
 * The cart drawer. A modal <dialog>: the browser traps focus inside, Escape closes it, and focus
 * returns to the button that opened it. The cart it shows is loaded by the layout (routes/shop.tsx).
 */
export function CartDrawer() {
  const t = useT();
  const to = useLocalePath();
  const [open, setOpen] = useAtom(cartDrawerOpenAtom);
  const cart = useAtomValue(cartListAtom);
  const count = useAtomValue(totalQuantityAtom);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const cancelStyles = whenIdle(loadCartStyles);
    const cancelLines = whenIdle(() => void loadLines());
    return () => {
      cancelStyles();
      cancelLines();
    };
  }, []);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open) loadCartStyles();
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  // The body (lines or the empty state) is rendered from the first opening on, and kept so the
  // drawer still shows it while it slides out. Until then the dialog is closed and shows nothing:
  // on the server, every page rendered it for nobody, a share of each fresh render's CPU
  // (docs/PERFORMANCE.md, "A fresh render within the CPU budget"). The head stays, so the dialog
  // keeps its name (aria-labelledby) and the close button is where focus lands on opening.
  const [opened, setOpened] = useState(false);
  if (open && !opened) setOpened(true);

  const close = () => setOpen(false);
  const empty = cart.products.length === 0;

  return (
    // A click on the backdrop closes the drawer; keyboards close it with Escape, which <dialog> handles.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
    <dialog
      id="cart-drawer"
      ref={ref}
      className="drawer cart-drawer"
      aria-labelledby="cart-drawer-title"
      onClose={close}
      onClick={(e) => {
        if (e.target === e.currentTarget) close();
      }}
    >
      <div className="drawer__panel">
        <div className="drawer__head">
          <h2 id="cart-drawer-title">
            {t("cart.title")}
            {count > 0 ? (
              <span className="cart-drawer__count">
                {" "}
                (<bdi>{count}</bdi>)
              </span>
            ) : null}
          </h2>
          {/* Its cross, and the empty cart's picture, are drawn by app.css: the drawer is in every page's first load. */}
          <button
            type="button"
            className="icon-button icon-button--close"
            onClick={close}
            aria-label={t("cart.close")}
          />
        </div>
        {!opened ? null : empty ? (
          <div className="drawer__body">
            <div className="empty-state">
              <span className="empty-state__icon empty-state__icon--cart" aria-hidden="true" />
              <p>{t("cart.empty")}</p>
              <Link className="button" to={to("/products")} onClick={close}>
                {t("cart.continueShopping")}
              </Link>
            </div>
          </div>
        ) : (
          <Suspense
            fallback={
              <div className="drawer__body">
                <p className="muted" role="status" aria-busy="true">
                  {t("cart.loadingLines")}
                </p>
              </div>
            }
          >
            <CartDrawerLines cart={cart} onNavigate={close} />
          </Suspense>
        )}
      </div>
    </dialog>
  );
}
