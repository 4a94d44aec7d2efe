import { Hono } from "hono";
import * as v from "valibot";
import { checkoutInput, type InputMessages } from "../../../contract/inputs";
import { LIMITS } from "../../../contract/limits";
import type { BackendEnv } from "../env";
import { ok } from "../http";
import { cartOwner, ownerKey } from "../identity";
import { checkoutOptions, PAYMENT_METHODS, placeOrder, SHIPPING_METHODS } from "../services/orders/checkout";
import { hashedNetwork, requestNetwork } from "../services/shared/rate-limit";
import { limitShopCall } from "../services/challenge/policy";
import { publicOrigin } from "../../../contract/server/public-origin";
import { validate } from "../../../contract/server/validate";
import { presentOrder } from "../services/orders/shopper-orders";

/** Checkout: GET /checkout/options, POST /checkout. */
export const checkoutRoutes = new Hono<BackendEnv>();

/** The methods are this backend's own; the rest of the input is the contract's (contract/inputs.ts). */
const shippingMethod = (m: InputMessages) => v.picklist(SHIPPING_METHODS, m.invalid("shipping_method"));
const paymentMethod = (m: InputMessages) => v.picklist(PAYMENT_METHODS, m.invalid("payment_method"));

checkoutRoutes.get(
  "/options",
  validate("query", (m) =>
    v.object({
      shipping_method: v.optional(shippingMethod(m), "standard"),
      // The delivery city, optional: it picks the shipping zone (the rest of the country without it).
      city: v.optional(
        v.pipe(v.string(m.invalid("city")), v.trim(), v.maxLength(LIMITS.city, m.maxLength("city", LIMITS.city))),
      ),
    }),
  ),
  async (c) => {
    const owner = await cartOwner(c);
    const { shipping_method, city } = c.req.valid("query");
    return ok(c, await checkoutOptions(c.env.DB, c.env, owner, shipping_method, c.get("lang"), city));
  },
);

checkoutRoutes.post(
  "/",
  validate("json", (m) => checkoutInput(m, { shipping: shippingMethod(m), payment: paymentMethod(m) })),
  async (c) => {
    const owner = await cartOwner(c);
    const lang = c.get("lang");
    // An order holds stock: placing them is counted per shopper (refused past the limit) and per
    // network (challenged past it, and again while the network holds many unpaid orders).
    const network = requestNetwork(c);
    const passChallenge = await limitShopCall(c, "checkout", [`checkout:owner:${ownerKey(owner)}`], ownerKey(owner));
    // The links of the order's messages: the shop's configured origin, or in development and test
    // this worker's own URL; never the request's Origin header, which any client can write.
    const origin = {
      networkHash: await hashedNetwork(c.env, network),
      siteOrigin: publicOrigin(c.env, c.req.url),
      passChallenge,
    };
    const { order, created } = await placeOrder(c.env.DB, c.env, owner, c.req.valid("json"), lang, origin);
    return ok(c, await presentOrder(c.env.DB, order, lang), { status: created ? 201 : 200 });
  },
);
