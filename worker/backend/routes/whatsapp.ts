import { Hono } from "hono";
import type { BackendEnv } from "../env";
import { notFound } from "../http";
import { sameVerifyToken, whatsappVerifyToken } from "../services/messages/whatsapp";
import { receiveWhatsAppWebhook } from "../services/messages/whatsapp-webhook";

/**
 * WhatsApp's webhook, registered in the Meta app as {PUBLIC_ORIGIN}/backend/webhooks/whatsapp
 * (services/messages/whatsapp-webhook.ts records what it reports).
 *
 * GET is Meta's subscription handshake: `hub.mode=subscribe`, `hub.verify_token` equal to
 * WHATSAPP_VERIFY_TOKEN (constant time) answers `hub.challenge` as plain text; anything else 403.
 * POST is a delivery, verified by `X-Hub-Signature-256` over the raw body (401 when wrong or
 * missing). Production without the secret or token answers 404, as if the hook did not exist.
 */
export const whatsappWebhookRoutes = new Hono<BackendEnv>();

whatsappWebhookRoutes.get("/", async (c) => {
  const expected = whatsappVerifyToken(c.env);
  if (!expected) throw notFound();
  const mode = c.req.query("hub.mode");
  const token = c.req.query("hub.verify_token") ?? "";
  const challenge = c.req.query("hub.challenge") ?? "";
  if (mode !== "subscribe" || !(await sameVerifyToken(expected, token)) || !/^[\w-]{1,200}$/.test(challenge))
    return c.text("Forbidden", 403);
  return c.text(challenge, 200);
});

whatsappWebhookRoutes.post("/", async (c) => {
  const raw = await c.req.text();
  const outcome = await receiveWhatsAppWebhook(c.env, raw, c.req.header("x-hub-signature-256"));
  if (outcome.status === 404) throw notFound();
  return c.json({ received: outcome.status === 200 }, outcome.status);
});
