import { useAtomValue, useSetAtom } from "jotai";
import { useState } from "react";
import { toast } from "../client/toast";
import { useCart } from "../lib/cart";
import { useT } from "../lib/use-locale";
import { cartDrawerOpenAtom, invalidQuantityAtom, lineKey, type CartLine } from "../state/cart";
import { Stylesheet } from "./Stylesheet";
import cartCss from "../styles/cart.css?url";

export interface AddToCartProps {
  productId: number;
  /** The chosen variant of a product of several (a product of one may leave it out). */
  variantId?: number;
  /** How many the shopper may pick: the lower of stock and the per-order maximum. */
  maxQuantity: number;
  /** The quantity the product page's picker holds. */
  quantity: number;
  /** The line as the page shows it (name, price, image), for the cart to show when added offline. */
  seen?: CartLine;
}

/**
 * The add-to-cart button of a product: adds the picked quantity (spec §4: a guest id first when
 * needed, the cart reloaded after, an invalid quantity recorded when refused). A success opens
 * the drawer; a refusal shows the server's reason beside the button.
 */
export function AddToCart({ productId, variantId, maxQuantity, quantity, seen }: AddToCartProps) {
  const t = useT();
  const cart = useCart();
  const openDrawer = useSetAtom(cartDrawerOpenAtom);
  const ref = { product_id: productId, variant_id: variantId };
  const invalid = useAtomValue(invalidQuantityAtom).has(lineKey(ref));
  const amount = Math.max(1, Math.min(Math.floor(quantity) || 1, Math.max(1, maxQuantity)));
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState("");
  const soldOut = maxQuantity < 1;

  const add = async () => {
    setBusy(true);
    setMessage("");
    const result = await cart.addProductToCart(ref, amount, seen);
    setBusy(false);
    if (result.ok) {
      toast.success(t(result.offline ? "offlineCart.savedToast" : "cart.added"));
      openDrawer(true);
    } else {
      setMessage(result.message ?? t("cart.invalidQuantity"));
    }
  };

  const reason = soldOut ? t("product.outOfStock") : message || (invalid ? t("cart.invalidQuantity") : "");
  return (
    <div className="add-to-cart">
      <Stylesheet href={cartCss} />
      <button
        type="button"
        className="button button--primary add-to-cart__button"
        disabled={soldOut || busy}
        aria-busy={busy}
        aria-describedby={reason ? `add-to-cart-reason-${productId}` : undefined}
        onClick={() => void add()}
      >
        {busy ? t("cart.adding") : t("product.addToCart")}
      </button>
      <p
        id={`add-to-cart-reason-${productId}`}
        className={soldOut ? "muted add-to-cart__reason" : "add-to-cart__reason add-to-cart__reason--error"}
        role={soldOut ? undefined : "alert"}
      >
        {reason}
      </p>
    </div>
  );
}
