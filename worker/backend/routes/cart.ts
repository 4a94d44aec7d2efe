import { Hono } from "hono";
import * as v from "valibot";
import type { BackendEnv } from "../env";
import { ok } from "../http";
import { cartOwner } from "../identity";
import { addProductToCart, loadCart, removeProductFromCart, updateCartQuantity } from "../services/cart";
import { validate } from "../validate";

/** Cart: GET /cart, add-product, remove-product, update-quantity. */
export const cartRoutes = new Hono<BackendEnv>();

const productId = v.pipe(
  v.number("The product id must be a number."),
  v.integer("The product id must be a whole number."),
  v.minValue(1, "The product id must be at least 1."),
);
const quantity = (min: number) =>
  v.pipe(
    v.number("The quantity must be a number."),
    v.integer("The quantity must be a whole number."),
    v.minValue(min, `The quantity must be at least ${min}.`),
    v.maxValue(999, "The quantity must be at most 999."),
  );

cartRoutes.get("/", async (c) => {
  const owner = await cartOwner(c);
  return ok(c, await loadCart(c.env.DB, owner, c.get("lang")));
});

cartRoutes.post(
  "/add-product",
  validate("json", v.object({ product_id: productId, quantity: v.optional(quantity(1), 1) })),
  async (c) => {
    const owner = await cartOwner(c);
    const body = c.req.valid("json");
    await addProductToCart(c.env.DB, owner, body.product_id, body.quantity, c.get("lang"));
    return ok(c, await loadCart(c.env.DB, owner, c.get("lang")));
  },
);

cartRoutes.post(
  "/update-quantity",
  validate("json", v.object({ product_id: productId, quantity: quantity(0) })),
  async (c) => {
    const owner = await cartOwner(c);
    const body = c.req.valid("json");
    await updateCartQuantity(c.env.DB, owner, body.product_id, body.quantity, c.get("lang"));
    return ok(c, await loadCart(c.env.DB, owner, c.get("lang")));
  },
);

// The spec spells this one's field `productId`.
cartRoutes.post("/remove-product", validate("json", v.object({ productId })), async (c) => {
  const owner = await cartOwner(c);
  await removeProductFromCart(c.env.DB, owner, c.req.valid("json").productId);
  return ok(c, await loadCart(c.env.DB, owner, c.get("lang")));
});
