import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import * as v from "valibot";
import { cartFields, type InputMessages } from "../../contract/inputs";
import { validate } from "../../contract/server/validate";
import type { HonoEnv } from "../env";
import { callBackendOrUnavailable } from "../backend-client";
import { readSession } from "./session";

/** Guest ids and the add-product proxy: /api/cart/generate-guest-id, /api/cart/add-product. */
export const cartApi = new Hono<HonoEnv>();

/**
 * A guest id for this visitor, minted by the configured backend (POST /cart/guest-id of the
 * contract), so an external backend records its own guests; its answer (a 429 with retry-after,
 * a 503) comes back as is. A GET because the spec fixes it so.
 */
cartApi.get("/generate-guest-id", async (c) => {
  c.header("cache-control", "no-store");
  const res = await callBackendOrUnavailable(c, "/cart/guest-id", { method: "POST" });
  const body = (await res.json().catch(() => ({}))) as { data?: { guest_id?: unknown }; message?: unknown };
  const retryAfter = res.headers.get("retry-after");
  if (retryAfter) c.header("retry-after", retryAfter);
  if (res.ok && typeof body.data?.guest_id === "string") return c.json({ guestId: body.data.guest_id });
  const message =
    typeof body.message === "string" ? body.message : "Guest ids are unavailable right now. Please try again.";
  return c.json({ message }, res.ok ? 502 : (res.status as ContentfulStatusCode));
});

/**
 * The spec names the own server's field `productId`; its rules are the contract's cart fields.
 * `variantId` names the chosen variant of a product of several.
 */
const addProductBody = (m: InputMessages) => {
  const { product_id, variant_id, quantity } = cartFields(m);
  return v.object({ productId: product_id, variantId: variant_id, quantity: v.optional(quantity, 1) });
};

/**
 * Adds a product to the caller's cart through the backend (spec §7): the caller's bearer token
 * (or the signed-in session's) or guest id goes along, and the backend's answer comes back as is,
 * 422 with `errors.quantity` included.
 */
cartApi.post("/add-product", validate("json", addProductBody), async (c) => {
  c.header("cache-control", "no-store");
  const { productId, variantId, quantity } = c.req.valid("json");
  const headers = new Headers({ "content-type": "application/json" });
  const authorization = c.req.header("authorization");
  const guestId = c.req.header("guest-id");
  if (authorization) headers.set("authorization", authorization);
  else {
    const session = await readSession(c);
    if (session) headers.set("authorization", `Bearer ${session.token}`);
    else if (guestId) headers.set("guest-id", guestId);
  }
  // The browser knows its own device type best (viewport and pointer); the transport fills it in otherwise.
  const deviceType = c.req.header("device-type");
  if (deviceType === "1" || deviceType === "2") headers.set("device-type", deviceType);
  const res = await callBackendOrUnavailable(c, "/cart/add-product", {
    method: "POST",
    headers,
    body: JSON.stringify({ product_id: productId, ...(variantId ? { variant_id: variantId } : {}), quantity }),
  });
  return c.json(await res.json(), res.status as ContentfulStatusCode);
});
