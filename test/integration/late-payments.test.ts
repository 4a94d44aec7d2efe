import { applyD1Migrations, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sandboxSecret } from "../../worker/backend/services/payments/providers";
import { SANDBOX_REFUND_DECLINED_AMOUNT, sandboxEvent } from "../../worker/backend/services/payments/providers/sandbox";
import { applyProviderResult, findPayment } from "../../worker/backend/services/payments/payments";
import { call, newGuest, type Shopper } from "../support/commerce";
import { newStaff } from "../support/console";
import { placeOrder } from "../support/orders";
import { releaseExpiredReservations } from "../../worker/backend/services/orders/reservations";

/** The shopper on the gateway's page: a payment started and not decided yet. */
async function startedPayment(shopper: Shopper, opts: { price?: number } = {}) {
  const order = await placeOrder(shopper, opts);
  const started = await call<{ payment_id: string }>(shopper, "POST", `/payments/${order.number}/start`, {
    return_url: "/en/payment-status",
  });
  expect(started.status).toBe(200);
  return { ...order, paymentId: started.body.data.payment_id };
}

/** The gateway's signed "paid" event for the payment, as it stands now, delivered to the webhook. */
async function gatewayPaid(paymentId: string) {
  const payment = (await findPayment(env.DB, paymentId))!;
  const event = await sandboxEvent(await sandboxSecret(env), payment, { status: "paid", message: null, threeDs: null });
  const res = await SELF.fetch("http://shop.test/backend/payments/webhook/sandbox", {
    method: "POST",
    headers: { "content-type": "application/json", "x-signature": event.signature },
    body: event.body,
  });
  return { status: res.status, body: (await res.json()) as { data: { outcome: string } }, event };
}

interface LogLine {
  level?: string;
  event?: string;
  payment_id?: string;
}

/** What the worker logged through console.error, as JSON lines. */
const errorEvents = (spy: { mock: { calls: unknown[][] } }): LogLine[] =>
  spy.mock.calls.flatMap((args) => {
    try {
      return [JSON.parse(String(args[0])) as LogLine];
    } catch {
      return [];
    }
  });

