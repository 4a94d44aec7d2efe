import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { allocate, lineNets } from "../../worker/backend/services/shared/money";
import { promoPhoneKey } from "../../worker/backend/services/orders/promo";
import { returnedAmount } from "../../worker/backend/services/orders/claimed-lines";

/**
 * Migration 0026 on a database made and used under the schema before it (migrations up to 0025):
 * orders placed with a discount before order lines kept their net amount get it, shared out the
 * way checkout shares it now, so every order's lines add up exactly to what was paid for its goods;
 * and their promo redemptions get the delivery phone the per-customer guard counts.
 */

// A second, empty database of this file's own (the main one already has every migration).
const db = () => env.REPLICA_DB;

interface OldOrder {
  lines: { price: number; quantity: number }[];
  percent: number;
  phone: string;
}

const oldOrder: fc.Arbitrary<OldOrder> = fc.record({
  lines: fc.array(
    fc.record({ price: fc.integer({ min: 0, max: 500_000 }), quantity: fc.integer({ min: 1, max: 5 }) }),
    {
      minLength: 1,
      maxLength: 6,
    },
  ),
  percent: fc.integer({ min: 0, max: 100 }),
  phone: fc.constantFrom("+966512345678", "0512345678", "00966512345678", "966512345678", "+201001234567", "512345678"),
});

let orders: OldOrder[];
let promoId: number;

beforeAll(async () => {
  await applyD1Migrations(
    db(),
    env.TEST_MIGRATIONS.filter((m) => m.name < "0026"),
  );
  await db()
    .prepare(
      "INSERT INTO categories (slug, name_en, name_ar) VALUES ('old', 'Old', 'قديم') ON CONFLICT (slug) DO NOTHING",
    )
    .run();
  const category = (await db().prepare("SELECT id FROM categories WHERE slug = 'old'").first<{ id: number }>())!.id;
  promoId = (await db()
    .prepare(
      "INSERT INTO promo_codes (code, discount_type, value, per_user_limit) VALUES ('OLDONCE', 1, 10, 1) RETURNING id",
    )
    .first<{ id: number }>())!.id;
  // Fixed examples first (the review's two orders, a free order, no discount), then generated ones.
  orders = [
    { lines: [{ price: 44900, quantity: 2 }], percent: 0, phone: "+966500000001" },
    { lines: [{ price: 14900, quantity: 3 }], percent: 0, phone: "0500000002" },
    {
      lines: [
        { price: 10001, quantity: 3 },
        { price: 3333, quantity: 2 },
        { price: 1, quantity: 1 },
      ],
      percent: 13,
      phone: "00966500000003",
    },
    {
      lines: [
        { price: 2500, quantity: 1 },
        { price: 7500, quantity: 2 },
      ],
      percent: 100,
      phone: "+966500000004",
    },
    ...fc.sample(oldOrder, { numRuns: 40, seed: 2026 }),
  ];
  const fixedDiscounts = [40000, 15000];
  let n = 0;
  for (const [index, order] of orders.entries()) {
    const subtotal = order.lines.reduce((s, l) => s + l.price * l.quantity, 0);
    const discount = fixedDiscounts[index] ?? Math.floor((subtotal * order.percent) / 100);
    const total = subtotal - discount + 2500;
    const number = `SQ-OLD${String(index).padStart(4, "0")}`;
    const orderId = (await db()
      .prepare(
        `INSERT INTO orders (number, email, phone, status, subtotal, discount, shipping, vat, total, promo_code, address,
           shipping_method, payment_method, stock_reserved, idempotency_key, paid_at)
         VALUES (?, ?, ?, 'delivered', ?, ?, 2500, 0, ?, 'OLDONCE', ?, 'standard', 'card', 0, ?, '2026-11-01T00:00:00.000Z') RETURNING id`,
      )
      .bind(
        number,
        `old${index}@example.com`,
        order.phone,
        subtotal,
        discount,
        total,
        JSON.stringify({
          name: "Old Buyer",
          phone: order.phone,
          city: "Riyadh",
          district: "Olaya",
          street: "1",
          building: "2",
          postal_code: "12211",
        }),
        `key-${index}`,
      )
      .first<{ id: number }>())!.id;
    for (const line of order.lines) {
      const slug = `old-${n++}`;
      const product = (await db()
        .prepare(
          "INSERT INTO products (slug, sku, model, category_id, name_en, name_ar, price, stock) VALUES (?, ?, 'M', ?, 'Old', 'قديم', ?, 5) RETURNING id",
        )
        .bind(slug, slug.toUpperCase(), category, line.price)
        .first<{ id: number }>())!.id;
      await db()
        .prepare(
          "INSERT INTO order_items (order_id, product_id, slug, name_en, name_ar, quantity, unit_price, line_total) VALUES (?, ?, ?, 'Old', 'قديم', ?, ?, ?)",
        )
        .bind(orderId, product, slug, line.quantity, line.price, line.price * line.quantity)
        .run();
    }
    await db()
      .prepare("INSERT INTO promo_redemptions (promo_id, order_id, user_id, email) VALUES (?, ?, NULL, ?)")
      .bind(promoId, orderId, `old${index}@example.com`)
      .run();
  }
  // Returns asked for under the old schema, priced at list price: one open on the review's first
  // order (1 of 2 units at 449 SAR), one refunded already on the second (its amount is history).
  const item = async (number: string) =>
    (await db()
      .prepare(
        "SELECT oi.id, oi.product_id, oi.order_id FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.number = ?",
      )
      .bind(number)
      .first<{ id: number; product_id: number; order_id: number }>())!;
  for (const [number, id, status, quantity, amount] of [
    ["SQ-OLD0000", "ret_old_open", "approved", 1, 44900],
    ["SQ-OLD0001", "ret_old_done", "refunded", 1, 14900],
  ] as const) {
    const line = await item(number);
    await db().batch([
      db()
        .prepare("INSERT INTO returns (id, order_id, status, amount) VALUES (?, ?, ?, ?)")
        .bind(id, line.order_id, status, amount),
      db()
        .prepare(
          "INSERT INTO return_items (return_id, order_item_id, product_id, quantity, reason, amount, within) VALUES (?, ?, ?, ?, 'damaged', ?, 1)",
        )
        .bind(id, line.id, line.product_id, quantity, amount),
    ]);
  }
  await applyD1Migrations(db(), env.TEST_MIGRATIONS);
});

