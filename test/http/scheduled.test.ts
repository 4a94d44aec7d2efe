import { describe, expect, it } from "vitest";
import { wranglerAsync } from "../../scripts/lib/worker.ts";
import { jsonApi, visitorIp, builtWorker } from "../support/http.ts";

// The cron and the queue on the real built worker under `wrangler dev --test-scheduled` (it answers at /cdn-cgi/local/scheduled):
// an unpaid order whose hold ran out gives its stock back when the scheduled event fires, with
// nobody reading anything, and the shopper's messages arrive through the real local queue.
const base = builtWorker().url;
const persistDir = builtWorker().persistDir;

interface Product {
  id: number;
  slug: string;
  stock: number;
}

interface OutboxEntry {
  purpose: string;
  lang: string;
  subject: string | null;
}

/** Runs SQL on the worker's local D1 (the files `wrangler dev` serves) and answers the first statement's rows. */
async function sql<T>(command: string): Promise<T[]> {
  const out = await wranglerAsync(
    [
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      persistDir,
      "--command",
      command,
      "--json",
      "-c",
      "wrangler.toml",
    ],
    { ...process.env, WRANGLER_SEND_METRICS: "false" },
  );
  const start = out.search(/^\[/m);
  return ((JSON.parse(out.slice(Math.max(0, start))) as { results?: T[] }[])[0]?.results ?? []) as T[];
}

describe("scheduled work on the built worker", () => {
  it("the cron releases an expired hold without any read, and the shopper's messages come through the queue", async () => {
    const api = jsonApi(base, { "cf-connecting-ip": visitorIp() });
    const list = (await api("/backend/products?in_stock=1&per_page=48")).body as { data: Product[] };
    const product = list.data.filter((p) => p.stock >= 3).at(-2)!;
    // Read in the database itself: the catalogue's answers are cached for a few seconds.
    const stockOf = async () =>
      (await sql<{ stock: number }>(`SELECT stock FROM products WHERE id = ${product.id}`))[0]!.stock;
    const before = await stockOf();

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
    expect(await stockOf()).toBe(before - 2);

    // Its hold runs out; nothing here reads orders, so only the cron can give the stock back.
    await sql(`UPDATE orders SET reserved_until = '2000-01-01T00:00:00.000Z' WHERE number = '${number}'`);
    expect(await stockOf()).toBe(before - 2);
    const fired = await fetch(`${base}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`);
    expect(fired.status).toBe(200);
    expect(await stockOf()).toBe(before);

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
    // Each database read here starts `wrangler d1 execute`: about 45 s in all on an idle machine,
    // more when the rest of the suite runs beside it.
  }, 150_000);
});