describe("a gateway's paid event for a payment the shop already closed", () => {
  afterEach(() => vi.restoreAllMocks());

  it("late payment: a paid event for a cancelled order is recorded, alerted and refunded, never dropped", async () => {
    const errors = vi.spyOn(console, "error");
    const [guest, manager] = await Promise.all([newGuest(), newStaff("manager")]);
    const { number, paymentId, total } = await startedPayment(guest);
    // Meanwhile staff cancel the order: its open payment is closed as failed.
    expect((await call(manager, "POST", `/admin/orders/${number}/cancel`, { reason: "Customer called" })).status).toBe(
      200,
    );
    const delivered = await gatewayPaid(paymentId);
    expect(delivered.status).toBe(200);
    expect(delivered.body.data.outcome).toBe("paid_late");

    // Logged at error level for whoever watches the logs.
    expect(errorEvents(errors)).toContainEqual(
      expect.objectContaining({ level: "error", event: "payments.paid_late", payment_id: paymentId }),
    );
    // The order stays cancelled, and its page says what happened: the money came, and went back.
    const order = (await call(manager, "GET", `/admin/orders/${number}`)).body.data;
    expect(order.status).toBe("cancelled");
    expect(order.late_payments).toMatchObject([
      { payment_id: paymentId, amount: total, refund_status: "refunded", provider: "sandbox" },
    ]);
    expect(order.late_payments[0].refund_ref).toMatch(/^rfd_/);
    const types = order.events.map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(["cancelled", "paid_late", "late_refunded"]));
    expect(types.indexOf("paid_late")).toBeLessThan(types.indexOf("late_refunded"));
    // Nothing of the order's own money moved: it was never paid.
    expect(order).toMatchObject({ refunded: 0, refundable: 0, paid_at: null });

    // A replay of the same event changes nothing and refunds nothing twice.
    const replay = await SELF.fetch("http://shop.test/backend/payments/webhook/sandbox", {
      method: "POST",
      headers: { "content-type": "application/json", "x-signature": delivered.event.signature },
      body: delivered.event.body,
    });
    expect(((await replay.json()) as { data: unknown }).data).toMatchObject({ replayed: true });
    const again = (await call(manager, "GET", `/admin/orders/${number}`)).body.data;
    expect(again.late_payments).toHaveLength(1);
    expect(again.events.filter((e: { type: string }) => e.type === "late_refunded")).toHaveLength(1);
  });

  it("late payment: when the automatic refund is refused, staff see it owed on the dashboard and refund it from the order", async () => {
    const errors = vi.spyOn(console, "error");
    const [guest, manager, support] = await Promise.all([newGuest(), newStaff("manager"), newStaff("support")]);
    const { number, paymentId } = await startedPayment(guest);
    // The sandbox refuses to refund exactly this amount: the gateway took it for this payment.
    await env.DB.prepare("UPDATE payments SET amount = ? WHERE id = ?")
      .bind(SANDBOX_REFUND_DECLINED_AMOUNT, paymentId)
      .run();
    // Its hold runs out instead of a cancel: the order and its payment are closed by the expiry.
    await env.DB.prepare(
      "UPDATE orders SET created_at = '2020-01-01T00:00:00.000Z', reserved_until = '2020-01-01T00:30:00.000Z' WHERE number = ?",
    )
      .bind(number)
      .run();
    await releaseExpiredReservations(env.DB);
    expect((await call(manager, "GET", `/admin/orders/${number}`)).body.data.status).toBe("cancelled");
    expect((await gatewayPaid(paymentId)).body.data.outcome).toBe("paid_late");

    const owed = (await call(manager, "GET", `/admin/orders/${number}`)).body.data;
    expect(owed.late_payments).toMatchObject([
      { payment_id: paymentId, amount: SANDBOX_REFUND_DECLINED_AMOUNT, refund_status: "owed" },
    ]);
    expect(owed.events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(["expired", "paid_late", "late_refund_failed"]),
    );
    expect(errorEvents(errors).map((e) => e.event)).toEqual(
      expect.arrayContaining(["payments.paid_late", "payments.late_refund_failed"]),
    );
    // Every staff member sees it on the dashboard; support may not refund it.
    const board = (await call(support, "GET", "/admin/dashboard")).body.data;
    expect(board.late_payments.count).toBeGreaterThanOrEqual(1);
    expect(board.late_payments.orders).toContainEqual(
      expect.objectContaining({ number, payment_id: paymentId, amount: SANDBOX_REFUND_DECLINED_AMOUNT }),
    );
    const path = `/admin/orders/${number}/late-payments/${paymentId}/refund`;
    expect((await call(support, "POST", path)).status).toBe(403);
    // The manager's try is refused by the gateway again: still owed, said so.
    const refused = await call(manager, "POST", path);
    expect(refused.status).toBe(502);
    expect(refused.body.message).toContain("refund_declined");
    expect((await call(manager, "GET", `/admin/orders/${number}`)).body.data.late_payments[0].refund_status).toBe(
      "owed",
    );
  });

  it("late payment: a refund staff start from the order settles it once, and it leaves the dashboard", async () => {
    const [guest, manager] = await Promise.all([newGuest(), newStaff("manager")]);
    const { number, paymentId } = await startedPayment(guest);
    expect((await call(manager, "POST", `/admin/orders/${number}/cancel`, {})).status).toBe(200);
    // Recorded without the webhook's automatic refund (as when the gateway could not be reached).
    const payment = (await findPayment(env.DB, paymentId))!;
    expect(
      await applyProviderResult(env.DB, "sandbox", {
        paymentId,
        status: "paid",
        providerRef: payment.provider_ref,
        message: null,
        amount: payment.amount,
        currency: payment.currency,
      }),
    ).toBe("paid_late");
    expect((await call(manager, "GET", "/admin/dashboard")).body.data.late_payments.orders).toContainEqual(
      expect.objectContaining({ number }),
    );

    const path = `/admin/orders/${number}/late-payments/${paymentId}/refund`;
    const refunded = await call(manager, "POST", path);
    expect(refunded.status).toBe(200);
    expect(refunded.body.data.late_payments).toMatchObject([{ payment_id: paymentId, refund_status: "refunded" }]);
    expect((await call(manager, "POST", path)).status).toBe(409);
    expect((await call(manager, "GET", "/admin/dashboard")).body.data.late_payments.orders).not.toContainEqual(
      expect.objectContaining({ number }),
    );
    const audit = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM audit_log WHERE action = 'order.late_refund' AND entity_id = ?",
    )
      .bind(number)
      .first<number>("n");
    expect(audit).toBe(1);
  });

  it("migration 0028 keeps every order and payment of a database made under the old schema, and adds the late payments beside them", async () => {
    const db = env.REPLICA_DB;
    const old = env.TEST_MIGRATIONS.filter((m) => m.name < "0028");
    const added = env.TEST_MIGRATIONS.filter((m) => m.name.startsWith("0028_"));
    expect(added).toHaveLength(1);
    await applyD1Migrations(db, old);
    await db.batch([
      db.prepare(
        `INSERT INTO orders (id, number, email, status, subtotal, shipping, vat, total, address, shipping_method, payment_method, idempotency_key)
         VALUES (1, 'SQ-OLD-1', 'old@example.com', 'cancelled', 10000, 0, 1304, 10000, '{}', 'standard', 'card', 'k-old-1')`,
      ),
      db.prepare(
        "INSERT INTO payments (id, order_id, provider, status, amount, return_url, message) VALUES ('pay_old', 1, 'sandbox', 'failed', 10000, '/en/payment-status', 'cancelled')",
      ),
    ]);
    const before = await db.prepare("SELECT * FROM payments").all();
    await applyD1Migrations(db, [...old, ...added]);
    expect((await db.prepare("SELECT * FROM payments").all()).results).toEqual(before.results);
    expect(await db.prepare("SELECT COUNT(*) AS n FROM orders").first<number>("n")).toBe(1);
    await db
      .prepare("INSERT INTO late_payments (payment_id, order_id, amount, currency) VALUES ('pay_old', 1, 10000, 'SAR')")
      .run();
    expect(await db.prepare("SELECT refund_status FROM late_payments").first<string>("refund_status")).toBe("owed");
  });
});
