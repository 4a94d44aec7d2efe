import { useAtom } from "jotai";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { useLocalePath, useT } from "../lib/use-locale";
import { cartDrawerOpenAtom } from "../state/cart";

/**
 * The cart drawer. A modal <dialog>: the browser traps focus inside, Escape closes it, and focus
 * returns to the button that opened it.
 */
export function CartDrawer({ children }: { children?: React.ReactNode }) {
  const t = useT();
  const to = useLocalePath();
  const [open, setOpen] = useAtom(cartDrawerOpenAtom);
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      id="cart-drawer"
      ref={ref}
      className="drawer"
      aria-labelledby="cart-drawer-title"
      onClose={() => setOpen(false)}
      onClick={(e) => {
        if (e.target === e.currentTarget) setOpen(false);
      }}
    >
      <div className="drawer__panel">
        <div className="drawer__head">
          <h2 id="cart-drawer-title">{t("cart.title")}</h2>
          <button type="button" className="icon-button" onClick={() => setOpen(false)} aria-label={t("cart.close")}>
            <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20"><path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
          </button>
        </div>
        <div className="drawer__body">
          {children ?? <p className="muted">{t("cart.empty")}</p>}
        </div>
        <div className="drawer__foot">
          <Link className="button button--primary button--block" to={to("/shopping-cart")} onClick={() => setOpen(false)}>
            {t("cart.viewCart")}
          </Link>
        </div>
      </div>
    </dialog>
  );
}
