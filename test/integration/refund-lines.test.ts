import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ConsoleOrder, PackingSlip } from "../../contract/console-orders";
import type { TaxDocument } from "../../contract/invoices";
import {
  address,
  call,
  createProduct,
  newGuest,
  newUser,
  stockOf,
  type Shopper,
  type TestProduct,
} from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import { payOrder } from "../support/orders";

/**
 * Refunds per line from the console: staff choose lines and units, the server prices them at what
 * was paid (each line's net after the discount), may put them back in stock, and refunds the
 * shipping once when asked. Console refunds and returns claim the same per-line counters, so
 * together they never give back a unit twice. Credit notes list the refunded lines and the reason.
 */

async function percentCode(percent: number): Promise<string> {
  const code = `RL${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  await env.DB.prepare("INSERT INTO promo_codes (code, discount_type, value) VALUES (?, 1, ?)")
    .bind(code, percent)
    .run();
  return code;
}

interface Bought {
  number: string;
  total: number;
  shipping: number;
  products: TestProduct[];
}

/** The review's order: 2 × 49 cables and a 149 power bank with 10 % off, paid. */
async function buy(shopper: Shopper, lines: [price: number, quantity: number][], percent = 10): Promise<Bought> {
  const products: TestProduct[] = [];
  for (const [price, quantity] of lines) {
    const product = await createProduct({ price, stock: 20, maxPerOrder: 10 });
    products.push(product);
    expect((await call(shopper, "POST", "/cart/add-product", { product_id: product.id, quantity })).status).toBe(200);
  }
  if (percent)
    expect((await call(shopper, "POST", "/promo-code/check", { code: await percentCode(percent) })).status).toBe(200);
  const placed = await call(shopper, "POST", "/checkout", {
    idempotency_key: crypto.randomUUID(),
    email: shopper.email,
    address,
    shipping_method: "standard",
    payment_method: "card",
  });
  expect(placed.status).toBe(201);
  const data = placed.body.data as { number: string; total: number; shipping: number };
  await payOrder(shopper, data.number);
  return { number: data.number, total: data.total, shipping: data.shipping, products };
}

const detail = async (staff: Staff, number: string) =>
  (await call<ConsoleOrder>(staff, "GET", `/admin/orders/${number}`)).body.data;

async function deliver(manager: Staff, number: string) {
  expect((await call(manager, "POST", `/admin/orders/${number}/process`)).status).toBe(200);
  expect(
    (await call(manager, "POST", `/admin/orders/${number}/ship`, { carrier: "SMSA", tracking_number: "SM1" })).status,
  ).toBe(200);
  expect((await call(manager, "POST", `/admin/orders/${number}/deliver`)).status).toBe(200);
}

describe("console refunds per line", () => {
  it("refunding every unit line by line gives back exactly what was paid for the goods, and the shipping once", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const order = await buy(shopper, [
      [4900, 2],
      [14900, 1],
    ]);
    const before = await detail(manager, order.number);
    const nets = before.items.map((i) => i.net_total);
    expect(nets.reduce((a, b) => a + b, 0)).toBe(before.subtotal - before.discount);
    const [cable, bank] = order.products;
    // What the dialog shows for one cable is what the server pays for it.
    const oneCable = before.items[0].refund_amounts[0];
    const first = await call(manager, "POST", `/admin/orders/${order.number}/refund`, {
      lines: [{ product_id: cable.id, quantity: 1 }],
      amount: oneCable,
      reason: "one cable",
    });
    expect(first.status).toBe(200);
    expect(first.body.data.refunded).toBe(oneCable);
    expect(first.body.data.items[0]).toMatchObject({ claimed_quantity: 1 });
    // A confirmation that no longer matches pays nothing.
    const stale = await call(manager, "POST", `/admin/orders/${order.number}/refund`, {
      lines: [{ product_id: cable.id, quantity: 1 }],
      amount: oneCable + 1,
    });
    expect(stale.status).toBe(409);
    const second = await call(manager, "POST", `/admin/orders/${order.number}/refund`, {
      lines: [
        { product_id: cable.id, quantity: 1 },
        { product_id: bank.id, quantity: 1 },
      ],
      shipping: true,
    });
    expect(second.status).toBe(200);
    const after = second.body.data as ConsoleOrder;
    expect(after.refunded).toBe(nets[0] + nets[1] + order.shipping);
    expect(after.refunded).toBe(order.total);
    expect(after.shipping_refundable).toBe(0);
    expect(after.items.every((i) => i.refund_amounts.length === 0)).toBe(true);
    // Nothing left on any line: a third refund of lines is refused, as is the shipping again.
    const again = await call(manager, "POST", `/admin/orders/${order.number}/refund`, {
      lines: [{ product_id: cable.id, quantity: 1 }],
    });
    expect(again.status).toBe(409);

    // Each credit note lists its lines (and the shipping) and its reason.
    const docs = after.documents.credit_notes;
    expect(docs).toHaveLength(2);
    const note1 = (await call<TaxDocument>(manager, "GET", `/admin/orders/${order.number}/credit-notes/${docs[0].id}`))
      .body.data;
    expect(note1.lines).toEqual([expect.objectContaining({ quantity: 1, line_total: oneCable })]);
    expect(note1.reason).toBe("one cable");
    const note2 = (await call<TaxDocument>(manager, "GET", `/admin/orders/${order.number}/credit-notes/${docs[1].id}`))
      .body.data;
    expect(note2.lines.map((l) => l.line_total)).toEqual([nets[0] - oneCable, nets[1], order.shipping]);
    expect(note2.lines.reduce((a, l) => a + l.vat, 0)).toBe(note2.vat);
    // The shopper gets the same document.
    const mine = await call<TaxDocument>(shopper, "GET", `/orders/${order.number}/credit-notes/${docs[1].id}`);
    expect(mine.body.data.lines).toEqual(note2.lines);
  });

  it("puts refunded lines back in stock only when staff choose so", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const order = await buy(shopper, [[4900, 3]], 0);
    const product = order.products[0];
    const start = await stockOf(product.id);
    expect(
      (
        await call(manager, "POST", `/admin/orders/${order.number}/refund`, {
          lines: [{ product_id: product.id, quantity: 1 }],
        })
      ).status,
    ).toBe(200);
    expect(await stockOf(product.id)).toBe(start);
    expect(
      (
        await call(manager, "POST", `/admin/orders/${order.number}/refund`, {
          lines: [{ product_id: product.id, quantity: 2 }],
          restock: true,
        })
      ).status,
    ).toBe(200);
    expect(await stockOf(product.id)).toBe(start + 2);
    const ledger = await env.DB.prepare(
      "SELECT delta, reason FROM inventory_adjustments WHERE product_id = ? ORDER BY id",
    )
      .bind(product.id)
      .all<{ delta: number; reason: string }>();
    expect(ledger.results.at(-1)).toEqual({ delta: 2, reason: "returned" });
  });

  it("refunds the shipping once, and only when asked", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const order = await buy(shopper, [[4900, 1]], 0);
    expect(order.shipping).toBeGreaterThan(0);
    const once = await call(manager, "POST", `/admin/orders/${order.number}/refund`, { shipping: true });
    expect(once.status).toBe(200);
    expect(once.body.data.refunded).toBe(order.shipping);
    const twice = await call(manager, "POST", `/admin/orders/${order.number}/refund`, { shipping: true });
    expect(twice.status).toBe(422);
    expect(twice.body.errors?.shipping).toBeDefined();
    expect((await detail(manager, order.number)).refunded).toBe(order.shipping);
  });

  it("a line refunded from the console cannot be returned for money, nor a returned line refunded again (B4)", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const order = await buy(shopper, [
      [4900, 2],
      [14900, 1],
    ]);
    const [cable] = order.products;
    const nets = (await detail(manager, order.number)).items.map((i) => i.net_total);
    await deliver(manager, order.number);
    expect(
      (
        await call(manager, "POST", `/admin/orders/${order.number}/refund`, {
          lines: [{ product_id: cable.id, quantity: 1 }],
        })
      ).status,
    ).toBe(200);
    // The shopper's page offers the one cable left, and a return of both is refused.
    const page = await call(shopper, "GET", `/orders/${order.number}`);
    expect(page.body.data.self_service.returnable[cable.id]).toBe(1);
    const both = await call(shopper, "POST", `/orders/${order.number}/returns`, {
      items: [{ product_id: cable.id, quantity: 2, reason: "damaged" }],
    });
    expect(both.status).toBe(422);
    const one = await call(shopper, "POST", `/orders/${order.number}/returns`, {
      items: [{ product_id: cable.id, quantity: 1, reason: "damaged" }],
    });
    expect(one.status).toBe(201);
    // The returned cable is claimed: the console cannot refund it again.
    const dup = await call(manager, "POST", `/admin/orders/${order.number}/refund`, {
      lines: [{ product_id: cable.id, quantity: 1 }],
    });
    expect(dup.status).toBe(422);
    const base = `/admin/orders/${order.number}/returns`;
    const id = ((await call(manager, "GET", base)).body.data as { id: string }[])[0].id;
    for (const step of ["approve", "receive", "refund"])
      expect((await call(manager, "POST", `${base}/${id}/${step}`)).status).toBe(200);
    // Two cables refunded, one each way: exactly what was paid for them.
    const after = await detail(manager, order.number);
    expect(after.refunded).toBe(nets[0]);
    const note = after.documents.credit_notes.at(-1)!;
    const doc = (
      await call<TaxDocument>(manager, "GET", `/admin/orders/${order.number}/credit-notes/${note.id}`, undefined)
    ).body.data;
    expect(doc.reason).toBe("Damaged");
    expect(doc.lines).toHaveLength(1);
  });

  it("a rejected return gives its lines back to be refunded from the console", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const order = await buy(shopper, [[4900, 1]], 0);
    const [cable] = order.products;
    await deliver(manager, order.number);
    expect(
      (
        await call(shopper, "POST", `/orders/${order.number}/returns`, {
          items: [{ product_id: cable.id, quantity: 1, reason: "other" }],
        })
      ).status,
    ).toBe(201);
    const base = `/admin/orders/${order.number}/returns`;
    const id = ((await call(manager, "GET", base)).body.data as { id: string }[])[0].id;
    expect((await call(manager, "POST", `${base}/${id}/reject`, { note: "used" })).status).toBe(200);
    expect((await detail(manager, order.number)).items[0].claimed_quantity).toBe(0);
    expect(
      (
        await call(manager, "POST", `/admin/orders/${order.number}/refund`, {
          lines: [{ product_id: cable.id, quantity: 1 }],
        })
      ).status,
    ).toBe(200);
  });

  it("an amount-only refund stays possible and is tied to no line; support cannot refund", async () => {
    const [shopper, manager, support] = await Promise.all([newUser(), newStaff("manager"), newStaff("support")]);
    const order = await buy(shopper, [[4900, 2]], 0);
    expect((await call(support, "POST", `/admin/orders/${order.number}/refund`, { amount: 100 })).status).toBe(403);
    const refund = await call(manager, "POST", `/admin/orders/${order.number}/refund`, {
      amount: 4900,
      reason: "goodwill",
    });
    expect(refund.status).toBe(200);
    expect((refund.body.data as ConsoleOrder).items[0].claimed_quantity).toBe(0);
    const note = (refund.body.data as ConsoleOrder).documents.credit_notes[0];
    const doc = (await call<TaxDocument>(manager, "GET", `/admin/orders/${order.number}/credit-notes/${note.id}`)).body
      .data;
    expect(doc.lines).toHaveLength(1);
    expect(doc.reason).toBe("goodwill");
    expect((await call(manager, "POST", `/admin/orders/${order.number}/refund`, {})).status).toBe(422);
  });
});

describe("console documents", () => {
  it("staff open the order's invoice; managers print its packing slip without prices, support may not", async () => {
    const [shopper, manager, support] = await Promise.all([
      newUser("ar"),
      newStaff("manager", "ar"),
      newStaff("support"),
    ]);
    const order = await buy(shopper, [[4900, 2]], 0);
    const invoice = await call<TaxDocument>(support, "GET", `/admin/orders/${order.number}/invoice`);
    expect(invoice.status).toBe(200);
    expect(invoice.body.data.kind).toBe("invoice");
    expect((await call(support, "GET", `/admin/orders/${order.number}/packing-slip`)).status).toBe(403);
    const slip = await call<PackingSlip>(manager, "GET", `/admin/orders/${order.number}/packing-slip`);
    expect(slip.status).toBe(200);
    expect(slip.body.data).toMatchObject({
      order_number: order.number,
      total_units: 2,
      address: { street: address.street },
    });
    expect(slip.body.data.items[0]).toMatchObject({ quantity: 2, sku: expect.any(String) });
    expect(JSON.stringify(slip.body.data)).not.toMatch(/price|total_price|4900/);
    expect((await call(shopper, "GET", `/admin/orders/${order.number}/packing-slip`)).status).toBe(404);
  });
});

describe("internal notes", () => {
  it("every staff role adds and reads notes on orders and customers; shoppers never see them; each is audited", async () => {
    const [shopper, support, manager] = await Promise.all([newUser(), newStaff("support"), newStaff("manager")]);
    const order = await buy(shopper, [[4900, 1]], 0);
    const added = await call<ConsoleOrder>(support, "POST", `/admin/orders/${order.number}/notes`, {
      body: "Called: leave at the door",
    });
    expect(added.status).toBe(200);
    expect(added.body.data.notes).toEqual([
      expect.objectContaining({ body: "Called: leave at the door", staff_email: support.email }),
    ]);
    expect((await detail(manager, order.number)).notes).toHaveLength(1);
    const mine = await call(shopper, "GET", `/orders/${order.number}`);
    expect(JSON.stringify(mine.body)).not.toContain("leave at the door");
    expect((await call(shopper, "POST", `/admin/orders/${order.number}/notes`, { body: "x" })).status).toBe(404);
    expect((await call(support, "POST", `/admin/orders/${order.number}/notes`, { body: "  " })).status).toBe(422);
    const audit = await env.DB.prepare(
      "SELECT entity, entity_id FROM audit_log WHERE action = 'note.add' AND staff_email = ?",
    )
      .bind(support.email)
      .first<{ entity: string; entity_id: string }>();
    expect(audit).toEqual({ entity: "order", entity_id: order.number });

    const customer = await call(support, "POST", `/admin/customers/${shopper.userId}/notes`, { body: "VIP" });
    expect(customer.status).toBe(200);
    expect(customer.body.data.notes[0]).toMatchObject({ body: "VIP" });
    expect((await call(manager, "GET", `/admin/customers/${shopper.userId}`)).body.data.notes).toHaveLength(1);
  });
});

describe("guests among customers", () => {
  it("a guest buyer is listed as a guest, found by the whole email or phone (support: only exactly), with their orders", async () => {
    const [guest, manager, support] = await Promise.all([newGuest(), newStaff("manager"), newStaff("support")]);
    const product = await createProduct({ price: 4900, stock: 10 });
    const phone = `+9665${Math.floor(10000000 + Math.random() * 89999999)}`;
    const numbers: string[] = [];
    for (let i = 0; i < 2; i++) {
      expect((await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 })).status).toBe(
        200,
      );
      const placed = await call(guest, "POST", "/checkout", {
        idempotency_key: crypto.randomUUID(),
        email: i === 0 ? guest.email : guest.email.toUpperCase(),
        address: { ...address, name: "Layla Guest", phone },
        shipping_method: "standard",
        payment_method: "card",
      });
      expect(placed.status).toBe(201);
      numbers.push(placed.body.data.number as string);
    }
    const found = await call(manager, "GET", `/admin/customers?search=${encodeURIComponent(guest.email)}`);
    expect(found.body.data).toEqual([
      expect.objectContaining({ id: `guest-${numbers[0]}`, guest: true, name: "Layla Guest", orders_count: 2 }),
    ]);
    // Support: the whole email or phone finds the guest (masked); a part finds nothing.
    const whole = await call(support, "GET", `/admin/customers?search=${encodeURIComponent(guest.email)}`);
    expect(whole.body.data).toHaveLength(1);
    expect(whole.body.data[0].email).not.toBe(guest.email);
    expect((await call(support, "GET", `/admin/customers?search=${encodeURIComponent(phone)}`)).body.data).toHaveLength(
      1,
    );
    expect(
      (await call(support, "GET", `/admin/customers?search=${encodeURIComponent(guest.email.slice(0, 6))}`)).body.data,
    ).toHaveLength(0);
    const page = await call(support, "GET", `/admin/customers/guest-${numbers[0]}`);
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({ guest: true, addresses: [] });
    expect((page.body.data.orders as { number: string }[]).map((o) => o.number).sort()).toEqual([...numbers].sort());
    expect(
      (await call(support, "POST", `/admin/customers/guest-${numbers[0]}/notes`, { body: "Prefers SMS" })).status,
    ).toBe(200);
    expect((await call(manager, "GET", "/admin/customers/guest-SQ-NOTANORD")).status).toBe(404);
  });
});

describe("migration 0032", () => {
  it("on a database made and used under the old schema: open returns' lines are claimed, rejected ones not, and a refund in full counts its shipping", async () => {
    const db = env.REPLICA_DB;
    await applyD1Migrations(
      db,
      env.TEST_MIGRATIONS.filter((m) => m.name < "0032"),
    );
    await db.batch([
      db.prepare("INSERT INTO categories (slug, name_en, name_ar) VALUES ('m32', 'M', 'م')"),
      db.prepare(
        `INSERT INTO products (id, sku, slug, name_en, name_ar, price, stock, category_id)
         VALUES (1, 'M32-1', 'm32-1', 'Cable', 'كابل', 4900, 5, (SELECT id FROM categories WHERE slug = 'm32'))`,
      ),
    ]);
    const orderSql = `INSERT INTO orders (id, number, email, status, subtotal, discount, shipping, total, refunded, address, shipping_method,
      payment_method, idempotency_key, paid_at) VALUES (?, ?, 'a@b.c', 'delivered', 9800, 0, 2500, 12300, ?, '{}', 'standard', 'card', ?, '2025-01-01')`;
    await db.batch([
      db.prepare(orderSql).bind(1, "SQ-OLD00001", 0, "k1"),
      db.prepare(orderSql).bind(2, "SQ-OLD00002", 12300, "k2"),
      db.prepare(
        "INSERT INTO order_items (id, order_id, product_id, slug, name_en, name_ar, quantity, unit_price, line_total, net_total) VALUES (1, 1, 1, 'm32-1', 'Cable', 'كابل', 2, 4900, 9800, 9800)",
      ),
      db.prepare(
        "INSERT INTO returns (id, order_id, status, amount) VALUES ('ret_a', 1, 'approved', 4900), ('ret_b', 1, 'rejected', 4900)",
      ),
      db.prepare(
        `INSERT INTO return_items (return_id, order_item_id, product_id, quantity, reason, amount, within)
         VALUES ('ret_a', 1, 1, 1, 'damaged', 4900, 1), ('ret_b', 1, 1, 1, 'other', 4900, 1)`,
      ),
    ]);
    await applyD1Migrations(
      db,
      env.TEST_MIGRATIONS.filter((m) => m.name.startsWith("0032_")),
    );
    expect(
      await db
        .prepare("SELECT claimed_quantity, claimed_amount, quantity, net_total FROM order_items WHERE id = 1")
        .first(),
    ).toEqual({
      claimed_quantity: 1,
      claimed_amount: 4900,
      quantity: 2,
      net_total: 9800,
    });
    const orders = await db.prepare("SELECT id, shipping_refunded, refunded FROM orders ORDER BY id").all();
    expect(orders.results).toEqual([
      { id: 1, shipping_refunded: 0, refunded: 0 },
      { id: 2, shipping_refunded: 1, refunded: 12300 },
    ]);
    // The counters now refuse more units than were bought.
    await expect(db.prepare("UPDATE order_items SET claimed_quantity = 3 WHERE id = 1").run()).rejects.toThrow(/CHECK/);
    expect(await db.prepare("SELECT COUNT(*) AS n FROM returns").first("n")).toBe(2);
  });
});
