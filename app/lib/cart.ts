import { useStore } from "jotai";
import { startTransition, useEffect, useMemo } from "react";
import { useLocation, useNavigate } from "react-router";
import {
  cartFromResponse,
  cartListAtom,
  cartLoadedAtom,
  EMPTY_CART,
  IDLE_PROMO,
  invalidQuantityAtom,
  lineKey,
  productsFlag,
  promoAtom,
  validPromo,
  withInvalid,
  withoutInvalid,
  type CartLine,
  type CartList,
  type CartResponse,
  type DiscountType,
  type LineRef,
} from "../state/cart";
import { browserApi, ownServerApi } from "./api/browser";
import { handleBrowserError } from "./browser-errors";
import { ApiError } from "./api/errors";
import { translate } from "./i18n";
import { localeOfPath, type Locale } from "./locales";
import { formatMoney, formatPercent } from "./money";
import { readStored, writeStored } from "./tab-storage";
import { useLocale } from "./use-locale";

/**
 * The cart's actions (spec §4 "Cart", "Promo code"): every change goes to the backend through
 * the one client and lands in the jotai atoms of app/state/cart.ts.
 */
type Store = ReturnType<typeof useStore>;

export interface CartContext {
  store: Store;
  locale: Locale;
  navigate: (to: string) => void;
  /** The current path, read when a rule needs it (the checkout-page redirect). */
  pathname: () => string;
}

/** What an action answers: whether it worked and, when not, the message to show. */
export interface CartResult {
  ok: boolean;
  message?: string;
  /** A refusal the caller shows itself: a busy network's challenge (lib/challenge.ts). */
  challenged?: unknown;
  /** No connection: the change was kept in the browser, to be synced (lib/offline-cart). */
  offline?: boolean;
}

let guestIdRequest: Promise<string | null> | null = null;

/**
 * Spec §4: if the visitor has neither a token nor a guest id when the cart is used, a guest id
 * is requested from the own server and stored. Concurrent callers share one request.
 */
export async function ensureGuestId(locale: Locale): Promise<string | null> {
  if (readStored("token")) return null;
  const existing = readStored("guestId");
  if (existing) return existing;
  guestIdRequest ??= (async () => {
    try {
      // The spec fixes this answer's shape as `{ guestId }`, outside the usual envelope.
      const body: object = await ownServerApi(locale).get("/cart/generate-guest-id");
      const guestId = "guestId" in body && typeof body.guestId === "string" ? body.guestId : null;
      if (!guestId) throw new ApiError(500, "");
      writeStored("guestId", guestId);
      return guestId;
    } finally {
      guestIdRequest = null;
    }
  })();
  return guestIdRequest;
}

/** Whether the visitor has an identity the backend can keep a cart for. */
export function hasCartIdentity(): boolean {
  return Boolean(readStored("token") || readStored("guestId"));
}

/** A refused quantity's message: the field's messages, else the server's, else ours. */
export function quantityMessage(error: unknown, locale: Locale): string {
  if (error instanceof ApiError) {
    const field = error.errors.quantity ?? error.errors.variant_id ?? error.errors.product_id ?? error.errors.productId;
    if (Array.isArray(field) && field.length) return field.join(", ");
    if (error.message) return error.message;
  }
  return translate(locale, "cart.invalidQuantity");
}

export function setCart(ctx: CartContext, cart: CartList): void {
  ctx.store.set(cartListAtom, cart);
  ctx.store.set(cartLoadedAtom, true);
  writeStored("products", productsFlag(cart));
  // The backend's invalid ids join the set the shopper's refused changes built.
  let invalid = ctx.store.get(invalidQuantityAtom);
  for (const id of cart.invalid) invalid = withInvalid(invalid, id);
  ctx.store.set(invalidQuantityAtom, invalid);
  // A code already on the cart (a reload, another tab) shows as valid with its message.
  const promo = ctx.store.get(promoAtom);
  if (cart.promo && promo.state !== "valid") {
    const { code, discount_type, discount, value } = cart.promo;
    ctx.store.set(
      promoAtom,
      validPromo(
        { code, discount_type, discount: value ?? discount },
        code,
        promoAmount(ctx.locale, cart.currency),
        promoTemplate(ctx.locale),
      ),
    );
  } else if (!cart.promo && promo.state === "valid") {
    ctx.store.set(promoAtom, IDLE_PROMO);
  }
}

export function handle(ctx: CartContext, error: unknown): string {
  return handleBrowserError(error, ctx.locale, ctx.navigate).message;
}

/** No answer arrived (offline): the offline cart's code, loaded only then. */
export const offlineCart = (error: unknown) =>
  error instanceof ApiError && error.status === 0 ? import("./offline-cart") : null;

