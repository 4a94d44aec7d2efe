import { applyD1Migrations, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Cart } from "../../contract/cart";
import type { ProductDetails, ProductSummary } from "../../contract/catalogue";
import type { ConsoleOrder } from "../../contract/console-orders";
import type { InventoryAdjustment } from "../../contract/console-content";
import type { TaxDocument } from "../../contract/invoices";
import type { Order } from "../../contract/orders";
import { catalogueStatements } from "../../scripts/seed/catalogue";
import { VARIANT_VALUES, withChosen } from "../../worker/backend/services/catalogue/search-variants";
import { loadCart, reorderIntoCart } from "../../worker/backend/services/orders/cart";
import { address, call, createProduct, createVariantProduct, newUser, type Shopper } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import { payOrder } from "../support/orders";

/**
 * Variants are what is sold: a product's options and variants on its page, cart lines of one
 * variant each, stock held and given back per variant, order lines and their documents naming the
 * variant, returns and the ledger per variant; and migration 0040 on a database made and used
 * before variants, with its orders, returns, refunds and invoices.
 */

const variantStock = async (id: number) =>
  env.DB.prepare("SELECT stock FROM product_variants WHERE id = ?").bind(id).first<number>("stock");
const productRow = async (id: number) =>
  env.DB.prepare("SELECT price, stock, variant_count FROM products WHERE id = ?")
    .bind(id)
    .first<{ price: number; stock: number; variant_count: number }>();

async function details(slug: string, lang: "en" | "ar" = "en"): Promise<ProductDetails> {
  const res = await SELF.fetch(`https://shop.test/backend/products/${slug}`, {
    headers: { "content-language": lang, "cache-control": "no-cache" },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: ProductDetails }).data;
}

async function deliver(manager: Staff, number: string) {
  for (const [path, body] of [
    ["process", undefined],
    ["ship", { carrier: "SMSA", tracking_number: "SM123456" }],
    ["deliver", undefined],
  ] as const)
    expect((await call(manager, "POST", `/admin/orders/${number}/${path}`, body)).status).toBe(200);
}

async function checkout(shopper: Shopper): Promise<string> {
  const placed = await call(shopper, "POST", "/checkout", {
    idempotency_key: crypto.randomUUID(),
    email: shopper.email,
    address,
    shipping_method: "standard",
    payment_method: "card",
  });
  expect(placed.status).toBe(201);
  return placed.body.data.number as string;
}

describe("a product and its variants", () => {
  it("the product row shows the cheapest available price and the stock of its variants, and follows them", async () => {
    const phone = await createVariantProduct();
    expect(await productRow(phone.id)).toEqual({ price: 399900, stock: 10, variant_count: 4 });
    await env.DB.prepare("UPDATE product_variants SET price = 379900 WHERE id = ?").bind(phone.variants[3].id).run();
    expect(await productRow(phone.id)).toEqual({ price: 379900, stock: 10, variant_count: 4 });
    await env.DB.prepare("UPDATE product_variants SET active = 0 WHERE id = ?").bind(phone.variants[3].id).run();
    expect(await productRow(phone.id)).toEqual({ price: 399900, stock: 8, variant_count: 3 });
  });

  it("the product's page lists its options (only values some variant has) and variants, in the caller's language", async () => {
    const phone = await createVariantProduct();
    const en = await details(phone.slug);
    expect(en.options).toEqual([
      {
        code: "colour",
        name: "Colour",
        kind: "swatch",
        values: [
          { code: "blue", name: "Blue", swatch: "#1f3a5f" },
          { code: "black", name: "Black", swatch: "#111111" },
        ],
      },
      {
        code: "storage",
        name: "Storage",
        kind: "button",
        values: [
          { code: "256gb", name: "256 GB", swatch: null },
          { code: "512gb", name: "512 GB", swatch: null },
        ],
      },
    ]);
    expect(en.variants!.map((v) => [v.title, v.options, v.price, v.in_stock])).toEqual([
      ["Blue · 256 GB", { colour: "blue", storage: "256gb" }, 399900, true],
      ["Blue · 512 GB", { colour: "blue", storage: "512gb" }, 479900, false],
      ["Black · 256 GB", { colour: "black", storage: "256gb" }, 399900, true],
      ["Black · 512 GB", { colour: "black", storage: "512gb" }, 479900, true],
    ]);
    const ar = await details(phone.slug, "ar");
    expect(ar.options!.map((o) => o.name)).toEqual(["اللون", "السعة"]);
    expect(ar.variants![0].title).toBe("أزرق · 256 جيجابايت");
  });

  it("a product of one variant answers that one variant and no options", async () => {
    const [phone, one] = await Promise.all([createVariantProduct(), createProduct({ stock: 4 })]);
    const single = await details(one.slug);
    expect(single.options).toEqual([]);
    expect(single.variants).toHaveLength(1);
    expect(single.variants![0]).toMatchObject({ sku: single.sku, price: single.price, stock: single.stock, title: "" });
    expect(phone.variants).toHaveLength(4);
  });
});

