import { Hono } from "hono";
import { promoInput } from "../../../contract/inputs";
import type { BackendEnv } from "../env";
import { ok, unprocessable } from "../http";
import { say } from "../../lib/i18n";
import { cartOwner } from "../identity";
import { cartContents, loadCart, setCartPromo } from "../services/cart";
import { evaluatePromo } from "../services/promo";
import { enforceLimits, requestNetwork } from "../services/rate-limit";
import { validate } from "../../lib/validate";

/** Promo codes: POST /promo-code/check, POST /promo-code/remove. */
export const promoRoutes = new Hono<BackendEnv>();

promoRoutes.post("/check", validate("json", promoInput), async (c) => {
  const owner = await cartOwner(c);
  // Every check is a guess at the code list: counted per network and per guest or account, so
  // codes cannot be enumerated (issue 17, L1).
  const ownerKey = owner.userId !== null ? `user:${owner.userId}` : `guest:${owner.guestId}`;
  await enforceLimits(c, "SHOP_LIMITER", [`promo:ip:${requestNetwork(c)}`, `promo:owner:${ownerKey}`]);
  const lang = c.get("lang");
  const contents = await cartContents(c.env.DB, owner, lang);
  const result = await evaluatePromo(c.env.DB, c.req.valid("json").code, contents.subtotal, owner, lang);
  if (!result.ok) {
    // The storefront resets the discount to 0 on a refusal; the cart agrees.
    if (contents.promoCode) await setCartPromo(c.env.DB, owner, null);
    throw unprocessable({ code: [result.message] }, result.message);
  }
  await setCartPromo(c.env.DB, owner, result.promo.code);
  const { code, discount_type, discount } = result.promo;
  return ok(
    c,
    { code, discount_type, discount, value: result.promo.value },
    {
      message: say(lang, { en: "Promo code applied.", ar: "تم تطبيق رمز الخصم." }),
    },
  );
});

promoRoutes.post("/remove", async (c) => {
  const owner = await cartOwner(c);
  await setCartPromo(c.env.DB, owner, null);
  return ok(c, await loadCart(c.env.DB, owner, c.get("lang")));
});
