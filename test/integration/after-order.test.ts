import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { address, call, createProduct, newGuest, newUser, type Shopper } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import { paidOrder, placeOrder } from "../support/orders";

/**
 * What a shopper hears and can do after the order: a message when a return is requested, approved
 * (with where to send the items) or rejected (with the reason); the cancel message of an order that
 * was never paid says nothing was charged; and "order again" puts a cancelled order's lines back
 * in the cart as stock allows.
 */

async function deliver(manager: Staff, number: string) {
  for (const [path, body] of [
    ["process", undefined],
    ["ship", { carrier: "SMSA", tracking_number: "SM123456" }],
    ["deliver", undefined],
  ] as const)
    expect((await call(manager, "POST", `/admin/orders/${number}/${path}`, body)).status).toBe(200);
}

/** The messages an order owes, in the order written: kind, channel and the detail they carry. */
const messagesOf = async (number: string) =>
  (
    await env.DB.prepare(
      "SELECT n.kind, n.channel, n.detail FROM notifications n JOIN orders o ON o.id = n.order_id WHERE o.number = ? ORDER BY n.id",
    )
      .bind(number)
      .all<{ kind: string; channel: string; detail: string | null }>()
  ).results;

/** What the development outbox holds for a recipient and purpose (the consumer rendered and sent it). */
const sentTo = (to: string, purpose: string) =>
  expect.poll(
    async () =>
      (
        await env.DB.prepare("SELECT subject, body FROM dev_outbox WHERE recipient = ? AND purpose = ? ORDER BY id")
          .bind(to, purpose)
          .all<{ subject: string; body: string }>()
      ).results,
    { timeout: 10_000, interval: 100 },
  );

async function requestReturnOf(shopper: Shopper, number: string, productId: number) {
  const requested = await call(shopper, "POST", `/orders/${number}/returns`, {
    items: [{ product_id: productId, quantity: 1, reason: "damaged" }],
  });
  expect(requested.status).toBe(201);
  return requested.body.data.self_service.returns[0].id as string;
}

describe("return messages", { timeout: 30_000 }, () => {
  it("a request, then an approval with where to send the items, each reach the shopper in their language", async () => {
    const [shopper, manager] = await Promise.all([newUser("ar"), newStaff("manager")]);
    const order = await paidOrder(shopper, { quantity: 2 });
    await deliver(manager, order.number);
    const id = await requestReturnOf(shopper, order.number, order.product.id);

    expect((await messagesOf(order.number)).filter((m) => m.kind === "return_requested").map((m) => m.channel)).toEqual(
      ["email", "sms"],
    );
    await sentTo(shopper.email, "order.return_requested").toEqual([
      expect.objectContaining({
        subject: expect.stringContaining(order.number),
        // The returned line, by its Arabic name, and that nothing is to be sent yet.
        body: expect.stringMatching(/1 × .*يرجى عدم إرسال أي شيء/s),
      }),
    ]);

    expect((await call(manager, "POST", `/admin/orders/${order.number}/returns/${id}/approve`)).status).toBe(200);
    await sentTo(shopper.email, "order.return_approved").toEqual([
      expect.objectContaining({ body: expect.stringContaining(env.SELLER_ADDRESS_AR!) }),
    ]);
    // The order page says where to send them, too.
    const page = await call(shopper, "GET", `/orders/${order.number}`);
    expect(page.body.data.self_service.send_to).toContain(env.SELLER_ADDRESS_AR!);
    expect(page.body.data.self_service.returns[0]).toMatchObject({ status: "approved", decision_note: null });
    // A second click writes nothing: one message per decision.
    expect((await call(manager, "POST", `/admin/orders/${order.number}/returns/${id}/approve`)).status).toBe(409);
    expect((await messagesOf(order.number)).filter((m) => m.kind === "return_approved")).toHaveLength(2);
  });

  it("a rejection tells the shopper the reason staff gave, by message and on the order page", async () => {
    const [shopper, manager] = await Promise.all([newUser("en"), newStaff("manager")]);
    const order = await paidOrder(shopper);
    await deliver(manager, order.number);
    const id = await requestReturnOf(shopper, order.number, order.product.id);
    const reason = "The seal is broken and the item was used";
    const rejected = await call(manager, "POST", `/admin/orders/${order.number}/returns/${id}/reject`, {
      note: reason,
    });
    expect(rejected.status).toBe(200);
    await sentTo(shopper.email, "order.return_rejected").toEqual([
      expect.objectContaining({ body: expect.stringContaining(`The reason: ${reason}.`) }),
    ]);
    const page = await call(shopper, "GET", `/orders/${order.number}`);
    expect(page.body.data.self_service.returns[0]).toMatchObject({ status: "rejected", decision_note: reason });
  });

  it("a rejection without a reason says none was given; the shopper never reads another return's note", async () => {
    const [shopper, manager] = await Promise.all([newUser("en"), newStaff("manager")]);
    const order = await paidOrder(shopper, { quantity: 2 });
    await deliver(manager, order.number);
    const id = await requestReturnOf(shopper, order.number, order.product.id);
    expect((await call(manager, "POST", `/admin/orders/${order.number}/returns/${id}/reject`, {})).status).toBe(200);
    await sentTo(shopper.email, "order.return_rejected").toEqual([
      expect.objectContaining({ body: expect.stringContaining("The reason: no reason was given.") }),
    ]);
  });
});

