import { Hono } from "hono";
import { consentInput } from "../../../contract/consents";
import { readInput } from "../../../contract/server/validate";
import { say } from "../../../contract/server/i18n";
import type { BackendEnv } from "../env";
import { ok } from "../http";
import { requireUser } from "../identity";
import { msg } from "../messages";
import { enforceLimits } from "../services/shared/rate-limit";
import { consentStatement, readConsents } from "../services/consents/consents";
import { cancelAccountReminders } from "../services/cart-reminders/cart-reminders";

/**
 * The signed-in shopper's consents under CONSENTS_PATH (contract/consents.ts): GET their answers
 * and history; POST gives or withdraws one, recorded with the wording in the request's language.
 */
export const consentRoutes = new Hono<BackendEnv>();

consentRoutes.get("/", async (c) => ok(c, await readConsents(c.env.DB, { userId: await requireUser(c) })));

consentRoutes.post("/", async (c) => {
  const userId = await requireUser(c);
  await enforceLimits(c, "WISHLIST_LIMITER", [`consents:user:${userId}`], msg("consents.tooMany"));
  const { purpose, granted } = await readInput(c, "json", consentInput);
  const lang = c.get("lang");
  await consentStatement(c.env.DB, { userId }, { purpose, granted, lang, source: "profile" }).run();
  // A withdrawn yes stops what is already queued, not only what would come.
  if (purpose === "cart_reminders" && !granted) await cancelAccountReminders(c.env.DB, userId);
  return ok(c, await readConsents(c.env.DB, { userId }), { message: say(lang, msg("consents.saved")) });
});
