import { Hono } from "hono";
import { unsubscribeInput } from "../../../contract/unsubscribe";
import { readInput } from "../../../contract/server/validate";
import type { BackendEnv } from "../env";
import { BackendError, ok } from "../http";
import { msg } from "../messages";
import { say } from "../../../contract/server/i18n";
import { unsubscribe } from "../services/messages/unsubscribe";

/**
 * POST /unsubscribe { topic, token }: the storefront's page sends what the message's link carries
 * once the shopper confirms (a GET never unsubscribes: mail scanners follow links). 422 on a token
 * the shop did not sign for the topic.
 */
export const unsubscribeRoutes = new Hono<BackendEnv>();

unsubscribeRoutes.post("/", async (c) => {
  const { topic, token } = await readInput(c, "json", unsubscribeInput);
  if (!(await unsubscribe(c.env, topic, token, c.get("lang")))) {
    const text = say(c.get("lang"), msg("unsubscribe.badLink"));
    throw new BackendError(422, text, { token: [text] });
  }
  return ok(c, { topic, message: say(c.get("lang"), msg("unsubscribe.done")) });
});
