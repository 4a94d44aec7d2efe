import type { Env } from "../../env";

/**
 * Order messages (issue 21): what an order event owes its shopper, by email and, where the order
 * has a phone, by SMS, in the language they checked out in.
 *
 * The path of a message:
 * 1. `notifyStatements` — rows in `notifications`, run IN THE SAME `db.batch` as the event they
 *    announce (a transactional outbox: no event without its message, no message without its
 *    event). The key (order, kind, reference, channel) makes a repeated event a no-op.
 * 2. `flushNotifications` — after the batch, the new rows go to the NOTIFICATIONS queue. It never
 *    throws: a queue that is down costs the shopper nothing, and the cron sends what was left.
 * 3. The queue consumer (worker/jobs.ts → `deliverNotification`) claims the row, renders it from
 *    the locale files and hands it to the Messenger; a failure is retried by the queue with a
 *    growing delay and, after the last retry, dead-lettered (status `dead`).
 * 4. The cron (`sweepNotifications`) re-sends rows whose queue message was lost, and gives a dead
 *    message a fresh round of retries an hour later, at most twice.
 */
export const ORDER_MESSAGE_KINDS = [
  "placed",
  "paid",
  "shipped",
  "delivered",
  "cancelled",
  "refunded",
  "return_received",
] as const;
export type OrderMessageKind = (typeof ORDER_MESSAGE_KINDS)[number];

/** What goes through the queue: only the row's id (the row holds the rest). */
export interface NotificationJob {
  id: number;
}

/**
 * The statements that owe the order's shopper a `kind` message: an email, and an SMS when the
 * order has a phone. `ref` tells apart events of one kind (each refund, each return);
 * `detail` carries what the message says beyond the order (e.g. `{ amount }` in halalas).
 */
export function notifyStatements(
  db: D1Database,
  order: { id: number } | { number: string },
  kind: OrderMessageKind,
  opts: { ref?: string | null; detail?: Record<string, unknown> | null } = {},
): D1PreparedStatement[] {
  const suffix = opts.ref ? `:${opts.ref}` : "";
  const detail = opts.detail ? JSON.stringify(opts.detail) : null;
  const insert = (channel: "email" | "sms", recipient: string, extra = "") =>
    db
      .prepare(
        `INSERT OR IGNORE INTO notifications (key, order_id, kind, channel, recipient, lang, detail)
         SELECT number || ':' || ?2 || ?3 || ':${channel}', id, ?2, '${channel}', ${recipient}, lang, ?4
         FROM orders WHERE ${"id" in order ? "id" : "number"} = ?1${extra}`,
      )
      .bind("id" in order ? order.id : order.number, kind, suffix, detail);
  const phone = "NULLIF(TRIM(COALESCE(phone, json_extract(address, '$.phone'), '')), '')";
  return [insert("email", "email"), insert("sms", phone, ` AND ${phone} IS NOT NULL`)];
}

/**
 * Sends the order's messages that no queue message carries yet to the NOTIFICATIONS queue.
 * Never throws: the rows stay `queued` and the cron picks them up.
 */
export async function flushNotifications(
  env: Pick<Env, "DB" | "NOTIFICATIONS">,
  orderId: number | null = null,
): Promise<number> {
  try {
    const { results } = await env.DB.prepare(
      `SELECT id FROM notifications WHERE status = 'queued' AND enqueued_at IS NULL ${orderId === null ? "" : "AND order_id = ?1"} ORDER BY id LIMIT 50`,
    )
      .bind(...(orderId === null ? [] : [orderId]))
      .all<{ id: number }>();
    if (!results.length) return 0;
    await env.NOTIFICATIONS.sendBatch(results.map((r) => ({ body: { id: r.id } satisfies NotificationJob })));
    await env.DB.prepare(
      `UPDATE notifications SET enqueued_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id IN (${results.map(() => "?").join(",")})`,
    )
      .bind(...results.map((r) => r.id))
      .run();
    return results.length;
  } catch (err) {
    console.error(JSON.stringify({ level: "error", event: "notifications.flush_failed", error: String(err) }));
    return 0;
  }
}
