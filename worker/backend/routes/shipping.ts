import { Hono } from "hono";
import type { BackendEnv } from "../env";
import { COURIER_SIGNATURE_HEADER } from "../services/shipping/courier";
import { receiveCourierWebhook } from "../services/shipping/webhooks";

/**
 * Carriers' calls to the shop: the local courier's signed webhook. The body is read raw, as it was
 * signed. The answer says only whether it was taken: a forger learns nothing else.
 */
export const shippingRoutes = new Hono<BackendEnv>();

/** The largest delivery the courier's app sends (500 events): anything bigger is refused unread. */
const BODY_MAX = 256 * 1024;

shippingRoutes.post("/webhooks/courier", async (c) => {
  const length = Number(c.req.header("content-length") ?? 0);
  if (length > BODY_MAX) return c.json({ message: "too large" }, 413);
  const raw = await c.req.text();
  if (raw.length > BODY_MAX) return c.json({ message: "too large" }, 413);
  const outcome = await receiveCourierWebhook(c.env, raw, c.req.header(COURIER_SIGNATURE_HEADER) ?? null);
  if (outcome.status !== 200) return c.json({ message: outcome.reason }, outcome.status);
  return c.json({ received: true, events: outcome.events, remittances: outcome.remittances });
});
