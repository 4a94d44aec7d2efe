import { Hono, type MiddlewareHandler } from "hono";
import { promoInput } from "../../../contract/inputs";
import type { BackendEnv } from "../env";
import { ok, unprocessable } from "../http";
import { say } from "../../../contract/server/i18n";
import { cartOwner } from "../identity";
import { cartContents, loadCart, setCartPromo } from "../services/orders/cart";
import { evaluatePromo } from "../services/orders/promo";
import { limitShopCall } from "../services/challenge/policy";
import { validate } from "../../../contract/server/validate";
import { msg } from "../messages";

/** Promo codes: POST /promo-code/check, POST /promo-code/remove. */
export const promoRoutes = new Hono<BackendEnv>();

/**
 * A code refused as input (an emptied field answers 422 "Promo code is required.") takes an applied
 * code off the cart too, as a refused code does: the storefront resets the discount to 0 (spec §4).
 */
const refusalClearsCode: MiddlewareHandler<BackendEnv> = async (c, next) => {
  await next();
  if (c.res.status !== 422) return;
  const owner = await cartOwner(c).catch(() => null);
  if (owner) await setCartPromo(c.env.DB, owner, null);
};

promoRoutes.post("/check", refusalClearsCode, validate("json", promoInput), async (c) => {
  const owner = await cartOwner(c);
  // Every check is a guess at the code list: counted per guest or account (refused past the
  // limit) and per network (challenged past it), so codes cannot be enumerated.
  const ownerKey = owner.userId !== null ? `user:${owner.userId}` : `guest:${owner.guestId}`;
  await limitShopCall(c, "promo", [`promo:owner:${ownerKey}`], ownerKey);
  const lang = c.get("lang");
  const contents = await cartContents(c.env.DB, owner, lang);
  const result = await evaluatePromo(c.env.DB, c.req.valid("json").code, contents.subtotal, owner, lang);
  if (!result.ok) {
    // The storefront resets the discount to 0 on a refusal; the cart agrees (refusalClearsCode).
    throw unprocessable({ code: [result.message] }, result.message);
  }
  await setCartPromo(c.env.DB, owner, result.promo.code);
  // Spec §3/§7: `discount` is the code's value for its type (a percentage for type 1, halalas for
  // type 2, DESIGN §6); what it takes off this cart, in halalas, is `amount`.
  const { code, discount_type, value, discount: amount } = result.promo;
  return ok(
    c,
    { code, discount_type, discount: value, amount },
    {
      message: say(lang, msg("orders.promo.applied")),
    },
  );
});

promoRoutes.post("/remove", async (c) => {
  const owner = await cartOwner(c);
  await setCartPromo(c.env.DB, owner, null);
  return ok(c, await loadCart(c.env.DB, owner, c.get("lang")));
});
