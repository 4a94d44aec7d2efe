import type { Env } from "../../env";
import { signCourierWebhook, verifyCourierWebhook } from "./courier";
import { courierWebhookSecret } from "./registry";
import { applyCarrierEvents, recordRemittances } from "./shipments";
import type { CarrierEvent, CarrierRemittance } from "./carrier";

export type WebhookOutcome =
  { status: 200; events: number; remittances: number } | { status: 401 | 409 | 422 | 404; reason: string };

/**
 * A delivery of the courier's webhook: verified (signature, age), taken once (its id is recorded
 * before anything is applied, so a replay of a captured request is refused even within its five
 * minutes), then applied.
 */
export async function receiveCourierWebhook(env: Env, raw: string, signature: string | null): Promise<WebhookOutcome> {
  const secret = courierWebhookSecret(env);
  if (!secret) return { status: 404, reason: "not_configured" };
  const verdict = await verifyCourierWebhook(secret, raw, signature);
  if (!verdict.ok) return { status: verdict.reason === "body" ? 422 : 401, reason: verdict.reason };
  const taken = await env.DB.prepare(
    "INSERT OR IGNORE INTO carrier_webhooks (carrier, delivery_id) VALUES ('courier', ?)",
  )
    .bind(verdict.body.id)
    .run();
  if (!taken.meta.changes) return { status: 409, reason: "replayed" };
  const events = await applyCarrierEvents(env, "courier", verdict.events);
  const remittances = await recordRemittances(env.DB, "courier", verdict.remittances);
  return { status: 200, events, remittances };
}

/**
 * What the courier's app would send, signed as it signs: the development stand-in of the app (the
 * console's "courier" controls in development, and the tests) goes through the same verification.
 */
export async function sendAsCourier(
  env: Env,
  input: { events?: CarrierEvent[]; remittances?: CarrierRemittance[] },
): Promise<WebhookOutcome> {
  const secret = courierWebhookSecret(env);
  if (!secret) return { status: 404, reason: "not_configured" };
  const raw = JSON.stringify({
    id: crypto.randomUUID(),
    events: input.events ?? [],
    remittances: input.remittances ?? [],
  });
  return receiveCourierWebhook(env, raw, await signCourierWebhook(secret, raw));
}

/**
 * Forgets the delivery ids the replay check no longer needs: a delivery older than its five minutes
 * is refused as stale anyway, so a day of ids is plenty and the table stays small under a flood.
 */
export async function pruneWebhookDeliveries(db: D1Database): Promise<number> {
  const { meta } = await db
    .prepare("DELETE FROM carrier_webhooks WHERE received_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')")
    .run();
  return meta.changes ?? 0;
}
