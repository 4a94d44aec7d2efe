import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { backendApp } from "../../worker/backend";
import type { ShopperMessageJob } from "../../worker/backend/env";
import { queue, runScheduledWork } from "../../worker/backend/jobs";
import {
  cancelShopperMessagesStatement,
  deliverShopperMessage,
  flushShopperMessages,
  shopperMessageStatement,
} from "../../worker/backend/services/messages/shopper-messages";
import { isOptedOut, unsubscribeToken, unsubscribeUrl } from "../../worker/backend/services/messages/unsubscribe";

const outboxOf = async (to: string) =>
  (
    await env.DB.prepare(
      "SELECT purpose, lang, subject, body, html, channel FROM dev_outbox WHERE recipient = ? ORDER BY id",
    )
      .bind(to)
      .all<{ purpose: string; lang: string; subject: string; body: string; html: string | null; channel: string }>()
  ).results;

const rowOf = (key: string) =>
  env.DB.prepare("SELECT * FROM shopper_messages WHERE key = ?")
    .bind(key)
    .first<{ id: number; status: string; enqueued_at: string | null; last_error: string | null; attempts: number }>();

/** A queue producer that keeps what it is given. */
function recordingQueue() {
  const sent: ShopperMessageJob[] = [];
  const producer = {
    async send(body: ShopperMessageJob) {
      sent.push(body);
    },
    async sendBatch(messages: Iterable<{ body: ShopperMessageJob }>) {
      for (const m of messages) sent.push(m.body);
    },
  } as unknown as Queue<ShopperMessageJob>;
  return { sent, producer };
}

