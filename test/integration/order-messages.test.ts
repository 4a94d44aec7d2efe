import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { isDeliveryPhone } from "../../contract/delivery";
import { afterEach, describe, expect, it, vi } from "vitest";
import { backendApp } from "../../worker/backend";
import type { NotificationJob } from "../../worker/backend/env";
import { renderOrderMessage } from "../../worker/backend/services/messages/mail";
import {
  deliveryPhoneSql,
  flushNotifications,
  notifyStatements,
} from "../../worker/backend/services/messages/notifications";
import { queue, retryDelaySeconds, runScheduledWork, scheduled } from "../../worker/backend/jobs";
import {
  address,
  call,
  checkoutWith,
  createProduct,
  newGuest,
  newUser,
  stockOf,
  type Shopper,
} from "../support/commerce";
import { newStaff } from "../support/console";
import { payOrder, placeOrder } from "../support/orders";

interface Row {
  id: number;
  key: string;
  kind: string;
  channel: string;
  recipient: string;
  lang: string;
  status: string;
  attempts: number;
  rounds: number;
  last_error: string | null;
  enqueued_at: string | null;
}

const rowsOf = async (number: string) =>
  (
    await env.DB.prepare(
      "SELECT n.* FROM notifications n JOIN orders o ON o.id = n.order_id WHERE o.number = ? ORDER BY n.id",
    )
      .bind(number)
      .all<Row>()
  ).results;

const outboxOf = async (to: string) =>
  (
    await env.DB.prepare(
      "SELECT purpose, lang, subject, body, html, channel FROM dev_outbox WHERE recipient = ? ORDER BY id",
    )
      .bind(to)
      .all<{ purpose: string; lang: string; subject: string; body: string; html: string | null; channel: string }>()
  ).results;

/** A queue producer that keeps what it is given (the real one is the runtime's). */
function recordingQueue(opts: { down?: boolean } = {}) {
  const sent: NotificationJob[] = [];
  const producer = {
    async send(body: NotificationJob) {
      if (opts.down) throw new Error("queue unavailable");
      sent.push(body);
    },
    async sendBatch(messages: Iterable<{ body: NotificationJob }>) {
      if (opts.down) throw new Error("queue unavailable");
      for (const m of messages) sent.push(m.body);
    },
  } as unknown as Queue<NotificationJob>;
  return { sent, producer };
}

/** Runs the worker's queue handler on `jobs` as the runtime would, answering what it acked and retried. */
async function consume(
  jobs: NotificationJob[],
  workerEnv: typeof env,
  opts: { queueName?: string; attempts?: number } = {},
) {
  const batch = createMessageBatch<NotificationJob>(
    opts.queueName ?? "souq-notifications",
    jobs.map((body, i) => ({ id: `m${i}-${body.id}`, timestamp: new Date(), attempts: opts.attempts ?? 1, body })),
  );
  // What the consumer asked of each retry (getQueueResult keeps only which messages).
  const delays: (number | undefined)[] = [];
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    message.retry = (options?: QueueRetryOptions) => {
      delays.push(options?.delaySeconds);
      retry(options);
    };
  }
  const ctx = createExecutionContext();
  await queue(batch as MessageBatch<unknown>, workerEnv);
  return { ...(await getQueueResult(batch, ctx)), delays };
}

/** Checks out through the backend app with the given environment (a queue or provider of the test's choosing). */
async function checkoutIn(workerEnv: typeof env, shopper: Shopper, productId: number) {
  const request = (path: string, body: unknown) =>
    backendApp.request(
      path,
      {
        method: "POST",
        headers: { ...shopper.headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      },
      workerEnv,
    );
  expect((await request("/cart/add-product", { product_id: productId, quantity: 1 })).status).toBe(200);
  return request("/checkout", {
    idempotency_key: crypto.randomUUID(),
    email: shopper.email,
    address,
    shipping_method: "standard",
    payment_method: "card",
  });
}

const eventually = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 100 });

afterEach(() => vi.restoreAllMocks());