describe("the cancel message", { timeout: 30_000 }, () => {
  it("an unpaid order's says nothing was charged; a paid one's says the refund follows", async () => {
    const guest = await newGuest("en");
    const unpaid = await placeOrder(guest);
    expect((await call(guest, "POST", `/orders/${unpaid.number}/cancel`)).status).toBe(200);
    const payer = await newGuest("en");
    const paid = await paidOrder(payer);
    expect((await call(payer, "POST", `/orders/${paid.number}/cancel`)).status).toBe(200);

    await sentTo(guest.email, "order.cancelled").toEqual([
      expect.objectContaining({ body: expect.stringContaining("nothing was charged") }),
    ]);
    await sentTo(payer.email, "order.cancelled").toEqual([
      expect.objectContaining({
        body: expect.stringMatching(/^(?![\s\S]*nothing was charged)[\s\S]*the refund follows/),
      }),
    ]);
  });
});

describe("order again", { timeout: 30_000 }, () => {
  it("puts a cancelled order's lines back in the cart at the quantity ordered, once however often it is pressed", async () => {
    const guest = await newGuest();
    const order = await placeOrder(guest, { quantity: 2, stock: 10 });
    expect((await call(guest, "POST", `/orders/${order.number}/cancel`)).status).toBe(200);

    const again = await call(guest, "POST", `/orders/${order.number}/order-again`);
    expect(again.status).toBe(200);
    expect(again.body.data.reorder).toEqual({ added: 1, reduced: [], unavailable: [] });
    expect(again.body.data.products).toEqual([
      expect.objectContaining({ product: expect.objectContaining({ id: order.product.id }), quantity: 2 }),
    ]);
    const twice = await call(guest, "POST", `/orders/${order.number}/order-again`);
    expect(twice.body.data.products).toEqual([
      expect.objectContaining({ product: expect.objectContaining({ id: order.product.id }), quantity: 2 }),
    ]);
  });

  it("says which lines are fewer or gone, and adds what it can", async () => {
    const shopper = await newUser("en");
    const scarce = await createProduct({ stock: 5, price: 5000 });
    const gone = await createProduct({ stock: 5, price: 7000 });
    for (const [product, quantity] of [
      [scarce, 3],
      [gone, 1],
    ] as const)
      expect((await call(shopper, "POST", "/cart/add-product", { product_id: product.id, quantity })).status).toBe(200);
    const placed = await call(shopper, "POST", "/checkout", {
      idempotency_key: crypto.randomUUID(),
      address,
      shipping_method: "standard",
      payment_method: "card",
    });
    expect(placed.status).toBe(201);
    const number = placed.body.data.number as string;
    expect((await call(shopper, "POST", `/orders/${number}/cancel`)).status).toBe(200);
    await env.DB.batch([
      env.DB.prepare("UPDATE products SET stock = 1 WHERE id = ?").bind(scarce.id),
      env.DB.prepare("UPDATE products SET active = 0 WHERE id = ?").bind(gone.id),
    ]);

    const again = await call(shopper, "POST", `/orders/${number}/order-again`);
    expect(again.status).toBe(200);
    expect(again.body.data.reorder).toEqual({ added: 1, reduced: ["Test gadget"], unavailable: ["Test gadget"] });
    expect(again.body.data.products).toEqual([
      expect.objectContaining({ product: expect.objectContaining({ id: scarce.id }), quantity: 1 }),
    ]);
  });

  it("is refused for an order that is not cancelled (409), and a stranger learns nothing (404)", async () => {
    const [owner, stranger] = await Promise.all([newGuest(), newGuest()]);
    const order = await placeOrder(owner);
    expect((await call(owner, "POST", `/orders/${order.number}/order-again`)).status).toBe(409);
    expect((await call(owner, "POST", `/orders/${order.number}/cancel`)).status).toBe(200);
    expect((await call(stranger, "POST", `/orders/${order.number}/order-again`)).status).toBe(404);
    expect((await call(stranger, "GET", "/cart")).body.data.products ?? []).toEqual([]);
  });
});

