import { stockAlertStatements } from "./services/stock-alerts/trigger";
import type { EInvoiceJob, Env, NotificationJob } from "./env";
import { alertOverdue, reportDue, submitEInvoice } from "./services/einvoicing/reporting";
import { stampWaiting } from "./services/einvoicing/chain";
import { primaryEnv } from "./db";
import { deliverNotification, markNotificationDead, sweepNotifications } from "./services/messages/notifications";
import {
  deliverShopperMessage,
  isShopperMessageJob,
  markShopperMessageDead,
  sweepShopperMessages,
} from "./services/messages/shopper-messages";
import { pruneBuckets } from "../../contract/server/rum-store";
import { inviteReviewers } from "./services/reviews/invitations";
import { releaseExpiredReservations } from "./services/orders/reservations";
import { commerceSettings } from "./services/shared/settings";
import { pollCarriers } from "./services/shipping/shipments";
import { pruneWebhookDeliveries } from "./services/shipping/webhooks";
import { owedCartReminders } from "./services/cart-reminders/cart-reminders";

/**
 * The backend's work outside requests: the queue consumers of order messages and the
 * every-minute cron. Exported by the backend's entry (index.ts); the Worker that hosts the backend
 * exports them beside `fetch` (worker/index.ts, and the test worker).
 */

/** The queue's retry delay: 30 s, 1 min, 2 min, 4 min... (capped at 15 min). */
export const retryDelaySeconds = (attempts: number) => Math.min(30 * 2 ** Math.max(0, attempts - 1), 900);

const isJob = (body: unknown): body is NotificationJob =>
  typeof body === "object" && body !== null && Number.isInteger((body as NotificationJob).id);

const isEInvoiceJob = (body: unknown): body is EInvoiceJob =>
  typeof body === "object" && body !== null && Number.isInteger((body as EInvoiceJob).einvoice);

/**
 * Both queues land here: the messages queue sends each message (a failure is retried by the
 * queue with a growing delay; after wrangler.toml's max_retries it goes to the dead-letter
 * queue), and the dead-letter queue marks its messages dead for the cron and the console.
 */
