import { Hono } from "hono";
import { messageChannelInput } from "../../../contract/message-channel";
import { readInput } from "../../../contract/server/validate";
import type { BackendEnv } from "../env";
import { ok } from "../http";
import { requireUser } from "../identity";
import { chooseMessageChannel, messageChannelState, savedMessage } from "../services/messages/message-channel";
import { enforceLimits } from "../services/shared/rate-limit";

/**
 * GET/POST /client/auth/message-channel (contract/message-channel.ts): how order messages reach
 * the signed-in shopper's phone, SMS or WhatsApp (services/messages/message-channel.ts).
 * Changes count against AUTH_LIMITER per account.
 */
export const messageChannelRoutes = new Hono<BackendEnv>();

messageChannelRoutes.get("/", async (c) => {
  const userId = await requireUser(c);
  return ok(c, await messageChannelState(c.env, userId, c.get("lang")));
});

messageChannelRoutes.post("/", async (c) => {
  const userId = await requireUser(c);
  await enforceLimits(c, "AUTH_LIMITER", [`message-channel:user:${userId}`]);
  const input = await readInput(c, "json", messageChannelInput);
  const lang = c.get("lang");
  const state = await chooseMessageChannel(c.env, userId, input.channel, input.consent, lang);
  return ok(c, state, { message: savedMessage(lang, state.channel) });
});
