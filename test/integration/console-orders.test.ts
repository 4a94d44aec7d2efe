import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { call, newGuest, newUser, stockOf } from "../support/commerce";
import { newStaff } from "../support/console";
import { paidOrder, placeOrder } from "../support/orders";

const SHIPMENT = { carrier: "SMSA Express", tracking_number: "SMSA-123456789" };

async function detail(who: Parameters<typeof call>[0], number: string) {
  return call(who, "GET", `/admin/orders/${number}`);
}

describe("orders in the console", () => {
  it("the list filters by status, payment, dates and a search by number, email or phone", async () => {
    const manager = await newStaff("manager");
    const shopper = await newUser();
    const unpaid = await placeOrder(shopper);
    const paid = await paidOrder(shopper);
    const list = (query: string) => call(manager, "GET", `/admin/orders?${query}`);

    const byEmail = await list(`search=${encodeURIComponent(shopper.email)}`);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data.map((o: { number: string }) => o.number).sort()).toEqual(
      [unpaid.number, paid.number].sort(),
    );
    expect(byEmail.body.meta).toMatchObject({ page: 1, total: 2, sort: "created_at", dir: "desc" });

    const search = `search=${encodeURIComponent(shopper.email)}`;
    expect((await list(`${search}&status=paid`)).body.data).toMatchObject([
      { number: paid.number, status: "paid", payment_status: "paid", email: shopper.email, customer: "Sara Test" },
    ]);
    expect((await list(`${search}&payment_status=unpaid`)).body.data).toMatchObject([{ number: unpaid.number }]);
    expect((await list(`search=${paid.number.toLowerCase()}`)).body.data).toMatchObject([{ number: paid.number }]);
    // The phone of the delivery address, typed the local way.
    const byPhone = (await list("search=0512345678&per_page=100")).body.data.map((o: { number: string }) => o.number);
    expect(byPhone).toEqual(expect.arrayContaining([unpaid.number, paid.number]));

    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await list(`${search}&date_from=${today}&date_to=${today}`)).body.data).toHaveLength(2);
    expect((await list(`${search}&date_from=${tomorrow}`)).body.data).toHaveLength(0);
    expect((await list(`${search}&date_to=${yesterday}`)).body.data).toHaveLength(0);

    const sorted = await list(`${search}&sort=total&dir=asc&per_page=1`);
    expect(sorted.body.meta).toMatchObject({ per_page: 1, total: 2, last_page: 2, sort: "total", dir: "asc" });

    const reversed = await list(`date_from=${tomorrow}&date_to=${yesterday}`);
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors).toHaveProperty("date_to");
    expect((await list("status=lost")).body.errors).toHaveProperty("status");
    expect((await list("payment_status=maybe")).status).toBe(422);
    expect((await list("date_from=2026-02-30")).body.errors).toHaveProperty("date_from");
  });

  it("support sees the order with contact data masked, and cannot ship, cancel or refund it", async () => {
    const support = await newStaff("support");
    const shopper = await newUser();
    const { number } = await paidOrder(shopper);
    const seen = await detail(support, number);
    expect(seen.status).toBe(200);
    const order = seen.body.data;
    expect(order.masked).toBe(true);
    expect(order.email).not.toBe(shopper.email);
    expect(order.email).toMatch(/^s\*\*\*@e\*\*\*\.com$/);
    expect(order.address.phone).not.toContain("12345");
    expect(order.address.street).not.toContain("King Fahd");
    expect(order.address.building).not.toBe("2929");
    expect(order.address.city).toBe("Riyadh");
    expect(order.actions).toEqual([]);
    const listed = await call(support, "GET", `/admin/orders?search=${number}`);
    expect(listed.body.data[0].email).not.toBe(shopper.email);

    for (const [path, body] of [
      ["process", {}],
      ["ship", SHIPMENT],
      ["cancel", {}],
      ["refund", { amount: 100 }],
    ] as const)
      expect((await call(support, "POST", `/admin/orders/${number}/${path}`, body)).status).toBe(403);
    expect((await detail(support, number)).body.data.status).toBe("paid");
  });

  it("shoppers and guests do not find the console's orders", async () => {
    const shopper = await newUser();
    const { number } = await placeOrder(shopper);
    for (const who of [null, shopper, await newGuest()]) {
      expect((await call(who, "GET", "/admin/orders")).status).toBe(404);
      expect((await detail(who, number)).status).toBe(404);
      expect((await call(who, "POST", `/admin/orders/${number}/cancel`, {})).status).toBe(404);
    }
    expect((await detail(await newStaff("manager"), "SQ-NOPE0000")).status).toBe(404);
  });

  it("an order walks paid → processing → shipped → delivered, and is delivered only after it was shipped", async () => {
    const manager = await newStaff("manager");
    const shopper = await newUser();
    const { number } = await paidOrder(shopper);
    const post = (path: string, body: unknown = {}) => call(manager, "POST", `/admin/orders/${number}/${path}`, body);

    expect((await detail(manager, number)).body.data.actions).toEqual(["process", "cancel", "refund"]);
    const early = await post("deliver");
    expect(early.status).toBe(409);
    expect(early.body.message).toBe("This order is paid: it cannot be marked delivered now.");
    expect((await post("ship", SHIPMENT)).status).toBe(409);

    const processing = await post("process");
    expect(processing.status).toBe(200);
    expect(processing.body.data).toMatchObject({ status: "processing", actions: ["ship", "cancel", "refund"] });

    const missing = await post("ship", { carrier: " ", tracking_number: "" });
    expect(missing.status).toBe(422);
    expect(missing.body.errors?.carrier).toEqual(["Carrier is required."]);
    expect(missing.body.errors?.tracking_number).toEqual(["Tracking number is required."]);
    expect((await post("ship", { carrier: "SMSA", tracking_number: "<script>" })).body.errors).toHaveProperty(
      "tracking_number",
    );

    const shipped = await post("ship", SHIPMENT);
    expect(shipped.status).toBe(200);
    expect(shipped.body.data).toMatchObject({ status: "shipped", ...SHIPMENT, actions: ["deliver", "refund"] });
    expect(shipped.body.data.shipped_at).toEqual(expect.any(String));
    expect((await post("cancel")).status).toBe(409);

    const delivered = await post("deliver");
    expect(delivered.body.data).toMatchObject({ status: "delivered", actions: ["refund"] });
    expect((await post("deliver")).status).toBe(409);

    // The shopper's own order page answers the shipment.
    const own = await call(shopper, "GET", `/orders/${number}`);
    expect(own.body.data).toMatchObject({ status: "delivered", ...SHIPMENT, refunded: 0 });
    expect(own.body.data.delivered_at).toEqual(expect.any(String));

    const audit = await env.DB.prepare(
      "SELECT action FROM audit_log WHERE entity = 'order' AND entity_id = ? ORDER BY id",
    )
      .bind(number)
      .all<{ action: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["order.process", "order.ship", "order.deliver"]);
  });

  it("the timeline lists each step, from checkout to delivery", async () => {
    const manager = await newStaff("manager");
    const shopper = await newUser();
    const { number } = await paidOrder(shopper);
    for (const [path, body] of [
      ["process", {}],
      ["ship", SHIPMENT],
      ["deliver", {}],
    ] as const)
      expect((await call(manager, "POST", `/admin/orders/${number}/${path}`, body)).status).toBe(200);
    const events = (await detail(manager, number)).body.data.events;
    expect(events.map((e: { type: string }) => e.type)).toEqual([
      "placed",
      "paid",
      "processing",
      "shipped",
      "delivered",
    ]);
    expect(events[0].actor).toBe("shopper");
    expect(events[1].actor).toBe("system");
    expect(events[3]).toMatchObject({ actor: manager.email, detail: SHIPMENT });
  });

  it("two staff shipping the same order at once: only one wins", async () => {
    const [first, second] = await Promise.all([newStaff("manager"), newStaff("owner")]);
    const { number } = await paidOrder(await newUser());
    expect((await call(first, "POST", `/admin/orders/${number}/process`, {})).status).toBe(200);
    const answers = await Promise.all([
      call(first, "POST", `/admin/orders/${number}/ship`, SHIPMENT),
      call(second, "POST", `/admin/orders/${number}/ship`, { carrier: "Aramex", tracking_number: "ARX-1" }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const events = (await detail(first, number)).body.data.events.filter((e: { type: string }) => e.type === "shipped");
    expect(events).toHaveLength(1);
    const audits = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM audit_log WHERE action = 'order.ship' AND entity_id = ?",
    )
      .bind(number)
      .first<{ n: number }>();
    expect(audits!.n).toBe(1);
  });

  it("cancelling a paid order returns its stock and refunds it in full through the provider", async () => {
    const manager = await newStaff("manager");
    const shopper = await newUser();
    const { number, product, total } = await paidOrder(shopper, { stock: 5, quantity: 2 });
    expect(await stockOf(product.id)).toBe(3);
    const cancelled = await call(manager, "POST", `/admin/orders/${number}/cancel`, { reason: "Customer asked" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      status: "cancelled",
      payment_status: "refunded",
      refunded: total,
      refundable: 0,
      actions: [],
    });
    expect(cancelled.body.data.payments).toMatchObject([{ status: "refunded", refunded: total, amount: total }]);
    expect(cancelled.body.data.refunds).toMatchObject([
      { amount: total, status: "succeeded", reason: "Customer asked", staff_email: manager.email },
    ]);
    expect(await stockOf(product.id)).toBe(5);
    expect(cancelled.body.data.events.map((e: { type: string }) => e.type)).toEqual([
      "placed",
      "paid",
      "cancelled",
      "stock_released",
      "refund_requested",
      "refunded",
    ]);
    // Twice is refused, and the stock comes back once only.
    expect((await call(manager, "POST", `/admin/orders/${number}/cancel`, {})).status).toBe(409);
    expect(await stockOf(product.id)).toBe(5);
    const own = await call(shopper, "GET", `/orders/${number}`);
    expect(own.body.data).toMatchObject({ status: "cancelled", payment_status: "refunded", refunded: total });
  });

  it("cancelling an unpaid order returns its stock and refunds nothing", async () => {
    const manager = await newStaff("manager");
    const { number, product } = await placeOrder(await newUser(), { stock: 4, quantity: 3 });
    expect(await stockOf(product.id)).toBe(1);
    const cancelled = await call(manager, "POST", `/admin/orders/${number}/cancel`, {});
    expect(cancelled.body.data).toMatchObject({ status: "cancelled", payment_status: "unpaid", refunds: [] });
    expect(await stockOf(product.id)).toBe(4);
  });

  it("a partial refund, then the rest; a refund beyond what was paid is refused", async () => {
    const manager = await newStaff("manager");
    const shopper = await newUser();
    const { number, total } = await paidOrder(shopper, { price: 20000 });
    const refund = (amount: number, reason?: string) =>
      call(manager, "POST", `/admin/orders/${number}/refund`, { amount, reason });

    const part = await refund(5000, "Scratched box");
    expect(part.status).toBe(200);
    expect(part.body.data).toMatchObject({
      status: "paid",
      payment_status: "partially_refunded",
      refunded: 5000,
      refundable: total - 5000,
    });
    expect(part.body.data.payments[0].status).toBe("partially_refunded");
    expect((await call(shopper, "GET", `/orders/${number}`)).body.data).toMatchObject({
      payment_status: "partially_refunded",
      refunded: 5000,
    });

    const beyond = await refund(total);
    expect(beyond.status).toBe(422);
    expect(beyond.body.errors?.amount?.[0]).toBe(
      `At most ${((total - 5000) / 100).toFixed(2)} SAR can still be refunded.`,
    );
    expect((await refund(0)).body.errors).toHaveProperty("amount");
    expect((await refund(1.5)).body.errors).toHaveProperty("amount");

    const rest = await refund(total - 5000);
    expect(rest.body.data).toMatchObject({
      status: "refunded",
      payment_status: "refunded",
      refunded: total,
      refundable: 0,
      // Refunded before it shipped: it may still be cancelled, which returns its stock.
      actions: ["cancel"],
    });
    expect(rest.body.data.payments[0].status).toBe("refunded");
    expect((await refund(1)).status).toBe(409);
    const own = (await call(shopper, "GET", `/orders/${number}`)).body.data;
    expect(own).toMatchObject({ status: "refunded", payment_status: "refunded", refunded: total });
    const row = await env.DB.prepare("SELECT status, refunded FROM orders WHERE number = ?")
      .bind(number)
      .first<{ status: string; refunded: number }>();
    // The stored state stays paid: `refunded` is derived (the CHECK is not rebuilt).
    expect(row).toEqual({ status: "paid", refunded: total });
  });

  it("two refunds of the same order at once: only one is made", async () => {
    const [first, second] = await Promise.all([newStaff("manager"), newStaff("manager")]);
    const { number, total } = await paidOrder(await newUser());
    const answers = await Promise.all([
      call(first, "POST", `/admin/orders/${number}/refund`, { amount: total }),
      call(second, "POST", `/admin/orders/${number}/refund`, { amount: total }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const refunds = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM refunds r JOIN orders o ON o.id = r.order_id WHERE o.number = ?",
    )
      .bind(number)
      .first<{ n: number }>();
    expect(refunds!.n).toBe(1);
  });

  it("an unpaid order offers no refund and refuses one", async () => {
    const manager = await newStaff("manager");
    const { number } = await placeOrder(await newUser());
    expect((await detail(manager, number)).body.data.actions).toEqual(["cancel"]);
    const refused = await call(manager, "POST", `/admin/orders/${number}/refund`, { amount: 100 });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("This order is awaiting payment: it cannot be refunded now.");
  });

  it("answers in Arabic for an Arabic console", async () => {
    const manager = await newStaff("manager", "ar");
    const { number } = await paidOrder(await newUser());
    const refused = await call(manager, "POST", `/admin/orders/${number}/deliver`, {});
    expect(refused.body.message).toBe("حالة هذا الطلب «مدفوع»: لا يمكن تأكيد تسليمه الآن.");
    expect((await call(manager, "POST", `/admin/orders/${number}/process`, {})).status).toBe(200);
    const missing = await call(manager, "POST", `/admin/orders/${number}/ship`, {});
    expect(missing.body.errors?.carrier?.[0]).toContain("شركة الشحن");
  });
});

// 100–150 generated calls each, through the backend and D1: seconds on a busy machine, as the
// other fuzz suites allow (test/integration/fuzz.test.ts), not the Workers project's 5 s default.
const FUZZ_TIMEOUT_MS = 60_000;

describe("orders in the console, fuzzed", () => {
  const nasty = fc.constantFrom(
    "",
    " ",
    "' OR 1=1 --",
    "%",
    "_",
    "\\",
    "<script>alert(1)</script>",
    "٠١٢٣",
    "\u0000",
    "9".repeat(400),
    "2026-02-30",
    "-1",
    "1e99",
    "NaN",
  );
  const value = fc.oneof(
    nasty,
    fc.string({ maxLength: 40 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.integer(), { maxLength: 3 }),
  );
  const internals = /\.ts:\d+|SQLITE_|D1_ERROR|\bSELECT\b.*\bFROM\b|TypeError|ReferenceError|CHECK constraint/;

  it("the list answers every query without a 5xx or a leak", { timeout: FUZZ_TIMEOUT_MS }, async () => {
    const manager = await newStaff("manager");
    const fields = ["status", "payment_status", "date_from", "date_to", "search", "sort", "dir", "page", "per_page"];
    await fc.assert(
      fc.asyncProperty(
        fc.record(Object.fromEntries(fields.map((f) => [f, value])), { requiredKeys: [] }),
        async (rec) => {
          const qs = new URLSearchParams();
          for (const [k, v] of Object.entries(rec)) qs.append(k, typeof v === "string" ? v : JSON.stringify(v));
          const res = await call(manager, "GET", `/admin/orders?${qs.toString()}`);
          expect(res.status === 200 || res.status === 422, JSON.stringify(res.body)).toBe(true);
          expect(JSON.stringify(res.body)).not.toMatch(internals);
        },
      ),
      { numRuns: 100 },
    );
  });

  it(
    "transitions and refunds answer every body without a 5xx, and never refund past what was paid",
    { timeout: FUZZ_TIMEOUT_MS },
    async () => {
      const manager = await newStaff("manager");
      const { number, total } = await paidOrder(await newUser());
      const actions = ["process", "ship", "deliver", "cancel", "refund"] as const;
      const body = fc.oneof(
        fc.record({ carrier: value, tracking_number: value, amount: value, reason: value }, { requiredKeys: [] }),
        fc.record({ amount: fc.integer({ min: -5, max: total + 5 }), reason: value }, { requiredKeys: [] }),
        fc.anything({ maxDepth: 2 }),
      );
      const target = fc.oneof(
        fc.constant(number),
        fc.constant(number.toLowerCase()),
        nasty,
        fc.string({ maxLength: 20 }),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...actions), target, body, async (action, who, payload) => {
          const path = `/admin/orders/${encodeURIComponent(String(who)) || "x"}/${action}`;
          const res = await call(manager, "POST", path, payload);
          expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
          expect(JSON.stringify(res.body)).not.toMatch(internals);
        }),
        { numRuns: 150 },
      );
      const order = await env.DB.prepare("SELECT id, total, refunded FROM orders WHERE number = ?")
        .bind(number)
        .first<{ id: number; total: number; refunded: number }>();
      const made = await env.DB.prepare(
        "SELECT COALESCE(SUM(amount), 0) AS n FROM refunds WHERE order_id = ? AND status = 'succeeded'",
      )
        .bind(order!.id)
        .first<{ n: number }>();
      expect(order!.refunded).toBeLessThanOrEqual(order!.total);
      expect(made!.n).toBe(order!.refunded);
    },
  );
});