async function consume(jobs: ShopperMessageJob[], queueName = "souq-notifications") {
  const batch = createMessageBatch<ShopperMessageJob>(
    queueName,
    jobs.map((body, i) => ({ id: `s${i}-${body.shopperMessage}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await queue(batch as MessageBatch<unknown>, env);
  return getQueueResult(batch, ctx);
}

const unique = () => crypto.randomUUID().slice(0, 8);

const stockAlert = (key: string, recipient: string, lang: "en" | "ar", extra: { dueAt?: string } = {}) =>
  shopperMessageStatement(env.DB, {
    key,
    topic: "stock_alert",
    channel: recipient.includes("@") ? "email" : "sms",
    recipient,
    lang,
    params: { product: lang === "ar" ? "سماعة لاسلكية" : "Wireless headphones", productUrl: "https://shop.test/p/x" },
    siteOrigin: "https://shop.test",
    ...extra,
  });

describe("the shopper messages outbox", () => {
  it("sends a message once, in its language, with a link that stops its topic", async () => {
    const to = `alert-${unique()}@example.com`;
    const key = `stock_alert:${unique()}:email`;
    await env.DB.batch([stockAlert(key, to, "ar"), stockAlert(key, to, "ar")]);
    const q = recordingQueue();
    expect(await flushShopperMessages({ DB: env.DB, NOTIFICATIONS: q.producer })).toBe(1);
    // Flushed once: a second flush finds nothing new.
    expect(await flushShopperMessages({ DB: env.DB, NOTIFICATIONS: q.producer })).toBe(0);
    const result = await consume(q.sent);
    expect(result.explicitAcks).toHaveLength(1);
    await consume(q.sent); // the queue delivering the same message again sends nothing twice
    const sent = await outboxOf(to);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ purpose: "shopper.stock_alert", lang: "ar", channel: "email" });
    expect(sent[0]!.subject).toBe("سماعة لاسلكية متوفر من جديد");
    expect(sent[0]!.html).toContain('dir="rtl"');
    const link = sent[0]!.body.match(/https?:\/\/\S+\/ar\/unsubscribe\?\S+/)?.[0];
    expect(link).toBeTruthy();
    expect((await rowOf(key))?.status).toBe("sent");

    // The link's topic and token stop the topic for this address, and only it.
    const query = new URL(link!).searchParams;
    const res = await backendApp.request(
      "/unsubscribe",
      {
        method: "POST",
        headers: { "content-type": "application/json", "content-language": "en" },
        body: JSON.stringify({ topic: query.get("topic"), token: query.get("token") }),
      },
      env,
    );
    expect(res.status).toBe(200);
    expect(await isOptedOut(env, to.toUpperCase(), "stock_alert")).toBe(true);
    expect(await isOptedOut(env, to, "review_invitation")).toBe(false);
    // The address is not in the table, only its keyed hash.
    const stored = await env.DB.prepare("SELECT recipient_hash FROM message_optouts").all<{ recipient_hash: string }>();
    expect(stored.results.every((r) => !r.recipient_hash.includes("@"))).toBe(true);
  });

  it("skips a message whose recipient stopped the topic before it was sent", async () => {
    const to = `stopped-${unique()}@example.com`;
    const token = await unsubscribeToken(env, to, "stock_alert");
    const res = await backendApp.request(
      "/unsubscribe",
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ topic: "stock_alert", token }),
      },
      env,
    );
    expect(res.status).toBe(200);
    const key = `stock_alert:${unique()}:email`;
    await stockAlert(key, to, "en").run();
    const id = (await rowOf(key))!.id;
    expect(await deliverShopperMessage(env, id)).toBe("skipped");
    expect(await outboxOf(to)).toHaveLength(0);
    expect(await rowOf(key)).toMatchObject({ status: "skipped", last_error: "opted_out" });
  });

  it("refuses a token made for another topic or address, with a field error", async () => {
    const to = `other-${unique()}@example.com`;
    const token = await unsubscribeToken(env, to, "review_invitation");
    const post = (body: unknown) =>
      backendApp.request(
        "/unsubscribe",
        {
          method: "POST",
          headers: { "content-type": "application/json", "content-language": "ar" },
          body: JSON.stringify(body),
        },
        env,
      );
    const wrongTopic = await post({ topic: "stock_alert", token });
    expect(wrongTopic.status).toBe(422);
    expect(((await wrongTopic.json()) as { errors: Record<string, string[]> }).errors.token?.[0]).toBe(
      "هذا الرابط غير صالح.",
    );
    const [hash, signature] = token.split(".");
    const forged = `${hash!.replace(/^./, (c) => (c === "a" ? "b" : "a"))}.${signature}`;
    expect((await post({ topic: "review_invitation", token: forged })).status).toBe(422);
    expect((await post({ topic: "nonsense", token })).status).toBe(422);
    expect((await post({ topic: "review_invitation" })).status).toBe(422);
    expect(await isOptedOut(env, to, "review_invitation")).toBe(false);
  });

  it("waits until a message falls due, and the cron sends it then", async () => {
    const to = `later-${unique()}@example.com`;
    const later = `stock_alert:${unique()}:email`;
    await stockAlert(later, to, "en", { dueAt: new Date(Date.now() + 3_600_000).toISOString() }).run();
    const q = recordingQueue();
    await flushShopperMessages({ DB: env.DB, NOTIFICATIONS: q.producer }, 20);
    expect(q.sent.map((j) => j.shopperMessage)).not.toContain((await rowOf(later))!.id);
    // Not due: a queue message for it (sent by hand) sends nothing yet.
    expect(await deliverShopperMessage(env, (await rowOf(later))!.id)).toBe("skipped");
    expect((await rowOf(later))?.status).toBe("queued");
    await env.DB.prepare(
      "UPDATE shopper_messages SET due_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 minute') WHERE key = ?",
    )
      .bind(later)
      .run();
    const report = await runScheduledWork(env);
    expect(report.shopperMessages).toBeGreaterThanOrEqual(1);
    expect((await rowOf(later))?.enqueued_at).not.toBeNull();
  });

  it("cancels queued messages by their key's prefix, and a cancelled one is never sent", async () => {
    const to = `cancel-${unique()}@example.com`;
    const prefix = `stock_alert:${unique()}:`;
    await stockAlert(`${prefix}email`, to, "en").run();
    await cancelShopperMessagesStatement(env.DB, prefix).run();
    const row = await rowOf(`${prefix}email`);
    expect(row?.status).toBe("cancelled");
    expect(await deliverShopperMessage(env, row!.id)).toBe("skipped");
    expect(await outboxOf(to)).toHaveLength(0);
  });

  it("texts a Saudi number with the short form and its stop link, never a number outside the delivery countries", async () => {
    const saudi = `+9665${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;
    const key = `stock_alert:${unique()}:sms`;
    await stockAlert(key, saudi, "en").run();
    expect(await deliverShopperMessage(env, (await rowOf(key))!.id)).toBe("sent");
    const [sms] = await outboxOf(saudi);
    expect(sms).toMatchObject({ channel: "sms", html: null });
    expect(sms!.body).toMatch(
      /^Souq: Wireless headphones is back in stock: https:\/\/shop\.test\/p\/x Stop: \S+\/en\/unsubscribe\?/,
    );
    const abroad = "+12025550143";
    const far = `stock_alert:${unique()}:sms`;
    await stockAlert(far, abroad, "en").run();
    expect(await deliverShopperMessage(env, (await rowOf(far))!.id)).toBe("skipped");
    expect(await rowOf(far)).toMatchObject({ status: "skipped", last_error: "not_delivery_country" });
  });

  it("marks a message dead when the queue gives up on it", async () => {
    const key = `stock_alert:${unique()}:email`;
    await stockAlert(key, `dead-${unique()}@example.com`, "en").run();
    await consume([{ shopperMessage: (await rowOf(key))!.id }], "souq-notifications-dlq");
    expect((await rowOf(key))?.status).toBe("dead");
  });

  it("builds the stop link on the shop's public origin, in the message's language", async () => {
    const url = new URL(
      await unsubscribeUrl({ ...env, PUBLIC_ORIGIN: "https://shop.example" }, "ar", "a@b.co", "review_invitation"),
    );
    expect(url.origin + url.pathname).toBe("https://shop.example/ar/unsubscribe");
    expect(url.searchParams.get("topic")).toBe("review_invitation");
    expect(url.searchParams.get("token")).toMatch(/^[0-9a-f]{64}\.[0-9a-f]{64}$/);
  });
});
