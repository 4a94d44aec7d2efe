// A payment cancelled on the card page leaves an ordinary unpaid order: payable again within its
// hold, cancellable by its shopper and by staff, and closed by the cron once its time runs out.
import { applyD1Migrations, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runScheduledWork } from "../../worker/backend/jobs";
import { call, checkoutWith, createProduct, newGuest, stockOf, type Shopper } from "../support/commerce";
import { newStaff } from "../support/console";
import { releaseExpiredReservations } from "../../worker/backend/services/orders/reservations";

const RETURN = "/en/payment-status";

async function placedOrder(shopper: Shopper, stock: number, quantity: number) {
  const product = await createProduct({ stock });
  const placed = await checkoutWith(shopper, product.id, quantity);
  expect(placed.status).toBe(201);
  return { product, number: placed.body.data.number as string };
}

/** Starts a payment and presses "Cancel and return to the shop" on the sandbox card page. */
async function cancelOnCardPage(shopper: Shopper, number: string) {
  const started = await call(shopper, "POST", `/payments/${number}/start`, { return_url: RETURN });
  expect(started.status).toBe(200);
  const pressed = await SELF.fetch(`http://shop.test${started.body.data.redirect_url}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ action: "cancel" }).toString(),
    redirect: "manual",
  });
  expect(pressed.status).toBe(303);
  const status = await call(shopper, "GET", `/payments/${started.body.data.payment_id}/status`);
  expect(status.body.data).toMatchObject({ status: "failed", order_status: "payment_failed" });
  return started.body.data.payment_id as string;
}

/** Time passes: every moment stored on the order moves `minutes` into the past. */
async function passTime(number: string, minutes: number) {
  const shift = `-${minutes} minutes`;
  await env.DB.prepare(
    `UPDATE orders SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, ?1),
       reserved_until = strftime('%Y-%m-%dT%H:%M:%fZ', reserved_until, ?1) WHERE number = ?2`,
  )
    .bind(shift, number)
    .run();
}

const stockMoves = async (number: string) =>
  env.DB.prepare(
    "SELECT COALESCE(SUM(m.quantity), 0) AS n FROM stock_moves m JOIN orders o ON o.id = m.order_id WHERE o.number = ?",
  )
    .bind(number)
    .first<number>("n");

describe("card page cancel", () => {
  it("card page cancel: an order whose payment was cancelled can be paid again within its hold, and cancelled by the shopper and by staff", async () => {
    // Paid again within its hold.
    const guest = await newGuest();
    const again = await placedOrder(guest, 3, 2);
    await cancelOnCardPage(guest, again.number);
    expect(await stockOf(again.product.id)).toBe(3);
    const retry = await call(guest, "POST", `/payments/${again.number}/start`, { return_url: RETURN });
    expect(retry.status).toBe(200);
    expect(await stockOf(again.product.id)).toBe(1);

    // Cancelled by the shopper from the order page: offered, done, and the stock not given back twice.
    const shopper = await newGuest();
    const own = await placedOrder(shopper, 3, 2);
    await cancelOnCardPage(shopper, own.number);
    const page = await call(shopper, "GET", `/orders/${own.number}`);
    expect(page.body.data).toMatchObject({ status: "payment_failed" });
    expect(page.body.data.self_service.can_cancel).toBe(true);
    const cancelled = await call(shopper, "POST", `/orders/${own.number}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: "cancelled" });
    expect(cancelled.body.data.self_service.can_cancel).toBe(false);
    expect(await stockOf(own.product.id)).toBe(3);
    expect(await stockMoves(own.number)).toBe(0);
    const refused = await call(shopper, "POST", `/payments/${own.number}/start`, { return_url: RETURN });
    expect(refused.status).toBe(409);

    // Cancelled by staff from the console, in both languages the action is offered.
    const manager = await newStaff("manager");
    const other = await newGuest();
    const theirs = await placedOrder(other, 3, 1);
    await cancelOnCardPage(other, theirs.number);
    const seen = await call(manager, "GET", `/admin/orders/${theirs.number}`);
    expect(seen.body.data.actions).toContain("cancel");
    const byStaff = await call(manager, "POST", `/admin/orders/${theirs.number}/cancel`, {});
    expect(byStaff.status).toBe(200);
    expect(byStaff.body.data).toMatchObject({ status: "cancelled" });
    expect(await stockOf(theirs.product.id)).toBe(3);
    expect(await stockMoves(theirs.number)).toBe(0);
  });

  it("card page cancel: the cron closes an order left payment_failed once its hold runs out, and returns its stock once", async () => {
    // Left as the card page left it: its stock already back, closed once its hold is over.
    const guest = await newGuest();
    const left = await placedOrder(guest, 3, 2);
    await cancelOnCardPage(guest, left.number);
    expect(await stockOf(left.product.id)).toBe(3);
    // Within its hold the cron leaves it alone: it can still be paid.
    await runScheduledWork(env);
    expect((await call(guest, "GET", `/orders/${left.number}`)).body.data.status).toBe("payment_failed");
    await passTime(left.number, 31);
    await runScheduledWork(env);
    const closed = await env.DB.prepare("SELECT status, stock_reserved FROM orders WHERE number = ?")
      .bind(left.number)
      .first<{ status: string; stock_reserved: number }>();
    expect(closed).toEqual({ status: "cancelled", stock_reserved: 0 });
    expect(await stockOf(left.product.id)).toBe(3);
    expect(await stockMoves(left.number)).toBe(0);
    const events = await env.DB.prepare(
      "SELECT e.type FROM order_events e JOIN orders o ON o.id = e.order_id WHERE o.number = ? ORDER BY e.id",
    )
      .bind(left.number)
      .all<{ type: string }>();
    expect(events.results.map((e) => e.type)).toEqual(["placed", "stock_released", "payment_failed", "expired"]);

    // Paid again after the cancel (its stock taken again), then abandoned: the cron returns it once.
    const retried = await placedOrder(guest, 3, 2);
    await cancelOnCardPage(guest, retried.number);
    expect((await call(guest, "POST", `/payments/${retried.number}/start`, { return_url: RETURN })).status).toBe(200);
    expect(await stockOf(retried.product.id)).toBe(1);
    await passTime(retried.number, 31);
    await runScheduledWork(env);
    await runScheduledWork(env);
    expect(await stockOf(retried.product.id)).toBe(3);
    expect(await stockMoves(retried.number)).toBe(0);
    expect((await call(guest, "GET", `/orders/${retried.number}`)).body.data.status).toBe("cancelled");
  });

  it("migration 0030 gives orders left payment_failed under the old schema a deadline, changing nothing else, so the sweep closes them once it passes", async () => {
    const db = env.REPLICA_DB;
    const old = env.TEST_MIGRATIONS.filter((m) => m.name < "0030");
    const added = env.TEST_MIGRATIONS.filter((m) => m.name.startsWith("0030_"));
    expect(added).toHaveLength(1);
    await applyD1Migrations(db, old);
    const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    const rows: [number, string, string, string | null][] = [
      [1, "payment_failed", ago(48), null],
      [2, "payment_failed", ago(1), null],
      [3, "pending_payment", ago(0.1), new Date(Date.now() + 20 * 60_000).toISOString()],
      [4, "cancelled", ago(72), null],
      [5, "paid", ago(72), null],
    ];
    await db.batch(
      rows.map(([id, status, created, until]) =>
        db
          .prepare(
            `INSERT INTO orders (id, number, email, status, subtotal, shipping, vat, total, address, shipping_method, payment_method,
               idempotency_key, stock_reserved, reserved_until, created_at, updated_at)
             VALUES (?1, 'SQ-OLD-' || ?1, 'old@example.com', ?2, 10000, 0, 1304, 10000, '{}', 'standard', 'card', 'k-old-' || ?1,
               ?3, ?4, ?5, ?5)`,
          )
          .bind(id, status, status === "pending_payment" ? 1 : 0, until, created),
      ),
    );
    const before = (await db.prepare("SELECT * FROM orders ORDER BY id").all<Record<string, unknown>>()).results;
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    const after = (await db.prepare("SELECT * FROM orders ORDER BY id").all<Record<string, unknown>>()).results;
    expect(after).toHaveLength(before.length);
    after.forEach((row, i) => {
      const { reserved_until: until, ...rest } = row;
      const { reserved_until: was, ...restBefore } = before[i];
      expect(rest).toMatchObject(restBefore);
      const failed = before[i].status === "payment_failed";
      expect(until).toBe(
        failed ? new Date(Date.parse(before[i].created_at as string) + 86_400_000).toISOString() : was,
      );
    });

    await releaseExpiredReservations(db);
    const statuses = (await db.prepare("SELECT status FROM orders ORDER BY id").all<{ status: string }>()).results;
    expect(statuses.map((r) => r.status)).toEqual([
      "cancelled",
      "payment_failed",
      "pending_payment",
      "cancelled",
      "paid",
    ]);
  });
});
