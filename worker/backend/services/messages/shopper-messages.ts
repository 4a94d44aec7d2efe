import type { Env, Lang, ShopperMessageJob } from "../../env";
import { isDeliveryPhone } from "../../../../contract/delivery";
import { SHOPPER_TOPICS, type ShopperTopic } from "../../../../contract/unsubscribe";
import { renderShopperMessage } from "./mail";
import { messengerFor, type Messenger } from "./messenger";
import { isOptedOut, unsubscribeUrl } from "./unsubscribe";

export { SHOPPER_TOPICS, type ShopperTopic };

/**
 * Messages to shoppers that are not an order's news (contract/unsubscribe.ts): the same
 * transactional outbox as order messages (services/messages/notifications.ts), with a time each
 * falls due.
 *
 * 1. `shopperMessageStatement`: a row in `shopper_messages`, run in the batch of the event it
 *    announces. Its key makes a repeated event a no-op, so each message is sent once.
 * 2. `flushShopperMessages`: after the batch, due rows go to the NOTIFICATIONS queue as
 *    `{ shopperMessage: id }`; it never throws (the cron sends what is left, and what falls due later).
 * 3. The queue consumer (jobs.ts → `deliverShopperMessage`) claims the row, skips it if the
 *    recipient stopped the topic, renders it from the catalogue's `mail.shopper.<topic>` in the
 *    row's language with the topic's unsubscribe link, and sends it; a failure is retried by the queue.
 */

export interface ShopperMessageInput {
  /** Unique per message and channel (`stock_alert:<id>:email`): a repeat is ignored. */
  key: string;
  topic: ShopperTopic;
  channel: "email" | "sms";
  /** An email address or an E.164 phone number. */
  recipient: string;
  lang: Lang;
  /** The template's variables; a name ending in `Url` is a link in the HTML email. */
  params: Record<string, string>;
  /** When it falls due (ISO); now when absent. */
  dueAt?: string;
  /**
   * The origin the shopper used (a request's URL, an order's site origin): the stop link's origin
   * in development and test when PUBLIC_ORIGIN is unset, as order messages do; ignored otherwise.
   */
  siteOrigin?: string | null;
}

/** Where a row keeps its site origin among its params; never a template variable. */
const ORIGIN_PARAM = "__siteOrigin";

export const isShopperMessageJob = (body: unknown): body is ShopperMessageJob =>
  typeof body === "object" && body !== null && Number.isInteger((body as ShopperMessageJob).shopperMessage);

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** The message, owed from `dueAt`: put it in the batch of the event it announces. */
export function shopperMessageStatement(db: D1Database, message: ShopperMessageInput): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR IGNORE INTO shopper_messages (key, topic, channel, recipient, lang, params, due_at)
       VALUES (?, ?, ?, ?, ?, ?, COALESCE(?, ${NOW}))`,
    )
    .bind(
      message.key,
      message.topic,
      message.channel,
      message.recipient,
      message.lang,
      JSON.stringify(message.siteOrigin ? { ...message.params, [ORIGIN_PARAM]: message.siteOrigin } : message.params),
      message.dueAt ? new Date(message.dueAt).toISOString() : null,
    );
}

/** Cancels the queued rows whose key starts with `keyPrefix`: what they announced no longer holds. */
export function cancelShopperMessagesStatement(db: D1Database, keyPrefix: string): D1PreparedStatement {
  return db
    .prepare("UPDATE shopper_messages SET status = 'cancelled' WHERE status = 'queued' AND substr(key, 1, ?1) = ?2")
    .bind(keyPrefix.length, keyPrefix);
}

const BATCH = 50;

/**
 * Sends the due rows no queue message carries yet to the queue, 50 at a time, at most `rounds`
 * times. Never throws: the rows stay queued and the cron tries again.
 */
export async function flushShopperMessages(env: Pick<Env, "DB" | "NOTIFICATIONS">, rounds = 1): Promise<number> {
  let sent = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      const { results } = await env.DB.prepare(
        `SELECT id FROM shopper_messages WHERE status = 'queued' AND enqueued_at IS NULL AND due_at <= ${NOW}
         ORDER BY due_at, id LIMIT ${BATCH}`,
      ).all<{ id: number }>();
      if (!results.length) break;
      await env.NOTIFICATIONS.sendBatch(
        results.map((r) => ({ body: { shopperMessage: r.id } satisfies ShopperMessageJob })),
      );
      await env.DB.prepare(
        `UPDATE shopper_messages SET enqueued_at = ${NOW} WHERE id IN (${results.map(() => "?").join(",")})`,
      )
        .bind(...results.map((r) => r.id))
        .run();
      sent += results.length;
      if (results.length < BATCH) break;
    }
  } catch (err) {
    console.error(JSON.stringify({ level: "error", event: "shopper_messages.flush_failed", error: String(err) }));
  }
  return sent;
}

/** A queued row whose queue message was not consumed in this time is sent again; likewise a claim. */
const LOST_MINUTES = 10;

/** The cron's part: lost queue messages go again, then every due row is sent to the queue. */
export async function sweepShopperMessages(env: Pick<Env, "DB" | "NOTIFICATIONS">): Promise<number> {
  const ago = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${LOST_MINUTES} minutes')`;
  await env.DB.prepare(
    `UPDATE shopper_messages SET status = 'queued', enqueued_at = NULL
     WHERE (status = 'queued' AND enqueued_at < ${ago}) OR (status = 'sending' AND claimed_at < ${ago})`,
  ).run();
  return flushShopperMessages(env, 20);
}