describe("migration 0026 on orders placed before it", () => {
  it("every old order's lines get a net amount that adds up exactly to what was paid for its goods, shared as checkout shares it", async () => {
    const { results } = await db()
      .prepare(
        `SELECT o.number, o.subtotal, o.discount, o.shipping, o.total, oi.line_total, oi.net_total
         FROM orders o JOIN order_items oi ON oi.order_id = o.id ORDER BY o.id, oi.id`,
      )
      .all<{
        number: string;
        subtotal: number;
        discount: number;
        shipping: number;
        total: number;
        line_total: number;
        net_total: number;
      }>();
    const byOrder = new Map<string, typeof results>();
    for (const r of results) byOrder.set(r.number, [...(byOrder.get(r.number) ?? []), r]);
    expect(byOrder.size).toBe(orders.length);
    for (const lines of byOrder.values()) {
      const { subtotal, discount, shipping, total } = lines[0];
      // Nothing lost: the order's own amounts are as they were, and its lines add up to them.
      expect(lines.reduce((s, l) => s + l.line_total, 0)).toBe(subtotal);
      expect(lines.reduce((s, l) => s + l.net_total, 0)).toBe(total - shipping);
      for (const l of lines) {
        expect(l.net_total).toBeGreaterThanOrEqual(0);
        expect(l.net_total).toBeLessThanOrEqual(l.line_total);
      }
      expect(lines.map((l) => l.net_total)).toEqual(
        lineNets(
          lines.map((l) => l.line_total),
          discount,
        ),
      );
    }
    // The review's orders: 2 × 449 SAR less 400 SAR, 3 × 149 SAR less 150 SAR.
    expect(byOrder.get("SQ-OLD0000")!.map((l) => l.net_total)).toEqual([49800]);
    expect(byOrder.get("SQ-OLD0001")!.map((l) => l.net_total)).toEqual([29700]);
    expect(byOrder.get("SQ-OLD0003")!.map((l) => l.net_total)).toEqual([0, 0]);
  });

  it("an old return not refunded yet is repriced to its units' share of what was paid, the old amount kept on the timeline; a refunded one is left as it was", async () => {
    const rows = await db()
      .prepare(
        "SELECT r.id, r.amount, (SELECT SUM(amount) FROM return_items WHERE return_id = r.id) AS lines FROM returns r ORDER BY r.id",
      )
      .all<{ id: string; amount: number; lines: number }>();
    expect(rows.results).toEqual([
      { id: "ret_old_done", amount: 14900, lines: 14900 },
      { id: "ret_old_open", amount: 24900, lines: 24900 },
    ]);
    const events = await db()
      .prepare("SELECT type, detail, actor FROM order_events WHERE type = 'return_repriced'")
      .all<{ type: string; detail: string; actor: string }>();
    expect(events.results.map((e) => ({ ...e, detail: JSON.parse(e.detail) }))).toEqual([
      {
        type: "return_repriced",
        detail: { return_id: "ret_old_open", amount_before: 44900, amount: 24900 },
        actor: "system",
      },
    ]);
  });

  it("old redemptions get the order's delivery phone as the per-customer guard counts it", async () => {
    const { results } = await db()
      .prepare(
        "SELECT r.phone, o.phone AS typed FROM promo_redemptions r JOIN orders o ON o.id = r.order_id ORDER BY r.id",
      )
      .all<{ phone: string | null; typed: string }>();
    expect(results).toHaveLength(orders.length);
    for (const r of results) expect(r.phone).toBe(promoPhoneKey(r.typed));
    expect(promoPhoneKey("0512345678")).toBe(promoPhoneKey("+966 51 234 5678"));
  });
});

