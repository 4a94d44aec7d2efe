import type { Cart, CartSynced } from "../../../contract/cart";
import type { ProductSummary } from "../../../contract/catalogue";
import { toast } from "../../client/toast";
import {
  cartFromResponse,
  cartListAtom,
  cartLoadedAtom,
  EMPTY_CART,
  lineKey,
  maxQuantityOf,
  productsFlag,
  type CartLine,
  type CartList,
  type LineRef,
} from "../../state/cart";
import { offlineConflictsAtom, offlinePendingAtom } from "../../state/offline-cart";
import { browserApi } from "../api/browser";
import { ApiError } from "../api/errors";
import { ensureGuestId, loadCart, setCart, type CartContext, type CartResult } from "../cart";
import { translate } from "../i18n";
import { readStored, writeStored } from "../tab-storage";
import {
  coalesce,
  detectConflicts,
  pendingKeys,
  quantityIn,
  syncBody,
  withChanges,
  type IntendedLine,
  type OfflineChange,
} from "./queue";
import { readChanges, readSnapshot, writeChanges, writeSnapshot } from "./store";
import { CART_SYNC_TAG } from "./sync-tag";

/**
 * The cart offline (docs/OPERATIONS.md, "The cart offline"): a change the backend could not be
 * reached for is kept in the browser (./store.ts) and shown at once, marked "Saved offline"; when
 * the connection returns (the `online` event, the service worker's Background Sync message, or the
 * next page load) the queue is replayed in one POST /cart/sync and what did not go as asked is
 * explained. Loaded only when a change fails for want of a connection or a queue waits, so none of
 * it is in a page's first load.
 */

/** The fields of a product a cart line shows: a product page's whole product is far larger. */
function summaryOf(p: ProductSummary): ProductSummary {
  const { id, slug, sku, model, name, brand, category, price, compare_at_price, currency, stock } = p;
  const { in_stock, max_per_order, image, images, is_featured, is_new } = p;
  return {
    ...{ id, slug, sku, model, name, brand, category, price, compare_at_price, currency, stock },
    ...{ in_stock, max_per_order, image: images[0] ?? image, images: [], is_featured, is_new },
  };
}

/** The cart as the shopper sees it offline: the backend's last cart with the queue applied. */
function show(ctx: CartContext, changes: readonly OfflineChange[], base: CartList): void {
  const cart = withChanges(base, changes);
  ctx.store.set(cartListAtom, cart);
  ctx.store.set(cartLoadedAtom, true);
  ctx.store.set(offlinePendingAtom, pendingKeys(changes));
  writeStored("products", productsFlag(cart));
}

/** Asks the service worker for a Background Sync, where the browser has it (Chromium). */
export function requestBackgroundSync(): void {
  type Syncing = ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };
  navigator.serviceWorker?.ready
    .then((registration) => (registration as Syncing).sync?.register(CART_SYNC_TAG))
    .catch(() => undefined);
}

/**
 * Keeps a change the backend could not be reached for: `quantity` is what the line is set to, or
 * with `add` how many are added to what it holds (bounded by the stock last seen). `seen` is the
 * line as its page showed it, for a product not yet in the cart.
 */
export function saveOffline(
  ctx: CartContext,
  ref: LineRef,
  quantity: number,
  opts: { add?: boolean; seen?: CartLine } = {},
): CartResult {
  const changes = readChanges();
  const shown = ctx.store.get(cartListAtom);
  // The first change offline: what the cart shows is the backend's last answer, the base.
  if (!changes.length) writeSnapshot(shown);
  const held = shown.products.find((l) => lineKey(l) === lineKey(ref));
  const line = held ?? opts.seen;
  const current = quantityIn(shown, ref);
  const target = opts.add ? Math.min(current + quantity, line ? maxQuantityOf(line) : Infinity) : quantity;
  if (opts.add && target <= current) return { ok: false, message: translate(ctx.locale, "cart.invalidQuantity") };
  const kept: CartLine | undefined = line?.product
    ? {
        product_id: line.product_id,
        variant_id: line.variant_id,
        variant: line.variant ?? null,
        options: line.options ?? {},
        quantity: target,
        product: summaryOf(line.product),
      }
    : undefined;
  changes.push({
    id: crypto.randomUUID(),
    ref: { product_id: ref.product_id, variant_id: ref.variant_id },
    quantity: target,
    line: kept,
    at: Date.now(),
  });
  writeChanges(changes);
  show(ctx, changes, readSnapshot() ?? EMPTY_CART);
  requestBackgroundSync();
  return { ok: true, offline: true };
}