describe("a search that names a variant", () => {
  it("gives the card the values its words told apart, in stock first, in either language and digits", async () => {
    const phone = await createVariantProduct();
    const one = await createProduct({ price: 1000, stock: 1 });
    // The page's rows as a search reads them, with their variants' values.
    const { results: rows } = await env.DB.prepare(
      `SELECT p.id, ${VARIANT_VALUES} FROM products p WHERE p.id IN (?, ?) ORDER BY p.id`,
    )
      .bind(phone.id, one.id)
      .all<{ id: number; variant_values: string | null }>();
    expect(rows[1].variant_values).toBeNull();
    const summaries = rows.map((r) => ({ id: r.id }) as ProductSummary); // only the id is read
    const chosen = async (q: string) => withChosen(q, rows, summaries).map((p) => p.chosen);
    // Storage alone: the page completes the colour with what is in stock.
    expect(await chosen("test phone 512")).toEqual([{ storage: "512gb" }, undefined]);
    expect(await chosen("phone 512gb")).toEqual([{ storage: "512gb" }, undefined]);
    // Both named, even sold out: the shopper asked for it, and the page says it is sold out.
    expect(await chosen("phone blue 512")).toEqual([{ colour: "blue", storage: "512gb" }, undefined]);
    expect(await chosen("هاتف ازرق ٥١٢")).toEqual([{ colour: "blue", storage: "512gb" }, undefined]);
    expect(await chosen("أسود")).toEqual([{ colour: "black" }, undefined]);
    // Nothing of the options named, or a word every variant shares: no choice.
    expect(await chosen("test phone")).toEqual([undefined, undefined]);
    expect(await chosen("GB")).toEqual([undefined, undefined]);
    // What the choice sells for: the named variants' cheapest in stock, their stock, whether prices differ.
    const offer = (q: string) => withChosen(q, rows, summaries)[0].chosen_offer;
    expect(offer("phone 512")).toEqual({ price: 479900, compare_at_price: null, stock: 2, varies: false });
    expect(offer("phone blue 512")).toEqual({ price: 479900, compare_at_price: null, stock: 0, varies: false });
    expect(offer("أسود")).toEqual({ price: 399900, compare_at_price: null, stock: 5, varies: true });
    expect(withChosen("test phone", rows, summaries)[0].chosen_offer).toBeUndefined();
  });
});