describe("sharing a discount across order lines", () => {
  it("allocate: the shares always add up exactly to the total, each within one halala of its exact share", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (amounts, wanted) => {
          const sum = amounts.reduce((a, b) => a + b, 0);
          const total = Math.min(wanted, sum);
          const shares = allocate(total, amounts);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(sum === 0 ? 0 : total);
          shares.forEach((share, i) => {
            const exact = sum === 0 ? 0 : (amounts[i] * total) / sum;
            expect(Math.abs(share - exact)).toBeLessThan(1);
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("lineNets: each line's net is within its list total and the nets add up exactly to what was paid", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 100 }),
        (lineTotals, percent) => {
          const subtotal = lineTotals.reduce((a, b) => a + b, 0);
          const discount = Math.floor((subtotal * percent) / 100);
          const nets = lineNets(lineTotals, discount);
          expect(nets.reduce((a, b) => a + b, 0)).toBe(subtotal - discount);
          nets.forEach((net, i) => {
            expect(net).toBeGreaterThanOrEqual(0);
            expect(net).toBeLessThanOrEqual(lineTotals[i]);
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("returnedAmount: returns of a line in any steps, some rejected, never give back more than its net, and all of it once every unit is back", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.record({ count: fc.integer({ min: 1, max: 9 }), rejected: fc.boolean() }), { maxLength: 12 }),
        (net, quantity, steps) => {
          const open: { count: number; amount: number }[] = [];
          for (const step of steps) {
            const before = open.reduce((s, r) => s + r.count, 0);
            if (step.count > quantity - before) continue;
            const claimed = open.reduce((s, r) => s + r.amount, 0);
            const amount = returnedAmount(net, quantity, before, claimed, step.count);
            expect(amount).toBeGreaterThanOrEqual(0);
            open.push({ count: step.count, amount });
            expect(open.reduce((s, r) => s + r.amount, 0)).toBeLessThanOrEqual(net);
            // A rejected return gives its units (and what it would have refunded) back to ask for again.
            if (step.rejected) open.pop();
          }
          const before = open.reduce((s, r) => s + r.count, 0);
          if (before < quantity)
            open.push({
              count: quantity - before,
              amount: returnedAmount(
                net,
                quantity,
                before,
                open.reduce((s, r) => s + r.amount, 0),
                quantity - before,
              ),
            });
          expect(open.reduce((s, r) => s + r.amount, 0)).toBe(net);
        },
      ),
      { numRuns: 500 },
    );
  });
});
