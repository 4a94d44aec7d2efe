import * as v from "valibot";
import type { Env } from "../../env";
import { flushNotifications } from "./notification-queue";
import { whatsappAppSecret, verifyWhatsAppSignature } from "./whatsapp-keys";

/**
 * WhatsApp's status webhook (POST /backend/webhooks/whatsapp). Meta posts each sent message's
 * fate as it learns it, in the documented envelope
 *   { object: "whatsapp_business_account", entry: [{ id, changes: [{ field: "messages",
 *     value: { messaging_product, metadata, statuses: [{ id: "wamid…", status, timestamp,
 *     recipient_id, errors?: [{ code, title, message?, error_data? }] }] } }] }] }
 * signed `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw body with the app secret>`.
 *
 * Each status is kept as it came (`whatsapp_statuses`, once per message and status, so Meta's
 * retries change nothing), and the message's row reads its furthest status from there: statuses
 * may come out of order, or before the send's answer was recorded. A `failed` message goes by
 * SMS: its row is put back in line as an SMS, once (the update requires it still to be WhatsApp's).
 */

export const WHATSAPP_STATUSES = ["sent", "delivered", "read", "failed"] as const;
export type WhatsAppStatus = (typeof WHATSAPP_STATUSES)[number];

const StatusSchema = v.object({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  status: v.picklist(WHATSAPP_STATUSES),
  timestamp: v.pipe(v.string(), v.regex(/^\d{1,12}$/)),
  recipient_id: v.optional(v.pipe(v.string(), v.maxLength(32))),
  errors: v.optional(
    v.array(
      v.object({
        code: v.number(),
        title: v.optional(v.string()),
        message: v.optional(v.string()),
      }),
    ),
  ),
});
export type StatusUpdate = v.InferOutput<typeof StatusSchema>;

const EnvelopeSchema = v.object({
  object: v.literal("whatsapp_business_account"),
  entry: v.array(
    v.object({
      changes: v.array(v.object({ field: v.string(), value: v.optional(v.record(v.string(), v.unknown())) })),
    }),
  ),
});

/**
 * The statuses a webhook body carries; messages and other fields are ignored (the shop does not
 * answer chats). Null when the body is not WhatsApp's envelope; a malformed status is skipped.
 */
export function statusesOf(payload: unknown): StatusUpdate[] | null {
  const envelope = v.safeParse(EnvelopeSchema, payload);
  if (!envelope.success) return null;
  const out: StatusUpdate[] = [];
  for (const entry of envelope.output.entry)
    for (const change of entry.changes) {
      const statuses = change.field === "messages" ? change.value?.statuses : undefined;
      if (!Array.isArray(statuses)) continue;
      for (const raw of statuses) {
        const status = v.safeParse(StatusSchema, raw);
        if (status.success) out.push(status.output);
      }
    }
  return out;
}

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
const RANK = "CASE status WHEN 'failed' THEN 4 WHEN 'read' THEN 3 WHEN 'delivered' THEN 2 ELSE 1 END";

/**
 * Brings the message `wamid`'s row up to date with what WhatsApp reported: its furthest status,
 * and, when it failed, the fall-back to SMS (once: only while its row still goes by WhatsApp and
 * was sent), then to the queue. Run after each webhook and after each send's answer, so the order
 * the two arrive in does not matter.
 */
export async function settleWhatsApp(env: Pick<Env, "DB" | "NOTIFICATIONS">, wamid: string): Promise<void> {
  const [, fellBack] = await env.DB.batch([
    env.DB.prepare(
      `UPDATE notifications SET provider_status = (SELECT status FROM whatsapp_statuses WHERE wamid = ?1 ORDER BY ${RANK} DESC LIMIT 1),
         updated_at = ${NOW}
       WHERE provider_id = ?1 AND EXISTS (SELECT 1 FROM whatsapp_statuses WHERE wamid = ?1)`,
    ).bind(wamid),
    env.DB.prepare(
      `UPDATE notifications SET via = 'sms', status = 'queued', enqueued_at = NULL, attempts = 0, fell_back_at = ${NOW},
         provider_error = (SELECT errors FROM whatsapp_statuses WHERE wamid = ?1 AND status = 'failed'), updated_at = ${NOW}
       WHERE provider_id = ?1 AND via = 'whatsapp' AND status = 'sent' AND fell_back_at IS NULL
         AND EXISTS (SELECT 1 FROM whatsapp_statuses WHERE wamid = ?1 AND status = 'failed')
       RETURNING id, order_id`,
    ).bind(wamid),
  ]);
  const rows = (fellBack?.results ?? []) as { id: number; order_id: number }[];
  for (const row of rows) {
    console.warn(JSON.stringify({ level: "warn", event: "whatsapp.failed_fallback", notification: row.id }));
    await flushNotifications(env, row.order_id);
  }
}

/** Keeps each status once, then settles each message it names. */
export async function recordStatuses(env: Pick<Env, "DB" | "NOTIFICATIONS">, statuses: StatusUpdate[]): Promise<void> {
  if (!statuses.length) return;
  await env.DB.batch(
    statuses.map((s) =>
      env.DB.prepare(
        "INSERT OR IGNORE INTO whatsapp_statuses (wamid, status, at, recipient, errors) VALUES (?, ?, ?, ?, ?)",
      ).bind(
        s.id,
        s.status,
        Number(s.timestamp),
        s.recipient_id ?? null,
        s.errors ? JSON.stringify(s.errors.map((e) => ({ code: e.code, title: e.title ?? e.message ?? "" }))) : null,
      ),
    ),
  );
  for (const wamid of new Set(statuses.map((s) => s.id))) await settleWhatsApp(env, wamid);
}

export type WebhookOutcome = { status: 200; recorded: number } | { status: 400 | 401 | 404; recorded: 0 };

/**
 * A webhook delivery as it came: verified against the app secret (401 without a valid signature;
 * 404 in production without a secret, as if the hook did not exist), then recorded.
 */
export async function receiveWhatsAppWebhook(
  env: Pick<Env, "DB" | "NOTIFICATIONS" | "ENVIRONMENT" | "WHATSAPP_APP_SECRET">,
  raw: string,
  signature: string | null | undefined,
): Promise<WebhookOutcome> {
  const secret = whatsappAppSecret(env);
  if (!secret) return { status: 404, recorded: 0 };
  if (!(await verifyWhatsAppSignature(secret, raw, signature))) {
    console.warn(JSON.stringify({ level: "warn", event: "whatsapp.webhook_bad_signature" }));
    return { status: 401, recorded: 0 };
  }
  let payload: unknown;
  try {
    payload = JSON.parse(raw);
  } catch {
    return { status: 400, recorded: 0 };
  }
  const statuses = statusesOf(payload);
  if (statuses === null) return { status: 400, recorded: 0 };
  await recordStatuses(env, statuses);
  return { status: 200, recorded: statuses.length };
}
