import { Hono } from "hono";
import * as v from "valibot";
import { cartFields, cartSyncInput } from "../../../contract/inputs";
import type { BackendEnv } from "../env";
import { BackendError, ok } from "../http";
import { say } from "../../../contract/server/i18n";
import { cartOwner, mintGuestId, ownerKey } from "../identity";
import { addProductToCart, loadCart, removeProductFromCart, updateCartQuantity } from "../services/orders/cart";
import { enforceLimits, requestNetwork } from "../services/shared/rate-limit";
import { syncCartLines } from "../services/orders/cart-sync";
import { readInput, validate } from "../../../contract/server/validate";
import { msg } from "../messages";
import { cartContactInput, cartRestoreInput } from "../../../contract/cart-reminders";
import { INVALID_INPUT, inputMessages } from "../../../contract/server/input-messages";
import { setCartContact } from "../services/cart-reminders/cart-reminders";
import { restoreCart } from "../services/cart-reminders/restore";

/** Cart: POST /cart/guest-id, GET /cart, add-product, remove-product, update-quantity, sync. */
export const cartRoutes = new Hono<BackendEnv>();

/**
 * Mints a guest id (a random UUID) this backend will accept as a cart owner for 30 days (DESIGN §5).
 * The shop's own server asks for one on the visitor's behalf (GET /api/cart/generate-guest-id), so
 * whichever backend is configured records its own guests. Each id is a KV write and a key to a cart
 * and to checkout, so minting is limited per network (a visitor needs one per tab), at a ceiling a
 * carrier's shared address does not reach in a sale: what an id can do is limited per id.
 */
cartRoutes.post("/guest-id", async (c) => {
  c.header("cache-control", "no-store");
  await enforceLimits(c, "NETWORK_LIMITER", [`guest-id:ip:${requestNetwork(c)}`]);
  let guestId: string;
  try {
    guestId = await mintGuestId(c.env);
  } catch (error) {
    console.error(
      JSON.stringify({
        level: "error",
        event: "guest_id.failed",
        request_id: c.get("requestId"),
        error: String(error),
      }),
    );
    throw new BackendError(503, say(c.get("lang"), msg("orders.cart.guestIdsUnavailable")));
  }
  return ok(c, { guest_id: guestId });
});

cartRoutes.get("/", async (c) => {
  const owner = await cartOwner(c);
  return ok(c, await loadCart(c.env.DB, owner, c.get("lang")));
});

cartRoutes.post(
  "/add-product",
  validate("json", (m) => {
    const { product_id, variant_id, quantity } = cartFields(m);
    return v.object({ product_id, variant_id, quantity: v.optional(quantity, 1) });
  }),
  async (c) => {
    const owner = await cartOwner(c);
    const body = c.req.valid("json");
    const target = { productId: body.product_id, variantId: body.variant_id };
    await addProductToCart(c.env.DB, owner, target, body.quantity, c.get("lang"));
    return ok(c, await loadCart(c.env.DB, owner, c.get("lang")));
  },
);

cartRoutes.post(
  "/update-quantity",
  validate("json", (m) => v.object(cartFields(m, 0))),
  async (c) => {
    const owner = await cartOwner(c);
    const body = c.req.valid("json");
    const target = { productId: body.product_id, variantId: body.variant_id };
    await updateCartQuantity(c.env.DB, owner, target, body.quantity, c.get("lang"));
    return ok(c, await loadCart(c.env.DB, owner, c.get("lang")));
  },
);

// The spec spells this one's field `productId`; `variantId` names one line of a product of several.
cartRoutes.post(
  "/remove-product",
  validate("json", (m) => {
    const { product_id, variant_id } = cartFields(m);
    return v.object({ productId: product_id, variantId: variant_id });
  }),
  async (c) => {
    const owner = await cartOwner(c);
    const body = c.req.valid("json");
    await removeProductFromCart(c.env.DB, owner, { productId: body.productId, variantId: body.variantId });
    return ok(c, await loadCart(c.env.DB, owner, c.get("lang")));
  },
);

/**
 * What a browser changed while offline, replayed in one call when it is back (contract/cart.ts,
 * `CartSynced`): each line set to a quantity, clamped to what is left, with what became of it.
 * Counted per cart owner before the body is read: a browser syncs once per reconnection, so the
 * shop limiter's count is far above a shopper's and keeps a script from rewriting carts in a loop.
 */
cartRoutes.post("/sync", async (c) => {
  const owner = await cartOwner(c);
  await enforceLimits(c, "SHOP_LIMITER", [`cart-sync:owner:${ownerKey(owner)}`]);
  const { lines } = await readInput(c, "json", cartSyncInput);
  return ok(c, await syncCartLines(c.env.DB, owner, lines, c.get("lang")));
});

/**
 * POST /cart/contact { email?, phone?, consent } (contract/cart-reminders.ts): the checkout's
 * "remind me about my cart", asked apart from the order. Counted per cart owner and network: each
 * call writes a consent record.
 */
cartRoutes.post("/contact", async (c) => {
  const owner = await cartOwner(c);
  await enforceLimits(
    c,
    "WISHLIST_LIMITER",
    [`cart-contact:owner:${ownerKey(owner)}`, `cart-contact:ip:${requestNetwork(c)}`],
    msg("cartReminders.tooMany"),
  );
  const input = await readInput(c, "json", cartContactInput);
  const lang = c.get("lang");
  // A guest's yes needs an address to remind; an account's goes to the account's.
  if (owner.userId === null && input.consent && !input.email && !input.phone) {
    const text = inputMessages(lang).required("email");
    throw new BackendError(422, say(lang, INVALID_INPUT), { email: [text] });
  }
  const consent = await setCartContact(c.env, owner, input, lang, new URL(c.req.url).origin);
  return ok(c, { consent }, { message: say(lang, msg(consent ? "cartReminders.on" : "cartReminders.off")) });
});

/**
 * POST /cart/restore { token }: a reminder's link fills the visitor's own cart with the reminded
 * one (services/cart-reminders/restore.ts). The token is the only key: counted per network under
 * the limiter of what reveals data to a guesser; an unknown or expired one is a 404.
 */
cartRoutes.post("/restore", async (c) => {
  const owner = await cartOwner(c);
  await enforceLimits(c, "SHOP_LIMITER", [`cart-restore:ip:${requestNetwork(c)}`], msg("cartReminders.tooMany"));
  const { token } = await readInput(c, "json", cartRestoreInput);
  const lang = c.get("lang");
  const restored = await restoreCart(c.env, owner, token, lang);
  if (!restored) throw new BackendError(404, say(lang, msg("cartReminders.linkGone")));
  return ok(c, restored, { message: say(lang, msg("cartReminders.restored")) });
});
