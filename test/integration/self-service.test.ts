import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, newGuest, newUser, stockOf, type Shopper } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import { paidOrder, placeOrder, type PlacedOrder } from "../support/orders";

/**
 * The shopper's self-service on the order page: cancel before shipping (the stock
 * returns, a paid order is refunded through the provider) and returns within the window after
 * delivery, which staff approve, receive and refund in the console.
 */

async function deliver(manager: Staff, number: string) {
  expect((await call(manager, "POST", `/admin/orders/${number}/process`)).status).toBe(200);
  const shipped = await call(manager, "POST", `/admin/orders/${number}/ship`, {
    carrier: "SMSA",
    tracking_number: "SM123456",
  });
  expect(shipped.status).toBe(200);
  expect((await call(manager, "POST", `/admin/orders/${number}/deliver`)).status).toBe(200);
}

/** A delivered order of `quantity` (2 by default) of a fresh product at 100 SAR each. */
async function deliveredOrder(shopper: Shopper, manager: Staff, quantity = 2): Promise<PlacedOrder> {
  const order = await paidOrder(shopper, { quantity, price: 10000 });
  await deliver(manager, order.number);
  return order;
}

const countOf = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;

const returnsOf = (number: string) =>
  countOf("SELECT COUNT(*) AS n FROM returns r JOIN orders o ON o.id = r.order_id WHERE o.number = ?", number);

describe("cancelling an order from its page", () => {
  it("the owner cancels a paid order that has not shipped: cancelled, stock back, refunded in full", async () => {
    const shopper = await newUser();
    const order = await paidOrder(shopper, { stock: 5, quantity: 2 });
    expect(await stockOf(order.product.id)).toBe(3);
    const page = await call(shopper, "GET", `/orders/${order.number}`);
    expect(page.body.data.self_service).toMatchObject({ can_cancel: true, can_return: false });

    const cancelled = await call(shopper, "POST", `/orders/${order.number}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      status: "cancelled",
      payment_status: "refunded",
      refunded: order.total,
    });
    expect(cancelled.body.data.self_service.can_cancel).toBe(false);
    expect(cancelled.body.data.self_service.refunds).toEqual([
      expect.objectContaining({ amount: order.total, status: "succeeded" }),
    ]);
    expect(await stockOf(order.product.id)).toBe(5);
  });

  it("a guest cancels an unpaid order; nothing is refunded", async () => {
    const guest = await newGuest();
    const order = await placeOrder(guest, { stock: 4, quantity: 1 });
    const cancelled = await call(guest, "POST", `/orders/${order.number}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe("cancelled");
    expect(cancelled.body.data.self_service.refunds).toEqual([]);
    expect(await stockOf(order.product.id)).toBe(4);
  });

  it("a shipped order cannot be cancelled (409), and a stranger gets 404", async () => {
    const [shopper, stranger, manager] = await Promise.all([newUser(), newUser(), newStaff("manager")]);
    const order = await paidOrder(shopper);
    expect((await call(stranger, "POST", `/orders/${order.number}/cancel`)).status).toBe(404);
    await call(manager, "POST", `/admin/orders/${order.number}/process`);
    await call(manager, "POST", `/admin/orders/${order.number}/ship`, { carrier: "SMSA", tracking_number: "SM1" });
    const refused = await call(shopper, "POST", `/orders/${order.number}/cancel`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/shipped/);
    const page = await call(shopper, "GET", `/orders/${order.number}`);
    expect(page.body.data.self_service.can_cancel).toBe(false);
  });
});

describe("requesting a return", () => {
  it("a bad quantity or a missing reason is refused with field errors, and nothing is written", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const order = await deliveredOrder(shopper, manager);
    const path = `/orders/${order.number}/returns`;
    const pid = order.product.id;

    const noReason = await call(shopper, "POST", path, { items: [{ product_id: pid, quantity: 1 }] });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors?.["items.0.reason"]).toBeTruthy();

    const badQuantity = await call(shopper, "POST", path, {
      items: [{ product_id: pid, quantity: -1, reason: "damaged" }],
    });
    expect(badQuantity.status).toBe(422);
    expect(badQuantity.body.errors?.["items.0.quantity"]).toBeTruthy();

    const badReason = await call(shopper, "POST", path, { items: [{ product_id: pid, quantity: 1, reason: "bored" }] });
    expect(badReason.status).toBe(422);
    expect(badReason.body.errors?.["items.0.reason"]).toBeTruthy();

    const nothing = await call(shopper, "POST", path, { items: [{ product_id: pid, quantity: 0 }] });
    expect(nothing.status).toBe(422);
    expect(nothing.body.errors?.items).toBeTruthy();

    const tooMany = await call(shopper, "POST", path, { items: [{ product_id: pid, quantity: 3, reason: "damaged" }] });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors?.["items.0.quantity"]?.[0]).toMatch(/2/);

    const arabic = await call({ headers: { ...shopper.headers, "content-language": "ar" } }, "POST", path, {
      items: [{ product_id: pid, quantity: 1 }],
    });
    expect(arabic.status).toBe(422);
    expect(arabic.body.errors?.["items.0.reason"]?.[0]).toMatch(/[\u0600-\u06FF]/);

    expect((await call(shopper, "POST", path, "not an object")).status).toBe(422);
    expect(await returnsOf(order.number)).toBe(0);
  });

  it("a return is refused before delivery and once the window has closed", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const early = await paidOrder(shopper);
    const body = (pid: number) => ({ items: [{ product_id: pid, quantity: 1, reason: "changed_mind" }] });
    const before = await call(shopper, "POST", `/orders/${early.number}/returns`, body(early.product.id));
    expect(before.status).toBe(409);
    expect(before.body.message).toMatch(/delivered/);

    const late = await deliveredOrder(shopper, manager);
    await env.DB.prepare("UPDATE orders SET delivered_at = ? WHERE number = ?")
      .bind(new Date(Date.now() - 15 * 86_400_000).toISOString(), late.number)
      .run();
    const page = await call(shopper, "GET", `/orders/${late.number}`);
    expect(page.body.data.self_service).toMatchObject({ can_return: false });
    const closed = await call(shopper, "POST", `/orders/${late.number}/returns`, body(late.product.id));
    expect(closed.status).toBe(409);
    expect(closed.body.message).toMatch(/window/);
    expect(await returnsOf(late.number)).toBe(0);
  });

  it("a shopper cannot ask to return more than was bought across several requests; a stranger gets 404", async () => {
    const [shopper, stranger, manager] = await Promise.all([newUser(), newUser(), newStaff("manager")]);
    const order = await deliveredOrder(shopper, manager);
    const path = `/orders/${order.number}/returns`;
    const line = (quantity: number) => ({
      items: [{ product_id: order.product.id, quantity, reason: "not_as_described", note: "Scratched" }],
    });
    expect((await call(stranger, "POST", path, line(1))).status).toBe(404);

    const first = await call(shopper, "POST", path, line(1));
    expect(first.status).toBe(201);
    expect(first.body.data.self_service.returns).toEqual([
      expect.objectContaining({
        status: "requested",
        amount: 10000,
        items: [expect.objectContaining({ quantity: 1 })],
      }),
    ]);
    expect(first.body.data.self_service.returnable[order.product.id]).toBe(1);

    const over = await call(shopper, "POST", path, line(2));
    expect(over.status).toBe(422);
    const second = await call(shopper, "POST", path, line(1));
    expect(second.status).toBe(201);
    expect(second.body.data.self_service.can_return).toBe(false);
    expect((await call(shopper, "POST", path, line(1))).status).toBe(422);
    expect(await returnsOf(order.number)).toBe(2);
  });
});

