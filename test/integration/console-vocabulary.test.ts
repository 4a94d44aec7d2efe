import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, checkoutWith, createProduct, newGuest } from "../support/commerce";
import { newStaff } from "../support/console";
import { auditStatement } from "../../worker/backend/services/console/audit-log";

/** An order placed through checkout, then set to `status` with `refunded` of its total. */
async function orderIn(status: string, refundedAll = false): Promise<{ number: string; id: number }> {
  const product = await createProduct({ price: 15000, stock: 50 });
  const placed = await checkoutWith(await newGuest(), product.id);
  expect(placed.status).toBe(201);
  const number = placed.body.data.number as string;
  const row = await env.DB.prepare(
    `UPDATE orders SET status = ?1, refunded = CASE WHEN ?2 THEN total ELSE 0 END,
       paid_at = CASE WHEN ?1 IN ('paid', 'processing', 'shipped', 'delivered') THEN created_at END,
       created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE number = ?3 RETURNING id`,
  )
    .bind(status, refundedAll ? 1 : 0, number)
    .first<{ id: number }>();
  return { number, id: row!.id };
}

async function failedPayment(orderId: number, message: string) {
  await env.DB.prepare(
    "INSERT INTO payments (id, order_id, provider, status, amount, return_url, message) VALUES (?, ?, 'sandbox', 'failed', 100, '/en/payment-status', ?)",
  )
    .bind(`pay_${crypto.randomUUID()}`, orderId, message)
    .run();
}

describe("one status vocabulary across the console", () => {
  it("a delivered order refunded in full reads 'refunded' on the dashboard, the orders list and its page", async () => {
    const manager = await newStaff("manager");
    const { number } = await orderIn("delivered", true);
    const dashboard = (await call(manager, "GET", "/admin/dashboard")).body.data;
    expect(dashboard.recent_orders.find((o: { number: string }) => o.number === number)).toMatchObject({
      status: "refunded",
    });
    const listed = (await call(manager, "GET", `/admin/orders?search=${number}`)).body.data;
    expect(listed).toEqual([expect.objectContaining({ number, status: "refunded", payment_status: "refunded" })]);
    expect((await call(manager, "GET", `/admin/orders/${number}`)).body.data).toMatchObject({
      status: "refunded",
      payment_status: "refunded",
    });
  });

  it("an unpaid order that was cancelled or expired is 'not paid'; only an open order's failed payment is 'failed'", async () => {
    const manager = await newStaff("manager");
    const cancelled = await orderIn("cancelled");
    await failedPayment(cancelled.id, "cancelled");
    const expired = await orderIn("cancelled");
    await failedPayment(expired.id, "expired");
    const declined = await orderIn("payment_failed");
    await failedPayment(declined.id, "declined");
    for (const o of [cancelled, expired]) {
      expect((await call(manager, "GET", `/admin/orders/${o.number}`)).body.data.payment_status).toBe("unpaid");
      const row = (await call(manager, "GET", `/admin/orders?search=${o.number}`)).body.data[0];
      expect(row.payment_status).toBe("unpaid");
    }
    expect((await call(manager, "GET", `/admin/orders/${declined.number}`)).body.data.payment_status).toBe("failed");
    // The filter agrees with the badges.
    const failed = (await call(manager, "GET", "/admin/orders?payment_status=failed&per_page=100")).body.data as {
      number: string;
    }[];
    expect(failed.map((o) => o.number)).toContain(declined.number);
    expect(failed.map((o) => o.number)).not.toContain(cancelled.number);
    expect(failed.map((o) => o.number)).not.toContain(expired.number);
  });
});

describe("an audit log a merchant can read", () => {
  it("names each line's record as staff call it, in the reader's language, with the page that shows it", async () => {
    const owner = await newStaff("owner", "ar");
    const product = await createProduct({ price: 9900, stock: 5 });
    const { number, id: orderId } = await orderIn("delivered");
    const returnId = `ret_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare("INSERT INTO returns (id, order_id, amount) VALUES (?, ?, 100)").bind(returnId, orderId).run();
    const staff = { user_id: owner.userId, email: `${crypto.randomUUID()}@audit.test` };
    await env.DB.batch([
      auditStatement(env.DB, staff, "order.refund", "order", number, { refunded: 0 }, { refunded: 4900 }),
      auditStatement(
        env.DB,
        staff,
        "return.approve",
        "return",
        returnId,
        { status: "requested" },
        { status: "approved" },
      ),
      auditStatement(env.DB, staff, "product.update", "product", product.id, { price: 9900 }, { price: 8900 }),
      auditStatement(
        env.DB,
        staff,
        "category.delete",
        "category",
        999999,
        { name_en: "Gone", name_ar: "محذوفة" },
        null,
      ),
      auditStatement(env.DB, staff, "staff.role", "staff", owner.userId, { role: "support" }, { role: "manager" }),
    ]);
    const res = await call(owner, "GET", `/admin/audit?search=${encodeURIComponent(staff.email)}&per_page=10`);
    expect(res.status).toBe(200);
    const byAction = Object.fromEntries(
      (res.body.data as { action: string; record: unknown }[]).map((e) => [e.action, e.record]),
    );
    expect(byAction["order.refund"]).toEqual({ name: number, page: "order", key: number });
    // A return is named and opened by its order: its own id is never the name.
    expect(byAction["return.approve"]).toEqual({ name: number, page: "order", key: number });
    expect(byAction["product.update"]).toEqual({ name: "جهاز اختبار", page: "product", key: String(product.id) });
    // A deleted record keeps the name the line wrote, in the reader's language, and has no page.
    expect(byAction["category.delete"]).toEqual({ name: "محذوفة", page: null, key: null });
    expect(byAction["staff.role"]).toMatchObject({ page: "staff", key: null });
    expect(JSON.stringify(byAction)).not.toContain("ret_");
  });
});
