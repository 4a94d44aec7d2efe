import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { InventoryAdjustment } from "../../contract/console-content";
import { call, checkoutWith, createProduct, newUser, stockOf } from "../support/commerce";
import { newStaff } from "../support/console";
import { payOrder } from "../support/orders";
import { BackendError } from "../../worker/backend/http";
import { adjustStock } from "../../worker/backend/services/console/inventory";

async function ledgerOf(productId: number) {
  const { results } = await env.DB.prepare(
    "SELECT delta, reason, note, stock_after FROM inventory_adjustments WHERE product_id = ? ORDER BY id",
  )
    .bind(productId)
    .all<{ delta: number; reason: string; note: string | null; stock_after: number }>();
  return results;
}

describe("stock adjustments", () => {
  it("a received delivery adds to the stock and is written to the ledger with an audit line", async () => {
    const manager = await newStaff("manager");
    const product = await createProduct({ stock: 2 });
    const res = await call(manager, "POST", "/admin/inventory/adjustments", {
      product_id: product.id,
      reason: "received",
      delta: 10,
      note: "PO 1234",
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ delta: 10, reason: "received", stock_after: 12, staff_email: manager.email });
    expect(await stockOf(product.id)).toBe(12);
    expect(await ledgerOf(product.id)).toEqual([{ delta: 10, reason: "received", note: "PO 1234", stock_after: 12 }]);
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE entity = 'product' AND entity_id = ?")
      .bind(String(product.id))
      .all<{ action: string }>();
    expect(audit.results.map((a) => a.action)).toEqual(["inventory.received"]);
  });

  it("damaged stock below zero is refused, and neither the stock nor the ledger changes", async () => {
    const manager = await newStaff("manager");
    const product = await createProduct({ stock: 3 });
    const res = await call(manager, "POST", "/admin/inventory/adjustments", {
      product_id: product.id,
      reason: "damaged",
      delta: -4,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors!.delta[0]).toMatch(/Only 3 in stock/);
    expect(await stockOf(product.id)).toBe(3);
    expect(await ledgerOf(product.id)).toEqual([]);
    const ok = await call(manager, "POST", "/admin/inventory/adjustments", {
      product_id: product.id,
      reason: "damaged",
      delta: -3,
    });
    expect(ok.status).toBe(201);
    expect(await stockOf(product.id)).toBe(0);
  });

  it("a count sets the stock to what was counted and records the difference", async () => {
    const owner = await newStaff("owner");
    const product = await createProduct({ stock: 9 });
    const res = await call(owner, "POST", "/admin/inventory/adjustments", {
      product_id: product.id,
      reason: "count",
      counted: 4,
    });
    expect(res.status).toBe(201);
    expect(await stockOf(product.id)).toBe(4);
    expect(await ledgerOf(product.id)).toEqual([{ delta: -5, reason: "count", note: null, stock_after: 4 }]);
    const same = await call(owner, "POST", "/admin/inventory/adjustments", {
      product_id: product.id,
      reason: "count",
      counted: 4,
    });
    expect(same.status).toBe(422);
    expect(same.body.errors!.counted).toBeDefined();
    const missing = await call(owner, "POST", "/admin/inventory/adjustments", {
      product_id: product.id,
      reason: "received",
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors!.delta).toBeDefined();
    const zero = await call(owner, "POST", "/admin/inventory/adjustments", {
      product_id: product.id,
      reason: "received",
      delta: 0,
    });
    expect(zero.status).toBe(422);
  });

  it("a count is refused when the stock moved since it was read (a sale meanwhile), and nothing is written", async () => {
    const owner = await newStaff("owner");
    const product = await createProduct({ stock: 9 });
    const variant = await env.DB.prepare("SELECT id FROM product_variants WHERE product_id = ?")
      .bind(product.id)
      .first<number>("id");
    // The adjustment read 7 (before a delivery it did not see): its conditional update matches nothing.
    const stale = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "prepare")
          return (sql: string) =>
            sql.startsWith("SELECT id, product_id, stock FROM product_variants")
              ? { bind: () => ({ first: async () => ({ id: variant, product_id: product.id, stock: 7 }) }) }
              : target.prepare(sql);
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const refused = await adjustStock(stale, { user_id: owner.userId, email: owner.email! }, "en", {
      product_id: product.id,
      variant_id: null,
      reason: "count",
      counted: 4,
      delta: null,
      note: null,
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BackendError);
    expect((refused as BackendError).status).toBe(422);
    expect((refused as BackendError).errors?.counted?.[0]).toMatch(/stock changed while you counted/);
    expect(await stockOf(product.id)).toBe(9);
    expect(await ledgerOf(product.id)).toEqual([]);
  });

  it("the ledger lists a product's adjustments, newest first, paged on the server", async () => {
    const manager = await newStaff("manager");
    const product = await createProduct({ stock: 1 });
    for (const delta of [1, 2, 3])
      await call(manager, "POST", "/admin/inventory/adjustments", {
        product_id: product.id,
        reason: "received",
        delta,
      });
    const page = await call(manager, "GET", `/admin/inventory/adjustments?product_id=${product.id}&per_page=2`);
    expect(page.status).toBe(200);
    expect(page.body.data.map((a: { delta: number }) => a.delta)).toEqual([3, 2]);
    expect(page.body.meta).toMatchObject({ total: 3, last_page: 2, page: 1 });
  });
});

describe("the whole ledger", () => {
  it("has a line for every change of stock (sale, release, restock, adjustment), each balance adds up to the stock now, staff by name", async () => {
    const [manager, buyer, canceller] = await Promise.all([newStaff("manager"), newUser(), newUser()]);
    const product = await createProduct({ stock: 10 });
    const received = await call(manager, "POST", "/admin/inventory/adjustments", {
      product_id: product.id,
      reason: "received",
      delta: 5,
    });
    expect(received.status).toBe(201);
    // A sale that is paid and then partly refunded with restock, and one cancelled by staff.
    const kept = await checkoutWith(buyer, product.id, 2);
    const dropped = await checkoutWith(canceller, product.id, 3);
    expect([kept.status, dropped.status]).toEqual([201, 201]);
    await payOrder(buyer, kept.body.data.number as string);
    const cancelled = await call(manager, "POST", `/admin/orders/${dropped.body.data.number}/cancel`, {});
    expect(cancelled.status).toBe(200);
    const refunded = await call(manager, "POST", `/admin/orders/${kept.body.data.number}/refund`, {
      lines: [{ product_id: product.id, quantity: 1 }],
      restock: true,
    });
    expect(refunded.status).toBe(200);

    const res = await call<InventoryAdjustment[]>(
      manager,
      "GET",
      `/admin/inventory/adjustments?product_id=${product.id}&sort=created_at&dir=asc`,
    );
    expect(res.status).toBe(200);
    const lines = res.body.data;
    expect(lines.map((l) => [l.reason, l.delta, l.stock_after])).toEqual([
      ["received", 5, 15],
      ["sale", -2, 13],
      ["sale", -3, 10],
      ["released", 3, 13],
      ["returned", 1, 14],
    ]);
    // Line by line: the balance before plus the line; the last one is the stock now.
    lines.reduce((before, l) => {
      expect(l.stock_after).toBe(before + l.delta);
      return l.stock_after;
    }, 10);
    expect(lines.at(-1)!.stock_after).toBe(await stockOf(product.id));
    const name = await env.DB.prepare("SELECT name FROM users WHERE id = ?").bind(manager.userId).first<string>("name");
    expect(lines[0]).toMatchObject({ source: "adjustment", staff_name: name, order_number: null });
    expect(lines[1]).toMatchObject({ source: "order", staff_name: null, order_number: kept.body.data.number });
    expect(lines[3]).toMatchObject({ source: "order", order_number: dropped.body.data.number });
    expect(lines[4]).toMatchObject({ source: "adjustment", staff_name: name });

    // Newest first by default, and the reason filter knows the orders' kinds.
    const sales = await call<InventoryAdjustment[]>(
      manager,
      "GET",
      `/admin/inventory/adjustments?product_id=${product.id}&reason=sale`,
    );
    expect(sales.body.data.map((l) => [l.delta, l.stock_after])).toEqual([
      [-3, 10],
      [-2, 13],
    ]);
  });
});

describe("the low-stock list", () => {
  it("lists a product at or under its threshold, fewest first, and drops it once a delivery is received", async () => {
    const manager = await newStaff("manager");
    const product = await createProduct({ stock: 1 });
    const listed = async () => {
      const all = await call(manager, "GET", "/admin/inventory/low-stock?per_page=100");
      expect(all.status).toBe(200);
      const stocks = all.body.data.map((p: { stock: number }) => p.stock);
      expect(stocks).toEqual([...stocks].sort((a, b) => a - b));
      return all.body.data.some((p: { id: number }) => p.id === product.id);
    };
    expect(await listed()).toBe(true);
    await call(manager, "POST", "/admin/inventory/adjustments", {
      product_id: product.id,
      reason: "received",
      delta: 20,
    });
    expect(await listed()).toBe(false);
  });

  it("support cannot read inventory (managers and owners only)", async () => {
    const support = await newStaff("support");
    expect((await call(support, "GET", "/admin/inventory/low-stock")).status).toBe(403);
    expect((await call(support, "GET", "/admin/inventory/adjustments")).status).toBe(403);
  });
});