describe("cart lines are variants", () => {
  it("a product of several needs a choice; each variant is its own line at its own price, bounded by its own stock", async () => {
    const [shopper, arabic] = await Promise.all([newUser(), newUser("ar")]);
    const phone = await createVariantProduct();
    const [blue256, blue512, , black512] = phone.variants;
    const unchosen = await call(shopper, "POST", "/cart/add-product", { product_id: phone.id, quantity: 1 });
    expect(unchosen.status).toBe(422);
    expect(unchosen.body.errors?.variant_id[0]).toBe("Choose the options you want first.");
    const unchosenAr = await call(arabic, "POST", "/cart/add-product", { product_id: phone.id, quantity: 1 });
    expect(unchosenAr.body.errors?.variant_id[0]).toBe("اختر الخيارات التي تريدها أولًا.");
    const soldOut = await call(shopper, "POST", "/cart/add-product", {
      product_id: phone.id,
      variant_id: blue512.id,
      quantity: 1,
    });
    expect(soldOut.status).toBe(422);
    // A variant of another product is not this product's.
    const other = await createVariantProduct();
    const mismatched = await call(shopper, "POST", "/cart/add-product", {
      product_id: phone.id,
      variant_id: other.variants[0].id,
      quantity: 1,
    });
    expect(mismatched.status).toBe(422);
    for (const [variant, quantity] of [
      [blue256, 2],
      [black512, 1],
    ] as const)
      expect(
        (await call(shopper, "POST", "/cart/add-product", { product_id: phone.id, variant_id: variant.id, quantity }))
          .status,
      ).toBe(200);
    const cart = (await call<Cart>(shopper, "GET", "/cart")).body.data;
    expect(
      cart.products.map((l) => [l.variant_id, l.variant, l.quantity, l.product.price, l.product.sku, l.line_total]),
    ).toEqual([
      [blue256.id, "Blue · 256 GB", 2, 399900, blue256.sku, 799800],
      [black512.id, "Black · 512 GB", 1, 479900, black512.sku, 479900],
    ]);
    expect(cart.subtotal).toBe(1279700);
    // Black 512 GB has two: a third is refused with what is left.
    const over = await call(shopper, "POST", "/cart/update-quantity", {
      product_id: phone.id,
      variant_id: black512.id,
      quantity: 3,
    });
    expect(over.status).toBe(422);
    expect(over.body.message).toMatch(/2/);
    // Removing one variant's line leaves the other.
    const removed = await call<Cart>(shopper, "POST", "/cart/remove-product", {
      productId: phone.id,
      variantId: black512.id,
    });
    expect(removed.body.data.products.map((l) => l.variant_id)).toEqual([blue256.id]);
  });

  it("a product of one variant is added, changed and removed by its product id alone, as the spec's calls do", async () => {
    const shopper = await newUser();
    const single = await details((await createProduct()).slug);
    expect((await call(shopper, "POST", "/cart/add-product", { product_id: single.id, quantity: 1 })).status).toBe(200);
    expect((await call(shopper, "POST", "/cart/update-quantity", { product_id: single.id, quantity: 2 })).status).toBe(
      200,
    );
    const cart = (await call<Cart>(shopper, "GET", "/cart")).body.data;
    expect(cart.products).toMatchObject([
      { product_id: single.id, variant_id: single.variants![0].id, quantity: 2, variant: null },
    ]);
    const removed = await call<Cart>(shopper, "POST", "/cart/remove-product", { productId: single.id });
    expect(removed.body.data.products).toEqual([]);
  });
});

