import { advanceAramex, remitAramex } from "../services/shipping/aramex-stand-in";
import { SHIPMENT_STATUSES } from "../../../contract/shipping";
import { sendAsCourier } from "../services/shipping/webhooks";
import { Hono } from "hono";
import * as v from "valibot";
import type { BackendEnv } from "../env";
import { notFound, ok } from "../http";
import { validate } from "../../../contract/server/validate";
import { outboxReadable, readOutbox } from "../services/messages/messenger";
import {
  handleStandIn,
  setStandInFailure,
  standInMessages,
  standInNumber,
} from "../services/messages/whatsapp-stand-in";

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

/**
 * POST /dev/courier {waybill, status, at?, location?}: the local courier's app, offline. The step
 * is signed and sent through the shop's webhook verification (services/shipping/webhooks.ts) as
 * the real app would send it; a delivered COD parcel may carry the cash it remits.
 */
devRoutes.post(
  "/courier",
  validate("json", () =>
    v.object({
      waybill: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(40)),
      status: v.picklist(SHIPMENT_STATUSES),
      at: v.optional(v.pipe(v.string(), v.isoTimestamp())),
      location: v.optional(v.pipe(v.string(), v.maxLength(120))),
      remit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    }),
  ),
  async (c) => {
    const { waybill, status, at, location, remit } = c.req.valid("json");
    const when = at ?? new Date().toISOString();
    const outcome = await sendAsCourier(c.env, {
      events: [{ waybill, status, code: status, description: status, location: location ?? null, at: when }],
      remittances: remit !== undefined ? [{ waybill, amount: remit, reference: `REM-${waybill}`, at: when }] : [],
    });
    return c.json(outcome, outcome.status);
  },
);

/**
 * POST /dev/aramex {waybill, status, at?, remit?}: Aramex's side of a parcel, offline. The step is
 * added to the stand-in's tracking history (services/shipping/aramex-stand-in.ts), where the
 * cron's polling reads it through the real adapter; `remit` puts the parcel's cash on its statement.
 */
devRoutes.post(
  "/aramex",
  validate("json", () =>
    v.object({
      waybill: v.pipe(v.string(), v.trim(), v.regex(/^\d{6,20}$/)),
      status: v.picklist(SHIPMENT_STATUSES.filter((s) => s !== "cancelled")),
      at: v.optional(v.pipe(v.string(), v.isoTimestamp())),
      remit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    }),
  ),
  async (c) => {
    const { waybill, status, at, remit } = c.req.valid("json");
    try {
      await advanceAramex(c.env.KV, waybill, status, at);
      if (remit !== undefined) await remitAramex(c.env.KV, waybill, remit, at);
    } catch (err) {
      // A waybill the stand-in never issued, or a step Aramex has no code for.
      return c.json({ message: String(err instanceof Error ? err.message : err) }, 404);
    }
    return c.json({ ok: true });
  },
);

/**
 * The WhatsApp Cloud API's stand-in (services/messages/whatsapp-stand-in.ts): its send endpoint
 * (POST /dev/whatsapp/{version}/{phoneNumberId}/messages, WHATSAPP_API_URL pointed at
 * /backend/dev/whatsapp), what it delivered to a number (GET /dev/whatsapp?to=, newest first), and
 * the switch that makes it fail for a number (POST /dev/whatsapp/fail { to, mode: "error" |
 * "status" | null }) so the SMS fall-back can be seen.
 */
devRoutes.post("/whatsapp/:version/:phoneId/messages", (c) => handleStandIn(c.env, c.req.raw));

devRoutes.get(
  "/whatsapp",
  validate("query", () => v.object({ to: v.pipe(v.string(), v.trim(), v.minLength(6), v.maxLength(20)) })),
  async (c) => ok(c, await standInMessages(c.env.KV, c.req.valid("query").to)),
);

devRoutes.post(
  "/whatsapp/fail",
  validate("json", () =>
    v.object({
      to: v.pipe(v.string(), v.trim(), v.minLength(6), v.maxLength(20)),
      mode: v.nullable(v.picklist(["error", "status"])),
    }),
  ),
  async (c) => {
    const { to, mode } = c.req.valid("json");
    await setStandInFailure(c.env.KV, to, mode);
    return ok(c, { to: standInNumber(to), mode });
  },
);