describe("order messages", () => {
  it("an Arabic order owes one message per event and channel, sent through the queue in Arabic with its links", async () => {
    const shopper = await newGuest("ar");
    const order = await placeOrder(shopper);
    await payOrder(shopper, order.number);

    // Email and SMS (the address has a phone) for placed and paid, written with the events.
    const rows = await rowsOf(order.number);
    expect(rows.map((r) => `${r.kind}:${r.channel}`)).toEqual(["placed:email", "placed:sms", "paid:email", "paid:sms"]);
    expect(new Set(rows.map((r) => r.lang))).toEqual(new Set(["ar"]));
    expect(rows.find((r) => r.channel === "sms")?.recipient).toBe(address.phone);

    // The runtime's queue hands them to this worker's consumer, which sends each once.
    await eventually(async () => (await rowsOf(order.number)).map((r) => r.status)).toEqual([
      "sent",
      "sent",
      "sent",
      "sent",
    ]);
    const mail = await outboxOf(shopper.email);
    expect(mail.map((m) => m.purpose)).toEqual(["order.placed", "order.paid"]);
    for (const m of mail) {
      expect(m.lang).toBe("ar");
      expect(m.subject).toContain(order.number);
      expect(m.body).toMatch(/[\u0600-\u06FF]/);
      expect(m.html).toContain('dir="rtl"');
    }
    expect(mail[1]!.body).toContain(`/ar/order/${order.number}/invoice`);
    expect(mail[1]!.body).toContain("ر.س");
    const sms = await outboxOf(address.phone);
    expect(sms.filter((m) => m.body.includes(order.number)).map((m) => m.channel)).toContain("sms");
  });

  it("a repeated event and a redelivered queue message send one message", async () => {
    const shopper = await newUser("en");
    const order = await placeOrder(shopper);
    const { producer, sent } = recordingQueue();
    const quiet = { ...env, NOTIFICATIONS: producer };
    // The same event three times over (a webhook replayed, a retried request): one row per channel.
    for (let i = 0; i < 3; i++)
      await env.DB.batch(notifyStatements(env.DB, { number: order.number }, "return_received", { ref: "ret_1" }));
    const rows = (await rowsOf(order.number)).filter((r) => r.kind === "return_received");
    expect(rows).toHaveLength(2);
    expect(await flushNotifications(quiet)).toBeGreaterThanOrEqual(2);
    const email = rows.find((r) => r.channel === "email")!;
    expect(sent.map((j) => j.id)).toContain(email.id);

    // The queue delivers at least once: the same job twice in a batch, then once more.
    const first = await consume([{ id: email.id }, { id: email.id }], quiet);
    expect(first.explicitAcks).toHaveLength(2);
    expect(first.retryMessages).toEqual([]);
    await consume([{ id: email.id }], quiet);
    const received = (await outboxOf(shopper.email)).filter((m) => m.purpose === "order.return_received");
    expect(received).toHaveLength(1);
    expect(received[0]!.subject).toBe(`We received your return for order ${order.number}`);
  });

  it("a failing provider is retried with a growing delay, then dead-lettered, and the checkout never notices", async () => {
    const product = await createProduct({ stock: 5 });
    const providerCalls: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      providerCalls.push(String(input instanceof Request ? input.url : input));
      return new Response("provider down", { status: 503 });
    });
    const { producer, sent } = recordingQueue();
    const failing = {
      ...env,
      MESSENGER: "http",
      MESSENGER_URL: "https://mail.example/send",
      MESSENGER_KEY: "key",
      NOTIFICATIONS: producer,
    };
    const shopper = await newGuest("en");
    const started = Date.now();
    const placed = await checkoutIn(failing, shopper, product.id);
    expect(placed.status).toBe(201);
    // The request only wrote the rows and enqueued them: the provider was never called in it.
    expect(providerCalls).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5_000);
    const number = ((await placed.json()) as { data: { number: string } }).data.number;
    const email = (await rowsOf(number)).find((r) => r.channel === "email")!;
    expect(sent.map((j) => j.id)).toContain(email.id);

    // Each delivery fails; the consumer asks the queue to retry later, each time later still.
    for (let attempt = 1; attempt <= 5; attempt++) {
      const result = await consume([{ id: email.id }], failing, { attempts: attempt });
      expect(result.retryMessages).toEqual([{ msgId: `m0-${email.id}` }]);
      expect(result.delays).toEqual([retryDelaySeconds(attempt)]);
    }
    expect(retryDelaySeconds(1)).toBeLessThan(retryDelaySeconds(4));
    expect(providerCalls).toHaveLength(5);
    let row = (await rowsOf(number)).find((r) => r.id === email.id)!;
    expect(row).toMatchObject({ status: "queued", attempts: 5 });
    expect(row.last_error).toContain("503");

    // After max_retries the runtime moves it to the dead-letter queue, whose consumer marks it dead.
    const dead = await consume([{ id: email.id }], failing, { queueName: "souq-notifications-dlq" });
    expect(dead.explicitAcks).toEqual([`m0-${email.id}`]);
    row = (await rowsOf(number)).find((r) => r.id === email.id)!;
    expect(row.status).toBe("dead");

    // An hour later the cron gives it one more round; the provider is back and it is sent.
    await env.DB.prepare(
      "UPDATE notifications SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-61 minutes') WHERE id = ?",
    )
      .bind(email.id)
      .run();
    vi.restoreAllMocks();
    await runScheduledWork(failing);
    row = (await rowsOf(number)).find((r) => r.id === email.id)!;
    expect(row).toMatchObject({ status: "queued", rounds: 1 });
    expect(row.enqueued_at).not.toBeNull();
    await consume([{ id: email.id }], { ...env, NOTIFICATIONS: producer });
    expect((await rowsOf(number)).find((r) => r.id === email.id)?.status).toBe("sent");
  });

  it("with the queue down the checkout still succeeds, and the cron sends the message afterwards", async () => {
    const product = await createProduct({ stock: 5 });
    const down = recordingQueue({ down: true });
    const shopper = await newGuest("en");
    const placed = await checkoutIn({ ...env, NOTIFICATIONS: down.producer }, shopper, product.id);
    expect(placed.status).toBe(201);
    const number = ((await placed.json()) as { data: { number: string } }).data.number;
    expect((await rowsOf(number)).map((r) => r.enqueued_at)).toEqual([null, null]);

    const up = recordingQueue();
    await runScheduledWork({ ...env, NOTIFICATIONS: up.producer });
    const rows = await rowsOf(number);
    expect(up.sent.map((j) => j.id)).toEqual(expect.arrayContaining(rows.map((r) => r.id)));
    await consume(
      rows.map((r) => ({ id: r.id })),
      { ...env, NOTIFICATIONS: up.producer },
    );
    expect((await outboxOf(shopper.email)).map((m) => m.purpose)).toEqual(["order.placed"]);
  });

  it("the cron releases an expired reservation on time: the stock comes back and the shopper is told", async () => {
    const shopper = await newGuest("ar");
    const order = await placeOrder(shopper, { stock: 3, quantity: 2 });
    expect(await stockOf(order.product.id)).toBe(1);
    await env.DB.prepare(
      "UPDATE orders SET reserved_until = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 minutes') WHERE number = ?",
    )
      .bind(order.number)
      .run();

    // Nobody reads anything: the scheduled event alone releases it.
    const { producer } = recordingQueue();
    const controller = createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" });
    await scheduled(controller, { ...env, NOTIFICATIONS: producer });
    expect(await stockOf(order.product.id)).toBe(3);
    const status = await env.DB.prepare("SELECT status FROM orders WHERE number = ?")
      .bind(order.number)
      .first<string>("status");
    expect(status).toBe("cancelled");
    const cancelled = (await rowsOf(order.number)).filter((r) => r.kind === "cancelled");
    expect(cancelled.map((r) => r.channel)).toEqual(["email", "sms"]);
    expect(cancelled.every((r) => r.enqueued_at !== null)).toBe(true);
    await consume(
      cancelled.map((r) => ({ id: r.id })),
      { ...env, NOTIFICATIONS: producer },
    );
    const told = (await outboxOf(shopper.email)).find((m) => m.purpose === "order.cancelled")!;
    expect(told.subject).toBe(`أُلغي الطلب ${order.number} لعدم إتمام الدفع في الوقت المحدد`);

    // A second run finds nothing more to release and gives nothing back twice.
    await scheduled(controller, { ...env, NOTIFICATIONS: producer });
    expect(await stockOf(order.product.id)).toBe(3);
  });

  it("the cron expires guests' carts left alone for GUEST_CART_DAYS, and keeps accounts' carts", async () => {
    const product = await createProduct({ stock: 5 });
    const guest = await newGuest();
    const user = await newUser();
    for (const who of [guest, user])
      expect((await call(who, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 })).status).toBe(200);
    await env.DB.prepare(
      "UPDATE carts SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-31 days') WHERE guest_id = ? OR user_id = ?",
    )
      .bind(guest.guestId, user.userId)
      .run();
    const report = await runScheduledWork({ ...env, NOTIFICATIONS: recordingQueue().producer });
    expect(report.carts).toBeGreaterThanOrEqual(1);
    expect((await call(guest, "GET", "/cart")).body.data.products).toEqual([]);
    expect((await call(user, "GET", "/cart")).body.data.products).toHaveLength(1);
  });

  it("shipping owes a message with the carrier's tracking link; a refund one with its amount", async () => {
    const shopper = await newGuest("en");
    const order = await placeOrder(shopper, { price: 20000 });
    await payOrder(shopper, order.number);
    const manager = await newStaff("manager");
    expect((await call(manager, "POST", `/admin/orders/${order.number}/process`, {})).status).toBe(200);
    const shipped = await call(manager, "POST", `/admin/orders/${order.number}/ship`, {
      carrier: "Aramex",
      tracking_number: "AX 123 456",
    });
    expect(shipped.status).toBe(200);
    expect((await call(manager, "POST", `/admin/orders/${order.number}/refund`, { amount: 5000 })).status).toBe(200);

    const { producer } = recordingQueue();
    const rows = (await rowsOf(order.number)).filter((r) => r.channel === "email" && r.status !== "sent");
    await consume(
      rows.map((r) => ({ id: r.id })),
      { ...env, NOTIFICATIONS: producer },
    );
    await eventually(async () => (await outboxOf(shopper.email)).map((m) => m.purpose)).toEqual(
      expect.arrayContaining(["order.shipped", "order.refunded"]),
    );
    const mail = await outboxOf(shopper.email);
    const ship = mail.find((m) => m.purpose === "order.shipped")!;
    expect(ship.body).toContain("https://www.aramex.com/sa/en/track/results?ShipmentNumber=AX123456");
    expect(ship.body).toContain("AX 123 456");
    // The refund's message links its credit note.
    const creditNote = await env.DB.prepare(
      "SELECT t.id FROM tax_documents t JOIN orders o ON o.id = t.order_id WHERE o.number = ? AND t.kind = 'credit_note'",
    )
      .bind(order.number)
      .first<number>("id");
    expect(mail.find((m) => m.purpose === "order.refunded")!.body).toContain(
      `/en/order/${order.number}/credit-note/${creditNote}`,
    );
    // Intl writes a no-break space between the currency and the amount.
    expect(mail.find((m) => m.purpose === "order.refunded")!.subject.replace(/\u00a0/g, " ")).toBe(
      `Refund of SAR 50.00 for order ${order.number}`,
    );
  });

  it("the console's order page lists the messages; a manager sends a dead one again, audited, and support cannot", async () => {
    const shopper = await newGuest("en");
    const order = await placeOrder(shopper);
    await eventually(async () => (await rowsOf(order.number)).map((r) => r.status)).toEqual(["sent", "sent"]);
    const email = (await rowsOf(order.number)).find((r) => r.channel === "email")!;
    const manager = await newStaff("manager");
    const support = await newStaff("support");
    const path = `/admin/orders/${order.number}/messages/${email.id}/resend`;

    const page = await call(manager, "GET", `/admin/orders/${order.number}`);
    expect(page.body.data.messages).toEqual([
      expect.objectContaining({ kind: "placed", channel: "email", status: "sent", attempts: 1 }),
      expect.objectContaining({ kind: "placed", channel: "sms", status: "sent" }),
    ]);
    // A sent message is not sent again.
    expect((await call(manager, "POST", path, {})).status).toBe(409);

    await env.DB.prepare("UPDATE notifications SET status = 'dead', last_error = 'provider down' WHERE id = ?")
      .bind(email.id)
      .run();
    expect((await call(support, "POST", path, {})).status).toBe(403);
    const resent = await call(manager, "POST", path, {});
    expect(resent.status).toBe(200);
    expect(resent.body.data.messages[0]).toMatchObject({ id: email.id });
    await eventually(async () => (await rowsOf(order.number)).find((r) => r.id === email.id)?.status).toBe("sent");
    expect((await outboxOf(shopper.email)).filter((m) => m.purpose === "order.placed")).toHaveLength(2);
    const audit = await env.DB.prepare(
      "SELECT action FROM audit_log WHERE entity = 'order' AND entity_id = ? AND action = 'order.message_resend'",
    )
      .bind(order.number)
      .all();
    expect(audit.results).toHaveLength(1);
    // Another order's message is not this order's to send.
    const other = await placeOrder(await newGuest("en"));
    expect((await call(manager, "POST", `/admin/orders/${other.number}/messages/${email.id}/resend`, {})).status).toBe(
      409,
    );
  });

  it("a message's HTML escapes what the order carries and takes the language's direction", () => {
    const rendered = renderOrderMessage("ar", "shipped", "email", {
      name: "<script>",
      number: "SQ-1",
      carrier: 'A "carrier" <script>',
      tracking: "1",
      trackingUrl: "https://t.example/?a=1&b=2",
      orderUrl: "https://souq.example/ar/order/checkout/status?order=SQ-1",
    });
    expect(rendered.html).toContain('<html lang="ar" dir="rtl">');
    expect(rendered.html).not.toContain("<script>");
    expect(rendered.html).toContain("A &quot;carrier&quot; &lt;script&gt;");
    expect(rendered.html).toContain('<a href="https://t.example/?a=1&amp;b=2"');
    expect(rendered.text).toContain("https://t.example/?a=1&b=2");
  });
});