describe("migration 0035 on a database made and used before it", () => {
  it("keeps every queued and sent message, and the new kinds can be written", async () => {
    const db = env.REPLICA_DB;
    await applyD1Migrations(
      db,
      env.TEST_MIGRATIONS.filter((m) => m.name < "0035"),
    );
    const orderId = await db
      .prepare(
        `INSERT INTO orders (number, email, address, subtotal, shipping, vat, total, shipping_method, payment_method, idempotency_key, lang)
         VALUES ('SQ-MIGR0035', 'old@example.com', '{}', 10000, 2500, 1630, 12500, 'standard', 'card', 'k-0035', 'ar') RETURNING id`,
      )
      .first<number>("id");
    const before = [
      ["SQ-MIGR0035:placed:email", "placed", "sent", null],
      ["SQ-MIGR0035:refunded:rfd_1:email", "refunded", "queued", '{"amount":500,"refund_id":"rfd_1"}'],
      ["SQ-MIGR0035:return_received:ret_1:sms", "return_received", "dead", null],
    ] as const;
    for (const [key, kind, status, detail] of before)
      await db
        .prepare(
          "INSERT INTO notifications (key, order_id, kind, channel, recipient, lang, detail, status) VALUES (?, ?, ?, ?, 'old@example.com', 'ar', ?, ?)",
        )
        .bind(key, orderId, kind, key.endsWith(":sms") ? "sms" : "email", detail, status)
        .run();
    const rows = async () =>
      (
        await db
          .prepare("SELECT id, key, kind, channel, detail, status, created_at FROM notifications ORDER BY id")
          .all()
      ).results;
    const old = await rows();

    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    expect(await rows()).toEqual(old);
    await db
      .prepare(
        "INSERT INTO notifications (key, order_id, kind, channel, recipient, lang) VALUES ('SQ-MIGR0035:return_rejected:ret_2:email', ?, 'return_rejected', 'email', 'old@example.com', 'ar')",
      )
      .bind(orderId)
      .run();
    await expect(
      db
        .prepare(
          "INSERT INTO notifications (key, order_id, kind, channel, recipient, lang) VALUES ('x', ?, 'nonsense', 'email', 'a@b.c', 'ar')",
        )
        .bind(orderId)
        .run(),
    ).rejects.toThrow(/CHECK/);
    // Deleting the order still takes its messages with it.
    await db.prepare("DELETE FROM orders WHERE id = ?").bind(orderId).run();
    expect(await rows()).toEqual([]);
  });
});
