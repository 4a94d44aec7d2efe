import { Hono } from "hono";
import * as v from "valibot";
import type { BackendEnv } from "../env";
import { ok } from "../http";
import { cartOwner, ownerKey } from "../identity";
import { checkoutOptions, PAYMENT_METHODS, placeOrder, SHIPPING_METHODS } from "../services/checkout";
import { presentOrder } from "../services/orders";
import { enforceLimits, hashedNetwork, requestNetwork } from "../services/rate-limit";
import { validate } from "../validate";

/** Checkout: GET /checkout/options, POST /checkout. */
export const checkoutRoutes = new Hono<BackendEnv>();

const text = (label: string, max: number) =>
  v.pipe(
    v.string(`${label} is required.`),
    v.trim(),
    v.minLength(1, `${label} is required.`),
    v.maxLength(max, `${label} has at most ${max} characters.`),
  );
const optionalText = (label: string, max: number) =>
  v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(max, `${label} has at most ${max} characters.`))));

const addressSchema = v.object({
  name: text("The name", 100),
  phone: v.pipe(
    v.string("The phone number is required."),
    v.trim(),
    v.regex(/^\+?[0-9 ()-]{7,20}$/, "Enter a valid phone number."),
  ),
  city: text("The city", 80),
  district: text("The district", 80),
  street: text("The street", 160),
  building: optionalText("The building", 40),
  postal_code: optionalText("The postal code", 12),
  notes: optionalText("The notes", 500),
});

const checkoutSchema = v.object({
  idempotency_key: v.pipe(
    v.string("An idempotency key is required."),
    v.regex(/^[A-Za-z0-9_.:-]{8,100}$/, "The idempotency key must be 8 to 100 letters, digits or -_.:"),
  ),
  // Optional for a signed-in visitor: the account's email is used (see placeOrder).
  email: v.optional(
    v.pipe(v.string("The email is required."), v.trim(), v.email("Enter a valid email address."), v.maxLength(254)),
  ),
  address: v.optional(addressSchema),
  address_id: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  shipping_method: v.picklist(SHIPPING_METHODS, `Choose a shipping method: ${SHIPPING_METHODS.join(", ")}.`),
  payment_method: v.picklist(PAYMENT_METHODS, `Choose a payment method: ${PAYMENT_METHODS.join(", ")}.`),
});

checkoutRoutes.get(
  "/options",
  validate(
    "query",
    v.object({
      shipping_method: v.optional(
        v.picklist(SHIPPING_METHODS, `Choose a shipping method: ${SHIPPING_METHODS.join(", ")}.`),
        "standard",
      ),
    }),
  ),
  async (c) => {
    const owner = await cartOwner(c);
    return ok(c, await checkoutOptions(c.env.DB, c.env, owner, c.req.valid("query").shipping_method, c.get("lang")));
  },
);

checkoutRoutes.post("/", validate("json", checkoutSchema), async (c) => {
  const owner = await cartOwner(c);
  const lang = c.get("lang");
  // An order holds stock: placing them is counted per network and per shopper.
  const network = requestNetwork(c);
  await enforceLimits(c, "SHOP_LIMITER", [`checkout:ip:${network}`, `checkout:owner:${ownerKey(owner)}`]);
  const origin = { networkHash: await hashedNetwork(c.env, network) };
  const { order, created } = await placeOrder(c.env.DB, c.env, owner, c.req.valid("json"), lang, origin);
  return ok(c, await presentOrder(c.env.DB, order, lang), { status: created ? 201 : 200 });
});
