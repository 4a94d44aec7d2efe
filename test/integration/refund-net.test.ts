import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { TaxDocument } from "../../contract/invoices";
import { address, call, createProduct, newUser, type Shopper, type TestProduct } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import { payOrder } from "../support/orders";

/**
 * What a refund gives back is what was paid: each order line keeps its net amount (its list total
 * less its share of the order's discount) and returns, credit notes and the console's "amount to
 * refund" are worked out from those, never from list prices. Shipping is refunded only when the
 * whole order is cancelled before it ships.
 */

/** A fixed-amount code of this test's own: `off` halalas off orders from `minOrder`. */
async function fixedCode(off: number, minOrder: number): Promise<string> {
  const code = `NET${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  await env.DB.prepare("INSERT INTO promo_codes (code, discount_type, value, min_order) VALUES (?, 2, ?, ?)")
    .bind(code, off, minOrder)
    .run();
  return code;
}

/** A percentage code of this test's own. */
async function percentCode(percent: number): Promise<string> {
  const code = `PCT${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  await env.DB.prepare("INSERT INTO promo_codes (code, discount_type, value) VALUES (?, 1, ?)")
    .bind(code, percent)
    .run();
  return code;
}

interface Bought {
  number: string;
  total: number;
  discount: number;
  shipping: number;
  products: TestProduct[];
}

/** Buys `lines` (price, quantity) with `code` and pays; answers the order as checkout made it. */
async function buyWithCode(
  shopper: Shopper,
  code: string,
  lines: [price: number, quantity: number][],
): Promise<Bought> {
  const products: TestProduct[] = [];
  for (const [price, quantity] of lines) {
    const product = await createProduct({ price, stock: 20, maxPerOrder: 10 });
    products.push(product);
    expect((await call(shopper, "POST", "/cart/add-product", { product_id: product.id, quantity })).status).toBe(200);
  }
  expect((await call(shopper, "POST", "/promo-code/check", { code })).status).toBe(200);
  const placed = await call(shopper, "POST", "/checkout", {
    idempotency_key: crypto.randomUUID(),
    email: shopper.email,
    address,
    shipping_method: "standard",
    payment_method: "card",
  });
  expect(placed.status).toBe(201);
  const data = placed.body.data as { number: string; total: number; discount: number; shipping: number };
  expect(data.discount).toBeGreaterThan(0);
  await payOrder(shopper, data.number);
  return { number: data.number, total: data.total, discount: data.discount, shipping: data.shipping, products };
}

async function deliver(manager: Staff, number: string) {
  expect((await call(manager, "POST", `/admin/orders/${number}/process`)).status).toBe(200);
  expect(
    (await call(manager, "POST", `/admin/orders/${number}/ship`, { carrier: "SMSA", tracking_number: "SM1" })).status,
  ).toBe(200);
  expect((await call(manager, "POST", `/admin/orders/${number}/deliver`)).status).toBe(200);
}

/** Asks to return `quantity` of `product`, then staff approve, receive and refund it; answers the return as staff saw it. */
async function returnAndRefund(
  shopper: Shopper,
  manager: Staff,
  number: string,
  product: TestProduct,
  quantity: number,
) {
  const requested = await call(shopper, "POST", `/orders/${number}/returns`, {
    items: [{ product_id: product.id, quantity, reason: "changed_mind" }],
  });
  expect(requested.status).toBe(201);
  const id = (requested.body.data.self_service.returns as { id: string }[]).at(-1)!.id;
  const base = `/admin/orders/${number}/returns`;
  const before = ((await call(manager, "GET", base)).body.data as { id: string; amount: number }[]).find(
    (r) => r.id === id,
  )!;
  expect((await call(manager, "POST", `${base}/${id}/approve`)).status).toBe(200);
  expect((await call(manager, "POST", `${base}/${id}/receive`)).status).toBe(200);
  const refunded = await call(manager, "POST", `${base}/${id}/refund`);
  expect(refunded.status).toBe(200);
  const after = (refunded.body.data as { id: string; refund_id: string }[]).find((r) => r.id === id)!;
  return { id, shownToStaff: before.amount, refundId: after.refund_id };
}

const refundAmount = async (refundId: string) =>
  (await env.DB.prepare("SELECT amount FROM refunds WHERE id = ?").bind(refundId).first<{ amount: number }>())!.amount;

describe("returns refund what was paid, not list price", () => {
  it("return at list price: a returned unit is refunded its share of what was paid, and its credit note says the same", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    // The review's order: 2 × 449 SAR with 400 SAR off orders of 800 SAR or more: 498 SAR paid.
    const order = await buyWithCode(shopper, await fixedCode(40000, 80000), [[44900, 2]]);
    expect(order).toMatchObject({ total: 49800, discount: 40000, shipping: 0 });
    await deliver(manager, order.number);

    const { shownToStaff, refundId } = await returnAndRefund(shopper, manager, order.number, order.products[0], 1);
    // One of two units: half of what was paid, not its list price of 449 SAR.
    expect(shownToStaff).toBe(24900);
    expect(await refundAmount(refundId)).toBe(24900);

    const page = await call(shopper, "GET", `/orders/${order.number}`);
    expect(page.body.data.refunded).toBe(24900);
    expect(page.body.data.items[0]).toMatchObject({ line_total: 89800, net_total: 49800 });
    const note = page.body.data.credit_notes[0] as { id: number };
    const doc = await call<TaxDocument>(shopper, "GET", `/orders/${order.number}/credit-notes/${note.id}`);
    expect(doc.status).toBe(200);
    expect(doc.body.data.total).toBe(24900);

    // The console's order page shows each line's net amount next to its list total.
    const detail = await call(manager, "GET", `/admin/orders/${order.number}`);
    expect(detail.body.data.items[0]).toMatchObject({ line_total: 89800, net_total: 49800 });
  });

  it("return at list price: returning all but one unit leaves the kept unit costing its share, and shipping is not refunded", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    // 3 × 149 SAR with 150 SAR off from 300 SAR: 297 SAR of goods, below free shipping: 25 SAR shipping.
    const order = await buyWithCode(shopper, await fixedCode(15000, 30000), [[14900, 3]]);
    expect(order).toMatchObject({ total: 32200, discount: 15000, shipping: 2500 });
    await deliver(manager, order.number);
    const two = await returnAndRefund(shopper, manager, order.number, order.products[0], 2);
    expect(two.shownToStaff).toBe(19800);
    expect(await refundAmount(two.refundId)).toBe(19800);
    // The last unit too, in a later request: every unit back, the goods' 297 SAR refunded, the delivery made kept.
    const last = await returnAndRefund(shopper, manager, order.number, order.products[0], 1);
    expect(await refundAmount(last.refundId)).toBe(9900);
    const page = await call(shopper, "GET", `/orders/${order.number}`);
    expect(page.body.data.refunded).toBe(order.total - order.shipping);
  });

  it(
    "partial returns over several requests never sum above what was paid for those units",
    { timeout: 60_000 },
    async () => {
      const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
      // Awkward numbers: 13% off 3 × 100.01 SAR and 2 × 33.33 SAR; the shares do not divide evenly.
      const order = await buyWithCode(shopper, await percentCode(13), [
        [10001, 3],
        [3333, 2],
      ]);
      const items = (await call(shopper, "GET", `/orders/${order.number}`)).body.data.items as {
        product_id: number;
        line_total: number;
        net_total: number;
      }[];
      expect(items.reduce((s, i) => s + i.net_total, 0)).toBe(order.total - order.shipping);
      await deliver(manager, order.number);
      for (const [index, product] of order.products.entries()) {
        const bought = index === 0 ? 3 : 2;
        const net = items.find((i) => i.product_id === product.id)!.net_total;
        let refunded = 0;
        for (let unit = 0; unit < bought; unit++) {
          const step = await returnAndRefund(shopper, manager, order.number, product, 1);
          refunded += await refundAmount(step.refundId);
          // Never above what was paid for the units returned so far.
          expect(refunded).toBeLessThanOrEqual(Math.ceil((net * (unit + 1)) / bought));
        }
        expect(refunded).toBe(net);
      }
      const page = await call(shopper, "GET", `/orders/${order.number}`);
      expect(page.body.data.refunded).toBe(order.total - order.shipping);
    },
  );

  it("partial returns asked for at once: racing requests together never claim more than what was paid for the line", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const order = await buyWithCode(shopper, await percentCode(7), [[10003, 4]]);
    const net = (await call(shopper, "GET", `/orders/${order.number}`)).body.data.items[0].net_total as number;
    expect(net).toBe(order.total - order.shipping);
    await deliver(manager, order.number);
    const ask = () =>
      call(shopper, "POST", `/orders/${order.number}/returns`, {
        items: [{ product_id: order.products[0].id, quantity: 1, reason: "damaged" }],
      });
    const answers = await Promise.all([ask(), ask(), ask(), ask()]);
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    // Whatever got through (a request that lost a race is asked to try again), then the rest.
    for (const _ of answers.filter((a) => a.status === 409)) expect((await ask()).status).toBe(201);
    const returns = (await call(shopper, "GET", `/orders/${order.number}`)).body.data.self_service.returns as {
      amount: number;
      items: { amount: number }[];
    }[];
    expect(returns).toHaveLength(4);
    for (const r of returns) expect(r.amount).toBe(r.items.reduce((s, l) => s + l.amount, 0));
    expect(returns.reduce((s, r) => s + r.amount, 0)).toBe(net);
  });

  it("a return of goods nothing was paid for (a 100% code) is answered plainly: nothing to refund", async () => {
    const [shopper, manager] = await Promise.all([newUser("ar"), newStaff("manager")]);
    const order = await buyWithCode(shopper, await percentCode(100), [[5000, 1]]);
    expect(order.total).toBe(order.shipping);
    await deliver(manager, order.number);
    const asked = await call(shopper, "POST", `/orders/${order.number}/returns`, {
      items: [{ product_id: order.products[0].id, quantity: 1, reason: "damaged" }],
    });
    expect(asked.status).toBe(409);
    expect(asked.body.message).toBe(
      "لم يُدفع أي مبلغ مقابل هذه المنتجات بعد الخصم، فلا يوجد ما يُسترد. تواصل معنا بشأنها.",
    );
  });

  it("a cancellation after a discount refunds exactly what was paid, shipping included", async () => {
    const shopper = await newUser();
    const order = await buyWithCode(shopper, await fixedCode(15000, 30000), [[14900, 3]]);
    expect(order.total).toBe(32200);
    const cancelled = await call(shopper, "POST", `/orders/${order.number}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: "cancelled", refunded: 32200, payment_status: "refunded" });
    const notes = cancelled.body.data.credit_notes as { id: number }[];
    expect(notes).toHaveLength(1);
    const doc = await call<TaxDocument>(shopper, "GET", `/orders/${order.number}/credit-notes/${notes[0].id}`);
    expect(doc.body.data.total).toBe(32200);
  });
});
