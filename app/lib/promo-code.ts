import type { PromoCheck, PromoChecked } from "../../contract/cart";
import { browserApi } from "./api/browser";
import { ApiError } from "./api/errors";
import { handleBrowserError } from "./browser-errors";
import {
  cartFromResponse,
  cartListAtom,
  IDLE_PROMO,
  invalidPromo,
  promoAtom,
  validPromo,
  type CartResponse,
} from "../state/cart";
import {
  ensureGuestId,
  loadCart,
  promoAmount,
  promoTemplate,
  setCart,
  type CartContext,
  type CartResult,
} from "./cart";
import { translate } from "./i18n";

/*
 * The promo code's calls, apart from lib/cart.ts: only the cart and checkout pages show the field,
 * and lib/cart.ts is in every page's first load (the layout hydrates the cart).
 */

const handle = (ctx: CartContext, error: unknown): string =>
  handleBrowserError(error, ctx.locale, ctx.navigate).message;

/**
 * Spec §4 "Promo code": valid stores the type, value and 'Discount received {n} on total
 * payment'; invalid stores the server's message and resets the discount to 0.
 */
export async function checkPromoCode(
  ctx: CartContext,
  code: string,
  headers?: Record<string, string>,
): Promise<CartResult> {
  // Every code goes to the server, an emptied field too (spec §5: "validated by the server"): its
  // refusal takes an applied code off the cart, as any invalid code does (spec §4).
  const trimmed = code.trim();
  try {
    await ensureGuestId(ctx.locale);
    const body: PromoCheck = { code: trimmed };
    const res = await browserApi(ctx.locale).post<Partial<PromoChecked>>("/promo-code/check", body, { headers });
    const currency = ctx.store.get(cartListAtom).currency;
    // Spec §3: `discount` is the code's value for its type (a percentage for type 1).
    const { code: answered, discount_type, discount } = res.data ?? {};
    const answer = { code: answered, discount_type, discount };
    ctx.store.set(promoAtom, validPromo(answer, trimmed, promoAmount(ctx.locale, currency), promoTemplate(ctx.locale)));
    await loadCart(ctx);
    return { ok: true };
  } catch (error) {
    // A busy network was asked to prove it is people: the code was not checked, the cart keeps its state.
    // (Read by the form's useChallenge, lib/challenge.ts, which checks its shape: not loaded on every page.)
    if (error instanceof ApiError && (error.body as { challenge?: unknown } | undefined)?.challenge)
      return { ok: false, message: error.message, challenged: error };
    let message: string;
    // The server refused the code (spec §5: its message is shown); a 404 or anything else goes
    // through the common handler (spec §8: a 404 redirects to /error).
    if (error instanceof ApiError && (error.status === 422 || error.status === 400)) {
      message = error.errors.code?.join(", ") || error.message || translate(ctx.locale, "errors.default");
    } else {
      message = handle(ctx, error);
    }
    ctx.store.set(promoAtom, invalidPromo(ctx.store.get(promoAtom), trimmed, message));
    const cart = ctx.store.get(cartListAtom);
    ctx.store.set(cartListAtom, { ...cart, discount: 0, total: cart.subtotal, promo: null });
    return { ok: false, message };
  }
}

export async function removePromoCode(ctx: CartContext): Promise<CartResult> {
  try {
    const res = await browserApi(ctx.locale).post<CartResponse>("/promo-code/remove", {});
    ctx.store.set(promoAtom, IDLE_PROMO);
    setCart(ctx, cartFromResponse(res.data));
    return { ok: true };
  } catch (error) {
    return { ok: false, message: handle(ctx, error) };
  }
}
