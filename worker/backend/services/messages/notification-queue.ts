import type { Env, NotificationJob } from "../../env";

/*
 * The step of an order message's path that hands new rows to the queue (notifications.ts tells
 * the whole path). A module of its own, so the WhatsApp webhook can put a fallen-back message in
 * line without importing the rest of notifications.ts.
 */

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