describe("returns in the console", () => {
  it("staff approve, receive and refund a return: stock back, the order refunded, the shopper told once", async () => {
    const [shopper, manager, support] = await Promise.all([newUser(), newStaff("manager"), newStaff("support")]);
    const order = await deliveredOrder(shopper, manager, 2);
    const stockBefore = await stockOf(order.product.id);
    const requested = await call(shopper, "POST", `/orders/${order.number}/returns`, {
      items: [{ product_id: order.product.id, quantity: 1, reason: "damaged" }],
    });
    const id = requested.body.data.self_service.returns[0].id as string;
    const base = `/admin/orders/${order.number}/returns`;

    const seen = await call(support, "GET", base);
    expect(seen.status).toBe(200);
    expect(seen.body.data).toEqual([expect.objectContaining({ id, status: "requested", actions: [] })]);
    expect((await call(support, "POST", `${base}/${id}/approve`)).status).toBe(403);

    const open = async () =>
      ((await call(manager, "GET", `/admin/orders?returns=open&search=${order.number}`)).body.data as unknown[]).length;
    expect(await open()).toBe(1);
    expect((await call(manager, "GET", "/admin/orders?returns=closed")).status).toBe(422);

    const listed = await call(manager, "GET", base);
    expect(listed.body.data[0].actions).toEqual(["approve", "reject"]);
    expect((await call(manager, "POST", `${base}/${id}/receive`)).status).toBe(409);

    const approved = await call(manager, "POST", `${base}/${id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.data[0]).toMatchObject({ status: "approved", actions: ["receive"] });
    // A second click finds it approved already.
    expect((await call(manager, "POST", `${base}/${id}/approve`)).status).toBe(409);

    // A double click: both requests race, one receives, the other finds it received already.
    const clicks = await Promise.all([
      call(manager, "POST", `${base}/${id}/receive`),
      call(manager, "POST", `${base}/${id}/receive`),
    ]);
    expect(clicks.map((c) => c.status).sort()).toEqual([200, 409]);
    const received = clicks.find((c) => c.status === 200)!;
    expect(received.body.data[0]).toMatchObject({ status: "received", actions: ["refund"] });
    expect(await stockOf(order.product.id)).toBe(stockBefore + 1);
    expect(
      await countOf(
        "SELECT COUNT(*) AS n FROM inventory_adjustments WHERE product_id = ? AND reason = 'returned' AND delta = 1",
        order.product.id,
      ),
    ).toBe(1);
    expect(
      await countOf(
        "SELECT COUNT(*) AS n FROM notifications n JOIN orders o ON o.id = n.order_id WHERE o.number = ? AND n.kind = 'return_received' AND n.channel = 'email'",
        order.number,
      ),
    ).toBe(1);

    const refunded = await call(manager, "POST", `${base}/${id}/refund`);
    expect(refunded.status).toBe(200);
    expect(refunded.body.data[0]).toMatchObject({ status: "refunded", actions: [] });
    expect(refunded.body.data[0].refund_id).toMatch(/^rfd_/);
    expect((await call(manager, "POST", `${base}/${id}/refund`)).status).toBe(409);
    expect(await open()).toBe(0);

    const page = await call(shopper, "GET", `/orders/${order.number}`);
    expect(page.body.data).toMatchObject({ refunded: 10000, payment_status: "partially_refunded" });
    expect(page.body.data.self_service.returns[0]).toMatchObject({ status: "refunded" });
    expect(page.body.data.self_service.refunds).toEqual([
      expect.objectContaining({ id: refunded.body.data[0].refund_id, amount: 10000, status: "succeeded" }),
    ]);
    expect(await countOf("SELECT COUNT(*) AS n FROM audit_log WHERE entity = 'return' AND entity_id = ?", id)).toBe(3);

    // The console names the return the refund was for; it has no reason of its own, so nothing in
    // one language is shown to staff reading the other.
    const detail = await call(manager, "GET", `/admin/orders/${order.number}`);
    expect(detail.body.data.refunds).toEqual([
      expect.objectContaining({ id: refunded.body.data[0].refund_id, reason: null, return_id: id }),
    ]);
    const steps = (detail.body.data.events as { type: string; detail: Record<string, unknown> | null }[]).filter((e) =>
      ["refund_requested", "refunded"].includes(e.type),
    );
    expect(steps.map((e) => e.detail)).toEqual([
      expect.objectContaining({ reason: null, return_id: id }),
      expect.objectContaining({ reason: null, return_id: id }),
    ]);
  });

  it("refunds made for a return before refunds named their return are given it by the migration", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const order = await deliveredOrder(shopper, manager, 2);
    const requested = await call(shopper, "POST", `/orders/${order.number}/returns`, {
      items: [{ product_id: order.product.id, quantity: 1, reason: "damaged" }],
    });
    const id = requested.body.data.self_service.returns[0].id as string;
    const { id: orderId } = (await env.DB.prepare("SELECT id FROM orders WHERE number = ?")
      .bind(order.number)
      .first<{ id: number }>())!;
    const { id: paymentId } = (await env.DB.prepare("SELECT id FROM payments WHERE order_id = ?")
      .bind(orderId)
      .first<{ id: string }>())!;
    // As the code before it wrote them: the return in an English reason, and a refund staff typed.
    const legacy = `rfd_legacy_${id}`;
    const typed = `rfd_typed_${id}`;
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO refunds (id, order_id, payment_id, amount, reason, status) VALUES (?, ?, ?, 100, ?, 'succeeded'), (?, ?, ?, 100, 'Return ret_not_this_order', 'succeeded')",
      ).bind(legacy, orderId, paymentId, `Return ${id}`, typed, orderId, paymentId),
      env.DB.prepare("INSERT INTO order_events (order_id, type, detail) VALUES (?, 'refunded', ?)").bind(
        orderId,
        JSON.stringify({ refund_id: legacy, amount: 100, reason: `Return ${id}`, message: null }),
      ),
    ]);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0021_"))!;
    for (const query of migration.queries.filter((q) => /\bUPDATE\b/.test(q) && !/ALTER TABLE/.test(q)))
      await env.DB.prepare(query).run();

    const rows = await env.DB.prepare("SELECT id, reason, return_id FROM refunds WHERE id IN (?, ?) ORDER BY id")
      .bind(legacy, typed)
      .all();
    expect(rows.results).toEqual([
      { id: legacy, reason: null, return_id: id },
      { id: typed, reason: "Return ret_not_this_order", return_id: null },
    ]);
    const event = await env.DB.prepare("SELECT detail FROM order_events WHERE order_id = ? AND type = 'refunded'")
      .bind(orderId)
      .first<{ detail: string }>();
    expect(JSON.parse(event!.detail)).toEqual({
      refund_id: legacy,
      amount: 100,
      reason: null,
      message: null,
      return_id: id,
    });
  });

  it("a rejected return gives its quantity back to ask for again", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const order = await deliveredOrder(shopper, manager, 1);
    const line = { items: [{ product_id: order.product.id, quantity: 1, reason: "changed_mind" }] };
    const first = await call(shopper, "POST", `/orders/${order.number}/returns`, line);
    const id = first.body.data.self_service.returns[0].id as string;
    expect(first.body.data.self_service.can_return).toBe(false);
    const rejected = await call(manager, "POST", `/admin/orders/${order.number}/returns/${id}/reject`, {
      note: "Opened and used",
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data[0]).toMatchObject({ status: "rejected", decision_note: "Opened and used", actions: [] });
    expect((await call(shopper, "POST", `/orders/${order.number}/returns`, line)).status).toBe(201);
  });
});