describe("an order of two variants of one product", { timeout: 30_000 }, () => {
  it("holds each variant's stock, names the variants on its lines and documents, returns one and restocks that one", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const phone = await createVariantProduct();
    const [blue256, , black256] = phone.variants;
    for (const variant of [blue256, black256])
      expect(
        (
          await call(shopper, "POST", "/cart/add-product", {
            product_id: phone.id,
            variant_id: variant.id,
            quantity: 1,
          })
        ).status,
      ).toBe(200);
    const number = await checkout(shopper);
    expect([await variantStock(blue256.id), await variantStock(black256.id)]).toEqual([4, 2]);
    expect((await productRow(phone.id))!.stock).toBe(8);
    const moves = await env.DB.prepare(
      "SELECT s.variant_id, s.quantity FROM stock_moves s JOIN orders o ON o.id = s.order_id WHERE o.number = ? ORDER BY s.id",
    )
      .bind(number)
      .all();
    expect(moves.results).toEqual([
      { variant_id: blue256.id, quantity: -1 },
      { variant_id: black256.id, quantity: -1 },
    ]);
    await payOrder(shopper, number);
    const order = (await call<Order>(shopper, "GET", `/orders/${number}`)).body.data;
    expect(order.items.map((i) => [i.name, i.variant, i.sku, i.variant_id])).toEqual([
      ["Test phone, Blue, 256 GB", "Blue · 256 GB", blue256.sku, blue256.id],
      ["Test phone, Black, 256 GB", "Black · 256 GB", black256.sku, black256.id],
    ]);
    const arabic = await env.DB.prepare(
      "SELECT oi.name_ar FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.number = ? ORDER BY oi.id",
    )
      .bind(number)
      .all<{ name_ar: string }>();
    expect(arabic.results.map((r) => r.name_ar)).toEqual([
      "جهاز اختبار، أزرق، 256 جيجابايت",
      "جهاز اختبار، أسود، 256 جيجابايت",
    ]);
    const invoice = (await call<TaxDocument>(manager, "GET", `/admin/orders/${number}/invoice`)).body.data;
    expect(invoice.lines.map((l) => l.name)).toEqual(["Test phone, Blue, 256 GB", "Test phone, Black, 256 GB"]);

    // A product-only return line is ambiguous in an order of two of its variants: it names none.
    await deliver(manager, number);
    const ambiguous = await call(shopper, "POST", `/orders/${number}/returns`, {
      items: [{ product_id: phone.id, quantity: 1, reason: "damaged" }],
    });
    expect(ambiguous.status).toBe(422);
    const requested = await call(shopper, "POST", `/orders/${number}/returns`, {
      items: [{ product_id: phone.id, variant_id: black256.id, quantity: 1, reason: "damaged" }],
    });
    expect(requested.status).toBe(201);
    const self = requested.body.data.self_service;
    expect(self.returnable).toEqual({ [blue256.id]: 1, [black256.id]: 0 });
    expect(self.returns[0].items).toMatchObject([{ variant_id: black256.id, name: "Test phone, Black, 256 GB" }]);
    const base = `/admin/orders/${number}/returns`;
    const id = self.returns[0].id as string;
    for (const step of ["approve", "receive", "refund"])
      expect((await call(manager, "POST", `${base}/${id}/${step}`)).status).toBe(200);
    // Back on the shelf: the returned variant only.
    expect([await variantStock(blue256.id), await variantStock(black256.id)]).toEqual([4, 3]);
    const detail = (await call<ConsoleOrder>(manager, "GET", `/admin/orders/${number}`)).body.data;
    const note = detail.documents.credit_notes.at(-1)!;
    const credit = (await call<TaxDocument>(manager, "GET", `/admin/orders/${number}/credit-notes/${note.id}`)).body
      .data;
    expect(credit.lines.map((l) => l.name)).toEqual(["Test phone, Black, 256 GB"]);

    // The ledger reads per variant: the sale and the return of black 256 GB, with its balances.
    const ledger = await call<InventoryAdjustment[]>(
      manager,
      "GET",
      `/admin/inventory/adjustments?product_id=${phone.id}`,
    );
    const black = ledger.body.data.filter((l) => l.variant_id === black256.id);
    expect(black.map((l) => [l.reason, l.delta, l.stock_after, l.sku, l.name_en])).toEqual(
      expect.arrayContaining([
        ["sale", -1, 2, black256.sku, "Test phone, Black, 256 GB"],
        ["returned", 1, 3, black256.sku, "Test phone, Black, 256 GB"],
      ]),
    );

    // A console adjustment of one variant moves that variant and reads in its ledger.
    const adjusted = await call<InventoryAdjustment>(manager, "POST", "/admin/inventory/adjustments", {
      product_id: phone.id,
      variant_id: blue256.id,
      reason: "received",
      delta: 6,
    });
    expect(adjusted.status).toBe(201);
    expect(adjusted.body.data).toMatchObject({ variant_id: blue256.id, stock_after: 10, sku: blue256.sku });
    const unchosen = await call(manager, "POST", "/admin/inventory/adjustments", {
      product_id: phone.id,
      reason: "received",
      delta: 1,
    });
    expect(unchosen.status).toBe(422);
  });

  it("an unpaid order's hold goes back to its variants when it is cancelled, and order again restores the lines", async () => {
    const shopper = await newUser();
    const phone = await createVariantProduct();
    const [, , black256, black512] = phone.variants;
    for (const [variant, quantity] of [
      [black256, 1],
      [black512, 2],
    ] as const)
      await call(shopper, "POST", "/cart/add-product", { product_id: phone.id, variant_id: variant.id, quantity });
    const number = await checkout(shopper);
    expect([await variantStock(black256.id), await variantStock(black512.id)]).toEqual([2, 0]);
    expect((await call(shopper, "POST", `/orders/${number}/cancel`)).status).toBe(200);
    expect([await variantStock(black256.id), await variantStock(black512.id)]).toEqual([3, 2]);
    const orderId = await env.DB.prepare("SELECT id FROM orders WHERE number = ?").bind(number).first<number>("id");
    const owner = { userId: shopper.userId!, guestId: null };
    await reorderIntoCart(env.DB, owner, orderId!, "en");
    const cart = await loadCart(env.DB, owner, "en");
    expect(cart.products.map((l) => [l.variant_id, l.quantity])).toEqual([
      [black256.id, 1],
      [black512.id, 2],
    ]);
  });
});

