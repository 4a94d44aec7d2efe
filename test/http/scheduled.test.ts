import { describe, expect, it } from "vitest";
import { jsonApi, visitorIp, builtWorker } from "../support/http.ts";
import { withLocalD1 } from "../support/local-d1.ts";

// The cron and the queue on the real built worker under `wrangler dev --test-scheduled` (it answers at /cdn-cgi/local/scheduled):
// an unpaid order whose hold ran out gives its stock back when the scheduled event fires, with
// nobody reading anything, and the shopper's messages arrive through the real local queue.
const base = builtWorker().url;
const persistDir = builtWorker().persistDir;

interface Product {
  id: number;
  slug: string;
  stock: number;
  /** Several: a product whose variants are chosen on its page (these fixtures take one of one). */
  variant_count?: number;
}

interface OutboxEntry {
  purpose: string;
  lang: string;
  subject: string | null;
}

/** Runs SQL on the worker's local D1 (test/support/local-d1.ts) and answers its rows. */
function sql<T>(command: string): T[] {
  return withLocalD1(persistDir, (db) => {
    const statement = db.prepare(command);
    if (/^\s*select/i.test(command)) return statement.all() as T[];
    statement.run();
    return [];
  });
}

describe("scheduled work on the built worker", () => {
  it("the cron releases an expired hold without any read, and the shopper's messages come through the queue", async () => {
    const api = jsonApi(base, { "cf-connecting-ip": visitorIp() });
    const list = (await api("/backend/products?in_stock=1&per_page=48")).body as { data: Product[] };
    const product = list.data.filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 3).at(-2)!;
    // Read in the database itself: the catalogue's answers are cached for a few seconds.
    const stockOf = () => sql<{ stock: number }>(`SELECT stock FROM products WHERE id = ${product.id}`)[0]!.stock;
    const before = stockOf();

    const { guestId } = (await api("/api/cart/generate-guest-id")).body as { guestId: string };
    const guest = { "guest-id": guestId, "content-language": "ar" };
    const email = `cron-${guestId.slice(0, 8)}@example.com`;
    expect(
      (
        await api("/backend/cart/add-product", {
          method: "POST",
          headers: guest,
          body: { product_id: product.id, quantity: 2 },
        })
      ).status,
    ).toBe(200);
    const placed = await api("/backend/checkout", {
      method: "POST",
      headers: guest,
      body: {
        idempotency_key: crypto.randomUUID(),
        email,
        address: { name: "نورة", phone: "+966512345670", city: "الرياض", district: "العليا", street: "التحلية" },
        shipping_method: "standard",
        payment_method: "card",
      },
    });
    expect(placed.status).toBe(201);
    const number = (placed.body as { data: { number: string } }).data.number;
    expect(stockOf()).toBe(before - 2);

    // Its hold runs out; nothing here reads orders, so only the cron can give the stock back.
    sql(`UPDATE orders SET reserved_until = '2000-01-01T00:00:00.000Z' WHERE number = '${number}'`);
    expect(stockOf()).toBe(before - 2);
    const fired = await fetch(`${base}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`);
    expect(fired.status).toBe(200);
    expect(stockOf()).toBe(before);

    // Placed, then cancelled for want of payment: both in Arabic, through the queue's consumer.
    await expect
      .poll(
        async () =>
          ((await api(`/backend/dev/outbox?to=${encodeURIComponent(email)}`)).body as { data: OutboxEntry[] }).data.map(
            (m) => `${m.purpose}:${m.lang}`,
          ),
        { timeout: 15_000, interval: 250 },
      )
      .toEqual(["order.cancelled:ar", "order.placed:ar"]);
  }, 60_000);
});