interface ShopperMessageRow {
  id: number;
  topic: ShopperTopic;
  channel: "email" | "sms";
  recipient: string;
  lang: Lang;
  params: string;
}

export type ShopperDelivery = "sent" | "skipped";

/**
 * Sends one row. Claims it first (queued → sending, or a stale claim), so a redelivered queue
 * message sends nothing twice; a recipient who stopped the topic since it was written gets
 * nothing (`skipped`). A provider failure puts the row back and throws, for the queue to retry.
 */
export async function deliverShopperMessage(
  env: Pick<
    Env,
    "DB" | "ENVIRONMENT" | "MESSENGER" | "MESSENGER_URL" | "MESSENGER_KEY" | "PUBLIC_ORIGIN" | "AUTH_PEPPER"
  >,
  id: number,
  messenger: Messenger = messengerFor(env),
): Promise<ShopperDelivery> {
  const row = await env.DB.prepare(
    `UPDATE shopper_messages SET status = 'sending', claimed_at = ${NOW}, attempts = attempts + 1
     WHERE id = ?1 AND due_at <= ${NOW}
       AND (status = 'queued' OR (status = 'sending' AND claimed_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${LOST_MINUTES} minutes')))
     RETURNING id, topic, channel, recipient, lang, params`,
  )
    .bind(id)
    .first<ShopperMessageRow>();
  if (!row) return "skipped";
  const finish = (status: "sent" | "skipped", error: string | null = null) =>
    env.DB.prepare(`UPDATE shopper_messages SET status = ?, last_error = ?, sent_at = ${NOW} WHERE id = ?`)
      .bind(status, error, id)
      .run();
  // No SMS outside the shop's delivery countries; nothing to one who stopped the topic.
  if (row.channel === "sms" && !isDeliveryPhone(row.recipient)) {
    await finish("skipped", "not_delivery_country");
    return "skipped";
  }
  if (await isOptedOut(env, row.recipient, row.topic)) {
    await finish("skipped", "opted_out");
    return "skipped";
  }
  try {
    const { [ORIGIN_PARAM]: siteOrigin, ...stored } = JSON.parse(row.params) as Record<string, string>;
    const params = {
      ...stored,
      unsubscribeUrl: await unsubscribeUrl(env, row.lang, row.recipient, row.topic, siteOrigin),
    };
    await messenger.send({
      to: row.recipient,
      channel: row.channel,
      purpose: `shopper.${row.topic}`,
      code: "",
      lang: row.lang,
      content: renderShopperMessage(row.lang, row.topic, row.channel, params),
    });
  } catch (err) {
    await env.DB.prepare(
      "UPDATE shopper_messages SET status = 'queued', last_error = ? WHERE id = ? AND status = 'sending'",
    )
      .bind(String(err).slice(0, 500), id)
      .run();
    throw err;
  }
  await finish("sent");
  return "sent";
}

/** The dead-letter queue's consumer: the queue gave up on this row. */
export async function markShopperMessageDead(db: D1Database, id: number): Promise<void> {
  await db
    .prepare("UPDATE shopper_messages SET status = 'dead' WHERE id = ? AND status IN ('queued', 'sending')")
    .bind(id)
    .run();
}