/** The targets of an HTML message's links. */
const hrefsOf = (html: string | null) => [...(html ?? "").matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((m) => m[1]);

/** An order's messages, once the queue has sent them all. */
async function sentMessages(number: string, email: string, phone: string) {
  await eventually(async () => (await rowsOf(number)).every((r) => r.status === "sent")).toBe(true);
  const mine = (m: { body: string }) => m.body.includes(number);
  return [...(await outboxOf(email)), ...(await outboxOf(phone))].filter(mine);
}

describe("what a message links to", () => {
  const PHISH = "souq-edge-payments.example";

  it("payment-link phishing: a forged Origin on checkout does not change the links in the order's messages", async () => {
    const shopper = await newGuest("en");
    // A script, not a browser: it says the request is the shop's own (Sec-Fetch-Site), which gets it past
    // the cross-site check, and names the phishing site as its Origin.
    const forged = {
      ...shopper,
      headers: { ...shopper.headers, origin: `https://${PHISH}`, "sec-fetch-site": "same-origin" },
    };
    const order = await placeOrder(forged);
    const messages = await sentMessages(order.number, shopper.email, address.phone);
    expect(messages.map((m) => `${m.purpose}:${m.channel}`).sort()).toEqual(["order.placed:email", "order.placed:sms"]);
    // The shop's own origin (this request's URL, in test; PUBLIC_ORIGIN in production), never the header's.
    const link = `http://shop.test/en/order/checkout/status?order=${order.number}`;
    for (const m of messages) {
      expect(m.body).toContain(link);
      expect(m.body).not.toContain(PHISH);
      expect(m.html ?? "").not.toContain(PHISH);
      for (const href of hrefsOf(m.html)) expect(href.startsWith("http://shop.test/")).toBe(true);
    }
  });

  it("greeting link injection: a URL typed as the delivery name is not a link", async () => {
    const shopper = await newGuest("en");
    const product = await createProduct({ stock: 5 });
    const placed = await checkoutWith(shopper, product.id, 1, {
      address: { ...address, name: `https://${PHISH}/pay Bob` },
    });
    expect(placed.status).toBe(201);
    const number = placed.body.data.number as string;
    const [mail] = (await sentMessages(number, shopper.email, address.phone)).filter((m) => m.channel === "email");
    expect(mail).toBeDefined();
    expect(mail!.body).not.toContain(PHISH);
    expect(mail!.html).not.toContain(PHISH);
    // A guest's order: the link carries its signed token in the fragment (services/orders/order-links.ts).
    expect(hrefsOf(mail!.html)).toEqual([
      expect.stringMatching(
        new RegExp(`^http://shop\\.test/en/order/checkout/status\\?order=${number}#access=\\d+\\.[0-9a-f]{64}$`),
      ),
    ]);

    // Only the template's own link parameters become links; what a person typed stays text.
    for (const name of ["www.evil.example", "evil.example/pay", "http://evil.example"]) {
      const rendered = renderOrderMessage("en", "shipped", "email", {
        name,
        number: "SQ-1",
        carrier: "Carrier https://evil.example/track",
        tracking: "1",
        trackingUrl: "https://t.example/?a=1",
        orderUrl: "https://souq.example/en/order/checkout/status?order=SQ-1",
      });
      expect(hrefsOf(rendered.html)).toEqual([
        "https://t.example/?a=1",
        "https://souq.example/en/order/checkout/status?order=SQ-1",
      ]);
      expect(rendered.text.split("\n")[0], name).not.toContain("evil");
    }
    expect(
      renderOrderMessage("en", "placed", "email", { name: "Sara", orderUrl: "https://souq.example/x" }).text,
    ).toMatch(/^Hello Sara,/);
  });

  it("SMS pumping: an order with a premium international number sends no SMS", async () => {
    for (const phone of ["+88213456789", "0088213456789"]) {
      const shopper = await newGuest("en");
      const product = await createProduct({ stock: 5 });
      const placed = await checkoutWith(shopper, product.id, 1, { address: { ...address, phone } });
      expect(placed.status).toBe(201);
      const number = placed.body.data.number as string;
      // The email still goes; no SMS is owed to a number outside the shop's delivery countries.
      expect((await rowsOf(number)).map((r) => `${r.kind}:${r.channel}`)).toEqual(["placed:email"]);
      await sentMessages(number, shopper.email, phone);
      expect(await outboxOf(phone)).toEqual([]);
    }
    // A number of the shop's own country, written the national way, still gets its SMS.
    const shopper = await newGuest("en");
    const product = await createProduct({ stock: 5 });
    const placed = await checkoutWith(shopper, product.id, 1, { address: { ...address, phone: "0512345678" } });
    expect((await rowsOf(placed.body.data.number as string)).map((r) => r.channel)).toEqual(["email", "sms"]);
    // The database's choice of recipients is the contract's rule.
    for (const phone of [
      "+966512345678",
      "00966512345678",
      "0512345678",
      "+88213456789",
      "0088213456789",
      "512345678",
      "+9715012345",
    ]) {
      const chosen = await env.DB.prepare(`SELECT ${deliveryPhoneSql("?1")} AS ok`)
        .bind(phone)
        .first<number>("ok");
      expect(Boolean(chosen), phone).toBe(isDeliveryPhone(phone));
    }
    expect(isDeliveryPhone("+966512345678") && isDeliveryPhone("0512345678")).toBe(true);
  });
});
