import { Hono } from "hono";
import { say } from "../../../contract/server/i18n";
import { publicOrigin } from "../../../contract/server/public-origin";
import { readInput } from "../../../contract/server/validate";
import { stockAlertInput } from "../../../contract/stock-alerts";
import type { BackendEnv } from "../env";
import { deferOf, ok } from "../http";
import { authenticate } from "../identity";
import { msg } from "../messages";
import { enforceLimits, requestNetwork } from "../services/shared/rate-limit";
import { subscribeToStockAlert } from "../services/stock-alerts/subscribe";

/**
 * POST /stock-alerts: "tell me when it's back" (services/stock-alerts/subscribe.ts). Public, for
 * guests and signed-in shoppers alike. Limits: 20 a minute per network (counted before the body is
 * read), 5 a minute per address, and codes texted from one network 5 a minute (besides each
 * number's own 1 a minute and 5 an hour), so the route can neither flood an inbox nor pump SMS.
 */
export const stockAlertsRoutes = new Hono<BackendEnv>();

const TOO_MANY = msg("stockAlerts.tooMany");

stockAlertsRoutes.post("/", async (c) => {
  const lang = c.get("lang");
  const network = requestNetwork(c);
  await enforceLimits(c, "SHOP_LIMITER", [`stock-alert:ip:${network}`], TOO_MANY);
  const input = await readInput(c, "json", stockAlertInput);
  const address = input.channel === "email" ? input.email : input.phone;
  await enforceLimits(c, "CONTACT_LIMITER", [`stock-alert:to:${address}`], TOO_MANY);
  const answer = await subscribeToStockAlert({ ...c.env, defer: deferOf(c) }, input, {
    lang,
    userId: await authenticate(c),
    network,
    siteOrigin: publicOrigin(c.env, c.req.url),
    beforeCode: () => enforceLimits(c, "OTP_LIMITER", [`stock-alert-code:ip:${network}`], TOO_MANY),
  });
  const message = answer.status === "subscribed" ? msg("stockAlerts.subscribed") : msg("stockAlerts.codeSent");
  return ok(c, answer, { status: answer.status === "subscribed" ? 200 : 202, message: say(lang, message) });
});
