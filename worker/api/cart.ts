import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import * as v from "valibot";
import { mintGuestId } from "../backend/identity";
import { clientIp, withinLimits } from "../backend/services/rate-limit";
import { validate } from "../backend/validate";
import type { HonoEnv } from "../env";
import { callBackendOrUnavailable, readSession } from "./session";

/** Guest ids and the add-product proxy: /api/cart/generate-guest-id, /api/cart/add-product. */
export const cartApi = new Hono<HonoEnv>();

/**
 * Mints a guest id, recorded in KV for 30 days so the backend accepts it (DESIGN §5). Each one
 * is a KV write and a key to a cart and to checkout, so minting is limited per network (a
 * visitor needs one per tab); a GET because the spec fixes it so.
 */
cartApi.get("/generate-guest-id", async (c) => {
  c.header("cache-control", "no-store");
  const network = clientIp((name) => c.req.header(name));
  if (!(await withinLimits(c.env, "SHOP_LIMITER", [`guest-id:ip:${network}`]))) {
    c.header("retry-after", "60");
    return c.json({ message: "Too many attempts. Please wait a minute and try again." }, 429);
  }
  try {
    return c.json({ guestId: await mintGuestId(c.env) });
  } catch (error) {
    console.error(JSON.stringify({ level: "error", event: "guest_id.failed", error: String(error) }));
    return c.json({ message: "Guest ids are unavailable right now. Please try again." }, 503);
  }
});

const addProductBody = v.object({
  productId: v.pipe(
    v.number("The product id must be a number."),
    v.integer("The product id must be a whole number."),
    v.minValue(1, "The product id must be at least 1."),
  ),
  quantity: v.optional(
    v.pipe(
      v.number("The quantity must be a number."),
      v.integer("The quantity must be a whole number."),
      v.minValue(1, "The quantity must be at least 1."),
      v.maxValue(999, "The quantity must be at most 999."),
    ),
    1,
  ),
});

/**
 * Adds a product to the caller's cart through the backend (spec §7): the caller's bearer token
 * (or the signed-in session's) or guest id goes along, and the backend's answer comes back as is,
 * 422 with `errors.quantity` included.
 */
cartApi.post("/add-product", validate("json", addProductBody), async (c) => {
  c.header("cache-control", "no-store");
  const { productId, quantity } = c.req.valid("json");
  const headers = new Headers({ "content-type": "application/json" });
  const authorization = c.req.header("authorization");
  const guestId = c.req.header("guest-id");
  if (authorization) headers.set("authorization", authorization);
  else {
    const session = await readSession(c);
    if (session) headers.set("authorization", `Bearer ${session.token}`);
    else if (guestId) headers.set("guest-id", guestId);
  }
  const deviceType = c.req.header("device-type");
  if (deviceType) headers.set("device-type", deviceType);
  const res = await callBackendOrUnavailable(c, "/cart/add-product", {
    method: "POST",
    headers,
    body: JSON.stringify({ product_id: productId, quantity }),
  });
  return c.json(await res.json(), res.status as ContentfulStatusCode);
});