export async function queue(batch: MessageBatch<unknown>, bindings: Env): Promise<void> {
  // The plain binding: the primary (with PRIMARY_LATENCY_MS applied, backend/db.ts).
  const env = primaryEnv(bindings);
  const deadLetters = batch.queue.endsWith("-dlq");
  for (const message of batch.messages) {
    // An e-invoice's report: its retries are scheduled in D1 (reporting.ts) and the cron sends
    // them when due, so the message is done whatever ZATCA answered.
    if (isEInvoiceJob(message.body)) {
      if (!deadLetters) {
        try {
          await submitEInvoice(env, message.body.einvoice);
        } catch (err) {
          console.error(JSON.stringify({ level: "error", event: "einvoice.submit_failed", error: String(err) }));
        }
      }
      message.ack();
      continue;
    }
    // A message to a shopper outside their orders: the same retries and dead letters as an order's.
    if (isShopperMessageJob(message.body)) {
      const id = message.body.shopperMessage;
      if (deadLetters) {
        await markShopperMessageDead(env.DB, id);
        console.error(JSON.stringify({ level: "error", event: "shopper_message.dead", id }));
        message.ack();
        continue;
      }
      try {
        await deliverShopperMessage(env, id);
        message.ack();
      } catch (err) {
        console.warn(
          JSON.stringify({
            level: "warn",
            event: "shopper_message.retry",
            id,
            attempts: message.attempts,
            error: String(err),
          }),
        );
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      }
      continue;
    }
    if (!isJob(message.body)) {
      console.error(JSON.stringify({ level: "error", event: "queue.bad_message", queue: batch.queue }));
      message.ack();
      continue;
    }
    if (deadLetters) {
      await markNotificationDead(env.DB, message.body.id);
      console.error(JSON.stringify({ level: "error", event: "notification.dead", id: message.body.id }));
      message.ack();
      continue;
    }
    try {
      await deliverNotification(env, message.body.id);
      message.ack();
    } catch (err) {
      console.warn(
        JSON.stringify({
          level: "warn",
          event: "notification.retry",
          id: message.body.id,
          attempts: message.attempts,
          error: String(err),
        }),
      );
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
}

export interface ScheduledReport {
  released: number;
  messages: number;
  carts: number;
  /** Field-data buckets older than the store keeps (contract/server/rum-store.ts). */
  rum: number;
  /** New parcel steps read from carriers that are asked rather than telling (services/shipping/shipments.ts). */
  parcels: number;
  /** Carrier webhook delivery ids past the replay window, forgotten. */
  webhooks: number;
  /** E-invoices stamped, sent to ZATCA (reported, cleared or rejected), and raised as overdue. */
  einvoices: number;
  /** Messages to shoppers outside their orders sent to the queue as they fell due (or again, when lost). */
  shopperMessages: number;
  /**
   * Back-in-stock alerts written by the sweep: a waiting subscription whose stock is back without
   * a restock that wrote it (a product shown again); each restock writes its own in its batch.
   */
  stockAlerts: number;
  /** Delivered orders whose review invitation was written (or found owed nothing): services/reviews/invitations.ts. */
  reviewInvitations: number;
  /** Cart reminders written to the shopper outbox (services/cart-reminders). */
  cartReminders: number;
}

/** Deletes guests' carts unchanged for GUEST_CART_DAYS (their lines go with them); accounts' carts stay. */
export async function expireStaleCarts(env: Env): Promise<number> {
  const days = commerceSettings(env).guestCartDays;
  const { meta } = await env.DB.prepare(
    `DELETE FROM carts WHERE guest_id IS NOT NULL AND updated_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)`,
  )
    .bind(`-${days} days`)
    .run();
  return meta.changes ?? 0;
}

/**
 * The cron's minute: unpaid orders whose hold ran out give their stock back on time (not only
 * when someone reads), the order messages left behind are sent, stale guest carts expire, old field-data hours go. Each
 * part runs even if another fails; a failure is logged and the next minute tries again.
 */
export async function runScheduledWork(env: Env): Promise<ScheduledReport> {
  const report: ScheduledReport = {
    released: 0,
    messages: 0,
    carts: 0,
    rum: 0,
    parcels: 0,
    webhooks: 0,
    einvoices: 0,
    shopperMessages: 0,
    stockAlerts: 0,
    reviewInvitations: 0,
    cartReminders: 0,
  };
  const parts: [keyof ScheduledReport, () => Promise<number>][] = [
    [
      "released",
      async () => {
        let total = 0;
        // 25 a round; a few rounds clear a backlog without holding the cron for long.
        for (let round = 0, n = 25; round < 8 && n === 25; round++)
          total += n = await releaseExpiredReservations(env.DB);
        return total;
      },
    ],
    ["messages", () => sweepNotifications(env)],
    [
      "stockAlerts",
      async () => {
        const [written] = await env.DB.batch(stockAlertStatements(env.DB, "all"));
        return written.meta.changes ?? 0;
      },
    ],
    // Before the shopper outbox's sweep, so an invitation written this minute is sent this minute.
    ["reviewInvitations", () => inviteReviewers(env)],
    ["cartReminders", () => owedCartReminders(env)],
    ["shopperMessages", () => sweepShopperMessages(env)],
    ["carts", () => expireStaleCarts(env)],
    ["rum", () => pruneBuckets(env.DB)],
    ["parcels", async () => (await pollCarriers(env)).events],
    ["webhooks", () => pruneWebhookDeliveries(env.DB)],
    [
      "einvoices",
      // Stamped here and sent at once (not queued: the cron is already the background).
      async () => (await stampWaiting(env)).length + (await reportDue(env)) + (await alertOverdue(env)),
    ],
  ];
  for (const [name, run] of parts) {
    try {
      report[name] = await run();
    } catch (err) {
      console.error(JSON.stringify({ level: "error", event: `scheduled.${name}_failed`, error: String(err) }));
    }
  }
  console.log(JSON.stringify({ level: "info", event: "scheduled", ...report }));
  return report;
}

export async function scheduled(_controller: ScheduledController, env: Env): Promise<void> {
  // The plain binding: the primary (with PRIMARY_LATENCY_MS applied, backend/db.ts).
  await runScheduledWork(primaryEnv(env));
}