/** GET /cart into the atoms. With no identity yet, the cart is simply empty. */
export async function loadCart(ctx: CartContext): Promise<CartResult> {
  if (!hasCartIdentity()) {
    setCart(ctx, EMPTY_CART);
    return { ok: true };
  }
  try {
    const res = await browserApi(ctx.locale).get<CartResponse>("/cart");
    setCart(ctx, cartFromResponse(res.data));
    return { ok: true };
  } catch (error) {
    // An identity the backend no longer knows (an expired guest id): start over as a new guest.
    if (error instanceof ApiError && error.status === 401 && !readStored("token")) {
      writeStored("guestId", null);
      setCart(ctx, EMPTY_CART);
      return { ok: true };
    }
    // Offline: the cart last seen in this tab, with the changes made since (lib/offline-cart).
    if ((await offlineCart(error))?.showOfflineCart(ctx)) return { ok: true };
    return { ok: false, message: handle(ctx, error) };
  }
}

/**
 * Adds to a line. Spec §4: a guest id is requested first when needed; after a successful add the
 * cart is reloaded; a failed add records the product id as having an invalid quantity. Spec §7:
 * the add goes through the own server's `POST /api/cart/add-product {productId, quantity}`, which
 * passes it on to the backend's `/cart/add-product` with the visitor's token or guest id.
 */
export async function addProductToCart(
  ctx: CartContext,
  ref: LineRef,
  quantity: number,
  seen?: CartLine,
): Promise<CartResult> {
  const key = lineKey(ref);
  try {
    await ensureGuestId(ctx.locale);
    // An undefined variant is left out of the JSON: a product of one variant is named alone.
    await ownServerApi(ctx.locale).post<CartResponse>("/cart/add-product", {
      productId: ref.product_id,
      variantId: ref.variant_id,
      quantity,
    });
  } catch (error) {
    const offline = await offlineCart(error);
    if (offline) return offline.saveOffline(ctx, ref, quantity, { add: true, seen });
    ctx.store.set(invalidQuantityAtom, withInvalid(ctx.store.get(invalidQuantityAtom), key));
    if (error instanceof ApiError && (error.status === 422 || error.status === 400))
      return { ok: false, message: quantityMessage(error, ctx.locale) };
    return { ok: false, message: handle(ctx, error) || translate(ctx.locale, "cart.invalidQuantity") };
  }
  ctx.store.set(invalidQuantityAtom, withoutInvalid(ctx.store.get(invalidQuantityAtom), key));
  await loadCart(ctx);
  return { ok: true };
}

/** n of the promo message: a percent for type 1, money for type 2. */
export function promoAmount(locale: Locale, currency: string) {
  return (type: DiscountType, discount: number): string =>
    type === 2 ? formatMoney(discount, currency, locale) : formatPercent(discount, locale);
}

export function promoTemplate(locale: Locale) {
  return (n: string): string => translate(locale, "cart.promo.discountReceived", { n });
}

/** After a paid order the cart starts afresh (the backend emptied it at checkout). */
export function clearCartState(ctx: CartContext): void {
  ctx.store.set(cartListAtom, EMPTY_CART);
  ctx.store.set(promoAtom, IDLE_PROMO);
  ctx.store.set(invalidQuantityAtom, new Set<number>());
  writeStored("products", "false");
}

/** The cart actions bound to this page's store, locale and navigation. */
export function useCart() {
  const store = useStore();
  const locale = useLocale();
  const navigate = useNavigate();
  const location = useLocation();
  const pathRef = location.pathname;
  return useMemo(() => {
    const ctx: CartContext = {
      store,
      locale,
      navigate: (to) => void navigate(to),
      pathname: () => (typeof window === "undefined" ? pathRef : window.location.pathname),
    };
    return {
      ctx,
      loadCart: () => loadCart(ctx),
      addProductToCart: (ref: LineRef, quantity: number, seen?: CartLine) => addProductToCart(ctx, ref, quantity, seen),
      clearCartState: () => clearCartState(ctx),
    };
  }, [store, locale, navigate, pathRef]);
}

/**
 * Hydrates the cart when the app starts with an identity in session storage (spec §3), and
 * again when the identity changes (sign-in merges the guest cart) or the locale does (product
 * names come back in the page's language).
 */
export function useCartHydration(): void {
  const { loadCart: load, ctx } = useCart();
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname) ?? ctx.locale;
  const identity = typeof window === "undefined" ? null : (readStored("token") ?? readStored("guestId"));
  useEffect(() => {
    if (identity || readStored("products") === "true") void load();
    // No cart yet: mark it loaded and empty as a low-priority update, so the header and drawer
    // re-render in slices after hydration instead of in one blocking task.
    else startTransition(() => setCartEmpty(ctx));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reload only when who or which language changes
  }, [identity, locale]);
}

function setCartEmpty(ctx: CartContext): void {
  ctx.store.set(cartListAtom, EMPTY_CART);
  ctx.store.set(cartLoadedAtom, true);
}
