import { Link } from "../lib/link";
import { useAtomValue } from "jotai";
import { useState } from "react";
import { toast } from "../client/toast";
import { useCart } from "../lib/cart";
import { removeProduct, updateQuantity } from "../lib/cart-lines";
import { formatMoney } from "../lib/money";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { variantQuery } from "../lib/variants";
import { invalidQuantityAtom, lineKey, maxQuantityOf, type CartLine as Line } from "../state/cart";
import { offlinePendingAtom } from "../state/offline-cart";
import { QuantityStepper } from "./QuantityStepper";

/** One cart line: image, name, unit price, quantity stepper, remove, and the line's total. */
export function CartLine({
  line,
  currency,
  onNavigate,
  compact = false,
}: {
  line: Line;
  currency: string;
  onNavigate?: () => void;
  compact?: boolean;
}) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const cart = useCart();
  const key = lineKey(line);
  const invalid = useAtomValue(invalidQuantityAtom).has(key);
  // Changed offline and not yet synced (lib/offline-cart).
  const pending = useAtomValue(offlinePendingAtom).has(key);
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const product = line.product;
  const name = product?.name ?? `#${line.product_id}`;
  // The line's variant opens chosen on its page.
  const href = product
    ? `${to(`/product-details/${encodeURIComponent(product.slug)}`)}${variantQuery(line.options)}`
    : undefined;
  const messageId = `line-msg-${key}${compact ? "-d" : ""}`;
  // The stepper never offers more than can be bought: min(stock, max_per_order), from the cart's
  // own read of D1. A line above it (stock sold since it was added) can only go down, straight to
  // what is left; a sold-out line can only be removed.
  const max = maxQuantityOf(line);
  const soldOut = product !== undefined && max < 1;
  const over = !soldOut && line.quantity > max;
  const bound = soldOut ? t("cart.soldOut") : over ? t("cart.onlyAvailable", { count: max }) : "";

  const change = async (quantity: number) => {
    setMessage("");
    const result = await updateQuantity(cart.ctx, line, Math.min(quantity, max));
    if (!result.ok) setMessage(result.message ?? t("cart.updateFailed"));
  };
  const remove = async () => {
    setBusy(true);
    const result = await removeProduct(cart.ctx, line);
    setBusy(false);
    if (result.ok) toast.success(t("cart.removed"));
  };

  return (
    <li
      className={`cart-line${compact ? " cart-line--compact" : ""}`}
      data-product-id={line.product_id}
      data-variant-id={line.variant_id}
    >
      <div className="cart-line__media">
        {product?.image ? (
          <img
            src={product.image}
            alt=""
            width={compact ? 64 : 96}
            height={compact ? 64 : 96}
            loading="lazy"
            decoding="async"
          />
        ) : null}
      </div>
      <div className="cart-line__info">
        {href ? (
          <Link to={href} className="cart-line__name" onClick={onNavigate}>
            {name}
          </Link>
        ) : (
          <span className="cart-line__name">{name}</span>
        )}
        {line.variant ? <p className="cart-line__variant">{line.variant}</p> : null}
        {product ? (
          <p className="cart-line__unit muted">
            <bdi>{product.model}</bdi>
            <span aria-hidden="true"> · </span>
            {t("cart.unitPrice", { price: formatMoney(product.price, currency, locale) })}
          </p>
        ) : null}
        <div className="cart-line__controls">
          <QuantityStepper
            value={line.quantity}
            max={max}
            name={name}
            disabled={busy || soldOut}
            onChange={(q) => void change(q)}
            describedBy={bound || invalid || message ? messageId : undefined}
          />
          <button
            type="button"
            className="link-button cart-line__remove"
            onClick={() => void remove()}
            disabled={busy}
            aria-label={t("cart.remove", { name })}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16">
              <path
                d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
            <span>{t("cart.removeShort")}</span>
          </button>
        </div>
        {pending ? <p className="cart-line__offline">{t("offlineCart.savedOffline")}</p> : null}
        {bound || invalid || message ? (
          <p id={messageId} className="cart-line__error" role="alert">
            {message || bound || t("cart.invalidQuantity")}
          </p>
        ) : null}
      </div>
      <p className="cart-line__total">
        <bdi>{formatMoney(line.line_total ?? (product ? product.price * line.quantity : 0), currency, locale)}</bdi>
      </p>
    </li>
  );
}
