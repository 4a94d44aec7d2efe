import {
  cartFromResponse,
  cartListAtom,
  invalidQuantityAtom,
  lineKey,
  withInvalid,
  withLineQuantity,
  withoutInvalid,
  type CartResponse,
  type LineRef,
} from "../state/cart";
import { browserApi } from "./api/browser";
import { ApiError } from "./api/errors";
import { handle, offlineCart, quantityMessage, setCart, type CartContext, type CartResult } from "./cart";
import { translate } from "./i18n";
import { localePath } from "./use-locale";

/*
 * A cart line's own changes (its quantity stepper and remove button, components/CartLine.tsx),
 * apart from lib/cart.ts: only the cart page and the open drawer show lines, and lib/cart.ts is
 * in every page's first load (the layout hydrates the cart).
 */

function isCheckoutPage(pathname: string): boolean {
  return /^\/(en|ar)\/checkout\/?$/.test(pathname);
}

function leaveCheckoutIfEmpty(ctx: CartContext): void {
  if (ctx.store.get(cartListAtom).products.length === 0 && isCheckoutPage(ctx.pathname()))
    ctx.navigate(localePath(ctx.locale, "/"));
}

/** Sets a line's quantity at once and asks the backend; on refusal the line rolls back. */
export async function updateQuantity(ctx: CartContext, ref: LineRef, quantity: number): Promise<CartResult> {
  const key = lineKey(ref);
  const before = ctx.store.get(cartListAtom);
  ctx.store.set(cartListAtom, withLineQuantity(before, ref, quantity));
  try {
    const res = await browserApi(ctx.locale).post<CartResponse>("/cart/update-quantity", {
      product_id: ref.product_id,
      variant_id: ref.variant_id,
      quantity,
    });
    ctx.store.set(invalidQuantityAtom, withoutInvalid(ctx.store.get(invalidQuantityAtom), key));
    setCart(ctx, cartFromResponse(res.data));
    leaveCheckoutIfEmpty(ctx);
    return { ok: true };
  } catch (error) {
    ctx.store.set(cartListAtom, before);
    const offline = await offlineCart(error);
    if (offline) return offline.saveOffline(ctx, ref, quantity);
    if (error instanceof ApiError && (error.status === 422 || error.status === 400)) {
      ctx.store.set(invalidQuantityAtom, withInvalid(ctx.store.get(invalidQuantityAtom), key));
      return { ok: false, message: quantityMessage(error, ctx.locale) };
    }
    return { ok: false, message: handle(ctx, error) || translate(ctx.locale, "cart.updateFailed") };
  }
}

/** Removes a line. Spec §4: if the cart becomes empty on a checkout page, go to the locale home. */
export async function removeProduct(ctx: CartContext, ref: LineRef): Promise<CartResult> {
  const before = ctx.store.get(cartListAtom);
  ctx.store.set(cartListAtom, withLineQuantity(before, ref, 0));
  try {
    const res = await browserApi(ctx.locale).post<CartResponse>("/cart/remove-product", {
      productId: ref.product_id,
      variantId: ref.variant_id,
    });
    ctx.store.set(invalidQuantityAtom, withoutInvalid(ctx.store.get(invalidQuantityAtom), lineKey(ref)));
    setCart(ctx, cartFromResponse(res.data));
    leaveCheckoutIfEmpty(ctx);
    return { ok: true };
  } catch (error) {
    ctx.store.set(cartListAtom, before);
    const offline = await offlineCart(error);
    if (offline) return offline.saveOffline(ctx, ref, 0);
    return { ok: false, message: handle(ctx, error) };
  }
}
