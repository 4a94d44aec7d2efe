import { Hono } from "hono";
import * as v from "valibot";
import type { BackendEnv } from "../env";
import { notFound, ok } from "../http";
import { validate } from "../../../contract/server/validate";
import { outboxReadable, readOutbox } from "../services/messages/messenger";

/**
 * Development-only calls. In production every path here is 404, as if it did not exist: the
 * outbox holds codes in clear, so it must never be reachable there.
 */
export const devRoutes = new Hono<BackendEnv>();

devRoutes.use(async (c, next) => {
  if (!outboxReadable(c.env)) throw notFound();
  await next();
});

/** GET /dev/outbox?to=<email|phone>: what the outbox Messenger sent there, newest first. */
devRoutes.get(
  "/outbox",
  validate("query", () => v.object({ to: v.pipe(v.string(), v.trim(), v.minLength(3), v.maxLength(254)) })),
  async (c) => {
    const raw = c.req.valid("query").to;
    // Normalized as the account calls store it: emails lower-cased, phones without separators.
    const to = raw.includes("@") ? raw.toLowerCase() : raw.replace(/[\s\-().]/g, "");
    return ok(c, await readOutbox(c.env.DB, to));
  },
);
