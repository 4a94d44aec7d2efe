import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The shipments migration on a database made and used under the schema before it: the order
 * messages' outbox is rebuilt to take the parcels' own kinds, and every message already in it
 * (queued, sent or dead, with its attempts and detail) is still there, with its id, afterwards.
 */

// A second, empty database of this file's own (the main one already has every migration).
const db = () => env.REPLICA_DB;
const OLD = (name: string) => name < "0046";

interface Row {
  id: number;
  key: string;
  kind: string;
  status: string;
  attempts: number;
  detail: string | null;
  sent_at: string | null;
}

let before: Row[];

beforeAll(async () => {
  await applyD1Migrations(
    db(),
    env.TEST_MIGRATIONS.filter((m) => OLD(m.name)),
  );
  const order = (await db()
    .prepare(
      `INSERT INTO orders (number, email, subtotal, total, address, shipping_method, payment_method, idempotency_key, status, shipped_at)
       VALUES ('SQ-OLDSHIP1', 'old@example.com', 10000, 10000, '{"name":"Old","phone":"+966512345678","city":"Riyadh","district":"Olaya","street":"King Fahd"}', 'standard', 'card', 'old-key', 'shipped', '2026-01-01T10:00:00.000Z')
       RETURNING id`,
    )
    .first<{ id: number }>())!.id;
  const rows: [string, string, string, number, string | null][] = [
    ["placed", "sent", "email", 1, null],
    ["paid", "sent", "sms", 1, null],
    ["shipped", "queued", "email", 0, null],
    ["refunded", "dead", "email", 5, '{"amount":500}'],
    ["return_approved", "sending", "email", 2, '{"return_id":"ret_1"}'],
  ];
  await db().batch(
    rows.map(([kind, status, channel, attempts, detail]) =>
      db()
        .prepare(
          `INSERT INTO notifications (key, order_id, kind, channel, recipient, lang, detail, status, attempts, sent_at)
           VALUES (?, ?, ?, ?, 'old@example.com', 'ar', ?, ?, ?, CASE WHEN ? = 'sent' THEN '2026-01-01T10:00:00.000Z' END)`,
        )
        .bind(`SQ-OLDSHIP1:${kind}:${channel}`, order, kind, channel, detail, status, attempts, status),
    ),
  );
  before = (
    await db()
      .prepare("SELECT id, key, kind, status, attempts, detail, sent_at FROM notifications ORDER BY id")
      .all<Row>()
  ).results;
  await applyD1Migrations(
    db(),
    env.TEST_MIGRATIONS.filter((m) => !OLD(m.name)),
  );
});

describe("the shipments migration", () => {
  it("keeps every message of the outbox as it was, ids included", async () => {
    const after = (
      await db()
        .prepare("SELECT id, key, kind, status, attempts, detail, sent_at FROM notifications ORDER BY id")
        .all<Row>()
    ).results;
    expect(before).toHaveLength(5);
    expect(after).toEqual(before);
  });

  it("takes the parcels' own messages, and still refuses a kind it does not know", async () => {
    const order = (await db().prepare("SELECT id FROM orders WHERE number = 'SQ-OLDSHIP1'").first<{ id: number }>())!
      .id;
    const insert = (kind: string) =>
      db()
        .prepare(
          "INSERT INTO notifications (key, order_id, kind, channel, recipient, lang) VALUES (?, ?, ?, 'email', 'old@example.com', 'en')",
        )
        .bind(`SQ-OLDSHIP1:${kind}:x:email`, order, kind)
        .run();
    await insert("out_for_delivery");
    await insert("delivery_attempted");
    await expect(insert("teleported")).rejects.toThrow(/CHECK/);
  });

  it("leaves an order shipped before parcels existed as it was, with no parcel", async () => {
    const order = await db().prepare("SELECT status, shipped_at FROM orders WHERE number = 'SQ-OLDSHIP1'").first();
    expect(order).toEqual({ status: "shipped", shipped_at: "2026-01-01T10:00:00.000Z" });
    expect((await db().prepare("SELECT COUNT(*) AS n FROM shipments").first<{ n: number }>())!.n).toBe(0);
  });
});