describe("migration 0040 on a database made and used before variants", () => {
  it("gives each product one variant and keeps every order, line, return, refund, invoice, cart and ledger line", async () => {
    // A second, empty database of this file's own (the main one already has every migration).
    const db = env.REPLICA_DB;
    await applyD1Migrations(
      db,
      env.TEST_MIGRATIONS.filter((m) => m.name < "0040"),
    );
    await db.batch(catalogueStatements().map((sql) => db.prepare(sql)));
    const products = (
      await db.prepare("SELECT id, sku, price, stock FROM products ORDER BY id LIMIT 2").all<{
        id: number;
        sku: string;
        price: number;
        stock: number;
      }>()
    ).results;
    const [a, b] = products;
    const orderSql = `INSERT INTO orders (id, number, email, status, subtotal, discount, shipping, total, refunded, address,
      shipping_method, payment_method, idempotency_key, paid_at, delivered_at)
      VALUES (?, ?, 'old@example.com', 'delivered', ?, 0, 2500, ?, ?, '{"city":"Riyadh"}', 'standard', 'card', ?, '2026-01-01', '2026-01-03')`;
    await db.batch([
      db.prepare(orderSql).bind(1, "SQ-OLD00001", a.price * 2 + b.price, a.price * 2 + b.price + 2500, a.price, "k1"),
      db
        .prepare(
          `INSERT INTO order_items (id, order_id, product_id, slug, name_en, name_ar, quantity, unit_price, line_total, net_total,
             claimed_quantity, claimed_amount)
           VALUES (1, 1, ?1, 'a', 'Old A', 'قديم أ', 2, ?2, ?2 * 2, ?2 * 2, 1, ?2), (2, 1, ?3, 'b', 'Old B', 'قديم ب', 1, ?4, ?4, ?4, 0, 0)`,
        )
        .bind(a.id, a.price, b.id, b.price),
      db
        .prepare(
          "INSERT INTO stock_moves (order_id, product_id, quantity, applied) VALUES (1, ?1, -2, 1), (1, ?2, -1, 1), (1, 0, 0, 0 + 1)",
        )
        .bind(a.id, b.id),
      db
        .prepare(
          "INSERT INTO payments (id, order_id, provider, status, amount, currency, return_url) VALUES ('pay_old', 1, 'sandbox', 'paid', ?, 'SAR', '/en')",
        )
        .bind(a.price * 2 + b.price + 2500),
      db
        .prepare("INSERT INTO returns (id, order_id, status, amount) VALUES ('ret_old', 1, 'refunded', ?)")
        .bind(a.price),
      db
        .prepare(
          "INSERT INTO return_items (return_id, order_item_id, product_id, quantity, reason, amount, within) VALUES ('ret_old', 1, ?, 1, 'damaged', ?, 1)",
        )
        .bind(a.id, a.price),
      db
        .prepare(
          "INSERT INTO refunds (id, order_id, payment_id, amount, status) VALUES ('rfd_old', 1, 'pay_old', ?, 'succeeded')",
        )
        .bind(a.price),
      db
        .prepare(
          "INSERT INTO refund_items (refund_id, order_item_id, quantity, amount, applied) VALUES ('rfd_old', 1, 1, ?, 1)",
        )
        .bind(a.price),
      db.prepare(
        `INSERT INTO tax_documents (kind, seq, number, order_id, refund_id, subtotal, vat, total, currency)
         VALUES ('invoice', 1, 'INV-1', 1, NULL, 100, 13, 113, 'SAR'), ('credit_note', 1, 'CN-1', 1, 'rfd_old', 0, 13, 100, 'SAR')`,
      ),
      db
        .prepare(
          "INSERT INTO inventory_adjustments (product_id, delta, reason, stock_after, applied) VALUES (?, 1, 'returned', ?, 1)",
        )
        .bind(a.id, a.stock + 1),
      db.prepare("INSERT INTO carts (id, guest_id) VALUES (1, 'old-guest')"),
      db.prepare("INSERT INTO cart_items (cart_id, product_id, quantity) VALUES (1, ?, 1), (1, ?, 2)").bind(a.id, b.id),
    ]);
    const tables = [
      "orders",
      "order_items",
      "return_items",
      "refund_items",
      "returns",
      "refunds",
      "tax_documents",
      "payments",
    ];
    const snapshot = async () => {
      const columns = {
        order_items:
          "id, order_id, product_id, slug, name_en, name_ar, image, quantity, unit_price, line_total, net_total, claimed_quantity, claimed_amount",
        stock_moves: "id, order_id, product_id, quantity, applied",
        inventory_adjustments: "id, product_id, delta, reason, stock_after",
        cart_items: "cart_id, product_id, quantity, added_at",
        products: "id, sku, price, compare_at_price, stock, max_per_order",
        // Later migrations add columns of their own (a payment's method); what was there stays.
        payments: "id, order_id, provider, status, amount, currency, provider_ref, three_ds, return_url, message",
      } as Record<string, string>;
      const all = [...tables, "stock_moves", "inventory_adjustments", "cart_items", "products"];
      const read = await db.batch(all.map((t) => db.prepare(`SELECT ${columns[t] ?? "*"} FROM ${t} ORDER BY 1, 2`)));
      return Object.fromEntries(all.map((t, i) => [t, read[i].results]));
    };
    const before = await snapshot();
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    const after = await snapshot();
    // Cash on delivery's migration, the delivery promise's and e-invoicing's add columns of their
    // own to orders and tax documents, with their defaults; what was there stays.
    for (const row of after.orders as Record<string, unknown>[]) {
      expect(row).toMatchObject({
        cod_fee: 0,
        refund_iban: null,
        refund_iban_name: null,
        promised_by: null,
        buyer_company: null,
        buyer_vat_number: null,
      });
      for (const key of [
        "cod_fee",
        "refund_iban",
        "refund_iban_name",
        "promised_by",
        "buyer_company",
        "buyer_vat_number",
      ])
        delete row[key];
    }
    for (const row of (after.tax_documents ?? []) as Record<string, unknown>[]) {
      expect(row).toMatchObject({ transaction_type: "simplified", reason: null });
      delete row.transaction_type;
      delete row.reason;
    }
    expect(after).toEqual(before);

    // Every product has its one variant, under its own id, with its SKU, price and stock.
    const variants = await db
      .prepare("SELECT id, product_id, sku, price, stock FROM product_variants ORDER BY id")
      .all();
    const all = await db.prepare("SELECT id, sku, price, stock FROM products ORDER BY id").all<{ id: number }>();
    expect(variants.results).toEqual(all.results.map((p) => ({ ...p, product_id: p.id })));
    // Old lines point at those variants; the ledger's lines too (not the guard row).
    expect((await db.prepare("SELECT product_id, variant_id, sku FROM order_items ORDER BY id").all()).results).toEqual(
      [
        { product_id: a.id, variant_id: a.id, sku: a.sku },
        { product_id: b.id, variant_id: b.id, sku: b.sku },
      ],
    );
    expect((await db.prepare("SELECT variant_id FROM stock_moves ORDER BY id").all()).results).toEqual([
      { variant_id: a.id },
      { variant_id: b.id },
      { variant_id: null },
    ]);
    expect(await db.prepare("SELECT variant_id FROM inventory_adjustments").first("variant_id")).toBe(a.id);

    // The new code reads the old cart, and two variants of one product may now share an order.
    const cart = await loadCart(db, { userId: null, guestId: "old-guest" }, "en");
    expect(cart.products.map((l) => [l.product_id, l.variant_id, l.quantity])).toEqual([
      [a.id, a.id, 1],
      [b.id, b.id, 2],
    ]);
    const extra = await db
      .prepare(
        "INSERT INTO product_variants (product_id, sku, price, stock) VALUES (?, 'OLD-A-2', 100, 1) RETURNING id",
      )
      .bind(a.id)
      .first<number>("id");
    await db
      .prepare(
        `INSERT INTO order_items (order_id, product_id, variant_id, slug, name_en, name_ar, quantity, unit_price, line_total)
         VALUES (1, ?, ?, 'a', 'Old A, second', 'قديم أ', 1, 100, 100)`,
      )
      .bind(a.id, extra)
      .run();
    // Old return and refund lines still count against their order lines: more than bought is refused.
    await expect(db.prepare("UPDATE order_items SET claimed_quantity = 3 WHERE id = 1").run()).rejects.toThrow(/CHECK/);
  });
});
