import { useT } from "../lib/use-locale";

export interface AddToCartProps {
  productId: number;
  /** How many the shopper may pick: the lower of stock and the per-order maximum. */
  maxQuantity: number;
  quantity: number;
}

/**
 * The add-to-cart button of a product. Until the cart lands it is disabled with its reason;
 * the cart issue wires it to the cart atoms.
 */
export function AddToCart({ maxQuantity }: AddToCartProps) {
  const t = useT();
  const reason = maxQuantity < 1 ? t("product.outOfStock") : t("product.cartUnavailable");
  return (
    <div className="add-to-cart">
      <button type="button" className="button button--primary button--block" disabled aria-describedby="add-to-cart-reason">
        {t("product.addToCart")}
      </button>
      <p id="add-to-cart-reason" className="muted">{reason}</p>
    </div>
  );
}
