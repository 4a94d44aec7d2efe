import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, checkoutWith, createProduct, newGuest, newUser } from "../support/commerce";
import { newStaff } from "../support/console";
import { previousPeriods, shopPeriods } from "../../worker/backend/services/console/dashboard";

/** An order placed through checkout, then moved to `status` and to `createdAt` (for the periods). */
async function orderAt(status: string, createdAt: Date, refunded = 0): Promise<{ number: string; total: number }> {
  const product = await createProduct({ price: 12000, stock: 50 });
  const placed = await checkoutWith(await newGuest(), product.id);
  expect(placed.status).toBe(201);
  const number = placed.body.data.number as string;
  const row = await env.DB.prepare(
    "UPDATE orders SET status = ?, created_at = ?, refunded = ? WHERE number = ? RETURNING total",
  )
    .bind(status, createdAt.toISOString(), refunded, number)
    .first<{ total: number }>();
  return { number, total: row!.total };
}

describe("the console's dashboard", () => {
  it("today's and this week's figures count only orders paid or further along, in Riyadh's day and week", async () => {
    const manager = await newStaff("manager");
    const before = (await call(manager, "GET", "/admin/dashboard")).body.data;
    expect(before.time_zone).toBe("Asia/Riyadh");

    const { today, week } = shopPeriods(new Date());
    const now = new Date();
    const paid = await orderAt("paid", now);
    const shipped = await orderAt("shipped", now, 1000);
    await orderAt("pending_payment", now);
    await orderAt("cancelled", now);
    await orderAt("payment_failed", now);
    // Just before the shop's midnight: yesterday (this week unless today is Sunday).
    const yesterday = await orderAt("delivered", new Date(today.getTime() - 60_000));
    // Just before this week began.
    await orderAt("processing", new Date(week.getTime() - 60_000));

    const after = (await call(manager, "GET", "/admin/dashboard")).body.data;
    expect(after.today.orders - before.today.orders).toBe(2);
    expect(after.today.revenue - before.today.revenue).toBe(paid.total + shipped.total - 1000);
    const inWeek = today.getTime() > week.getTime() ? 1 : 0;
    expect(after.week.orders - before.week.orders).toBe(2 + inWeek);
    expect(after.week.revenue - before.week.revenue).toBe(paid.total + shipped.total - 1000 + inWeek * yesterday.total);
    expect(after.today.from).toBe(today.toISOString());
    // Riyadh's midnight is 21:00 UTC; the week starts on a Sunday there.
    expect(after.today.from.slice(11)).toBe("21:00:00.000Z");
    expect(new Date(new Date(after.week.from).getTime() + 3 * 3600_000).getUTCDay()).toBe(0);
  });

  it("the shop's day turns at Riyadh's midnight, not UTC's", () => {
    // 22:30 UTC on Saturday 7 March 2026 is 01:30 on Sunday 8 March in Riyadh.
    const periods = shopPeriods(new Date("2026-03-07T22:30:00Z"));
    expect(periods.today.toISOString()).toBe("2026-03-07T21:00:00.000Z");
    expect(periods.week.toISOString()).toBe("2026-03-07T21:00:00.000Z");
    // 20:00 UTC on Wednesday 11 March is 23:00 the same day in Riyadh; its week began on Sunday the 8th.
    const midweek = shopPeriods(new Date("2026-03-11T20:00:00Z"));
    expect(midweek.today.toISOString()).toBe("2026-03-10T21:00:00.000Z");
    expect(midweek.week.toISOString()).toBe("2026-03-07T21:00:00.000Z");
  });

  it("pending shipments count paid and processing orders; low stock counts active products at or below their threshold", async () => {
    const owner = await newStaff("owner");
    const before = (await call(owner, "GET", "/admin/dashboard")).body.data;
    await orderAt("paid", new Date());
    await orderAt("processing", new Date());
    await orderAt("shipped", new Date());
    await createProduct({ stock: 2, name: "Nearly gone" });
    const hidden = await createProduct({ stock: 0 });
    await env.DB.prepare("UPDATE products SET active = 0 WHERE id = ?").bind(hidden.id).run();

    const after = (await call(owner, "GET", "/admin/dashboard")).body.data;
    expect(after.pending_shipments.paid - before.pending_shipments.paid).toBe(1);
    expect(after.pending_shipments.processing - before.pending_shipments.processing).toBe(1);
    expect(after.low_stock.count - before.low_stock.count).toBe(1);
    for (const p of after.low_stock.products) expect(p.stock).toBeLessThanOrEqual(p.low_stock_threshold);
    expect(after.low_stock.products.some((p: { id: number }) => p.id === hidden.id)).toBe(false);
    expect(after.recent_orders.length).toBeGreaterThan(0);
    expect(after.recent_orders[0].email).toMatch(/@guest\.example$/);
  });

  it("support sees the counts and the work waiting, not the revenue, and recent orders' emails masked", async () => {
    const support = await newStaff("support");
    await orderAt("paid", new Date());
    const seen = await call(support, "GET", "/admin/dashboard");
    expect(seen.status).toBe(200);
    expect(seen.body.data.today.orders).toBeGreaterThan(0);
    expect(seen.body.data.today.revenue).toBeNull();
    expect(seen.body.data.week.revenue).toBeNull();
    expect(seen.body.data.recent_orders[0].email).toMatch(/^.\*\*\*@.\*\*\*\.example$/);
  });

  it("today is set against yesterday up to the same time, and this week against last week up to the same point", async () => {
    // 09:00 UTC on Wednesday 11 March 2026 is noon in Riyadh; the week began on Sunday the 8th.
    const { yesterday, lastWeek } = previousPeriods(new Date("2026-03-11T09:00:00Z"));
    expect(yesterday.map((d) => d.toISOString())).toEqual(["2026-03-09T21:00:00.000Z", "2026-03-10T09:00:00.000Z"]);
    expect(lastWeek.map((d) => d.toISOString())).toEqual(["2026-02-28T21:00:00.000Z", "2026-03-04T09:00:00.000Z"]);

    const manager = await newStaff("manager");
    const support = await newStaff("support");
    const before = (await call(manager, "GET", "/admin/dashboard")).body.data;
    const now = previousPeriods(new Date());
    const within = (from: Date, until: Date) => new Date((from.getTime() + until.getTime()) / 2);
    const counted = await orderAt("delivered", within(...now.yesterday), 500);
    // Later in the day yesterday than it is now today: not part of the comparison.
    await orderAt("paid", new Date(now.yesterday[1].getTime() + 60_000));
    const lastWeeks = await orderAt("shipped", within(...now.lastWeek));

    const after = (await call(manager, "GET", "/admin/dashboard")).body.data;
    expect(after.yesterday.orders - before.yesterday.orders).toBe(1);
    expect(after.yesterday.revenue - before.yesterday.revenue).toBe(counted.total - 500);
    expect(after.last_week.orders - before.last_week.orders).toBe(1);
    expect(after.last_week.revenue - before.last_week.revenue).toBe(lastWeeks.total);

    // This week's best seller by units heads the list; support sees its units, not what it brought in.
    const product = await createProduct({ price: 4000, stock: 50, maxPerOrder: 10, name: "Best seller" });
    const placed = await checkoutWith(await newGuest(), product.id, 9);
    expect(placed.status).toBe(201);
    await env.DB.prepare("UPDATE orders SET status = 'paid' WHERE number = ?").bind(placed.body.data.number).run();
    const top = (await call(manager, "GET", "/admin/dashboard")).body.data.top_products;
    expect(top[0]).toMatchObject({ id: product.id, units: 9, revenue: 36000 });
    const seen = (await call(support, "GET", "/admin/dashboard")).body.data;
    expect(seen.top_products[0]).toMatchObject({ id: product.id, units: 9, revenue: null });
    expect(seen.yesterday.revenue).toBeNull();
    expect(seen.last_week.revenue).toBeNull();
  });

  it("shoppers and guests find no dashboard", async () => {
    const [shopper, guest] = await Promise.all([newUser(), newGuest()]);
    for (const who of [shopper, guest, null]) expect((await call(who, "GET", "/admin/dashboard")).status).toBe(404);
  });
});