/** Offline with a queue or a cart seen before: shows it, and says whether there was one. */
export function showOfflineCart(ctx: CartContext): boolean {
  const changes = readChanges();
  const snapshot = readSnapshot();
  if (!changes.length && !snapshot) return false;
  show(ctx, changes, snapshot ?? EMPTY_CART);
  return true;
}

let replaying: Promise<void> | null = null;

/** Replays the queue, once at a time; a replay asked for while one runs waits for it. */
export function replayOfflineCart(ctx: CartContext): Promise<void> {
  replaying ??= replay(ctx).finally(() => (replaying = null));
  return replaying;
}

async function replay(ctx: CartContext): Promise<void> {
  const changes = readChanges();
  if (!changes.length) return;
  const intended = coalesce(changes);
  let synced: CartSynced;
  try {
    synced = await send(ctx, intended);
  } catch (error) {
    // Still offline, busy or failing: the queue stays for the next try (online, sync, page load).
    if (!(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500) {
      showOfflineCart(ctx);
      return;
    }
    // Refused as a whole (a queue the backend cannot read): it would be refused again, so it goes.
    console.warn("[offline-cart] the replay was refused", error.status, error.message);
    writeChanges([]);
    ctx.store.set(offlinePendingAtom, new Set<number>());
    await loadCart(ctx);
    toast.error(translate(ctx.locale, "offlineCart.failed"), { id: "offline-cart" });
    return;
  }
  // Only what was sent leaves the queue: a change made while the replay was under way stays.
  const sent = new Set(changes.map((c) => c.id));
  const left = readChanges().filter((c) => !sent.has(c.id));
  writeChanges(left);
  const after = cartFromResponse(synced.cart);
  writeSnapshot(after);
  setCart(ctx, after);
  if (left.length) show(ctx, left, after);
  else ctx.store.set(offlinePendingAtom, new Set<number>());
  const conflicts = detectConflicts(intended, after, synced.outcomes);
  ctx.store.set(offlineConflictsAtom, conflicts);
  if (conflicts.length)
    toast.error(translate(ctx.locale, "offlineCart.conflictsToast"), { id: "offline-cart", duration: 8000 });
  else toast.success(translate(ctx.locale, "offlineCart.synced"), { id: "offline-cart" });
}

/** POST /cart/sync with the tab's identity: a guest id first when the changes were made without one. */
async function send(ctx: CartContext, intended: IntendedLine[]): Promise<CartSynced> {
  for (let attempt = 0; ; attempt++) {
    try {
      await ensureGuestId(ctx.locale);
      return (await browserApi(ctx.locale).post<CartSynced>("/cart/sync", syncBody(intended))).data;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return lineByLine(ctx, intended);
      // A guest id the backend no longer knows (its cart expired): once more as a new guest.
      if (attempt === 0 && error instanceof ApiError && error.status === 401 && !readStored("token")) {
        writeStored("guestId", null);
        continue;
      }
      throw error;
    }
  }
}

/**
 * A backend without POST /cart/sync (another one behind BACKEND_URL, README "Swapping the
 * backend"): each line is set in turn with the spec's update-quantity, which sets too, so this
 * is as safe to repeat. A line it refuses (422: more than is left, no longer sold) stays as the
 * backend has it, and the comparison with the cart after explains it, without outcomes.
 */
async function lineByLine(ctx: CartContext, intended: IntendedLine[]): Promise<CartSynced> {
  const api = browserApi(ctx.locale);
  for (const { ref, quantity } of intended) {
    try {
      await api.post("/cart/update-quantity", { product_id: ref.product_id, variant_id: ref.variant_id, quantity });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 422) throw error;
    }
  }
  return { cart: (await api.get<Cart>("/cart")).data, outcomes: [] };
}
