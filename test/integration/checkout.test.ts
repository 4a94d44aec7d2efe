import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { cartContents } from "../../worker/backend/services/orders/cart";
import { computeTotals, paymentMarks, paymentMethods, writeOrder } from "../../worker/backend/services/orders/checkout";
import { address, call, checkoutWith, createProduct, newGuest, newUser, stockOf } from "../support/commerce";
import { commerceSettings } from "../../worker/backend/services/shared/settings";

const order = (email: string, key: string = crypto.randomUUID(), extra: Record<string, unknown> = {}) => ({
  idempotency_key: key,
  email,
  address,
  shipping_method: "standard",
  payment_method: "card",
  ...extra,
});

describe("checkout", () => {
  it("places an order with a readable number, reserves the stock and empties the cart", async () => {
    const guest = await newGuest();
    const product = await createProduct({ price: 10000, stock: 7 });
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 2 });
    const placed = await call(guest, "POST", "/checkout", order(guest.email));
    expect(placed.status).toBe(201);
    expect(placed.body.data.number).toMatch(/^SQ-[2-9A-HJKMNP-Z]{8}$/);
    expect(placed.body.data).toMatchObject({
      status: "pending_payment",
      payment_status: "unpaid",
      email: guest.email,
      subtotal: 20000,
      discount: 0,
      shipping: 2500,
      total: 22500,
      vat: Math.round((22500 * 0.15) / 1.15),
      currency: "SAR",
      shipping_method: "standard",
      payment_method: "card",
      address: { city: "Riyadh", phone: "+966512345678" },
    });
    expect(placed.body.data.items).toEqual([
      expect.objectContaining({
        product_id: product.id,
        slug: product.slug,
        name: "Test gadget",
        quantity: 2,
        unit_price: 10000,
        line_total: 20000,
      }),
    ]);
    expect(placed.body.data.reserved_until).toBeTruthy();
    expect(await stockOf(product.id)).toBe(5);
    expect((await call(guest, "GET", "/cart")).body.data.products).toEqual([]);
  });

  it("a doubled submit with the same idempotency key makes one order", async () => {
    const guest = await newGuest();
    const product = await createProduct({ stock: 10 });
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const key = crypto.randomUUID();
    const [first, second] = await Promise.all([
      call(guest, "POST", "/checkout", order(guest.email, key)),
      call(guest, "POST", "/checkout", order(guest.email, key)),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    expect(first.body.data.number).toBe(second.body.data.number);
    const third = await call(guest, "POST", "/checkout", order(guest.email, key));
    expect(third.status).toBe(200);
    expect(third.body.data.number).toBe(first.body.data.number);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE guest_id = ?")
      .bind(guest.guestId)
      .first<{ n: number }>();
    expect(count!.n).toBe(1);
    expect(await stockOf(product.id)).toBe(9);
  });

  it("50 concurrent checkouts of an item with 5 in stock produce exactly 5 orders and stock 0", async () => {
    const product = await createProduct({ stock: 5, maxPerOrder: 5 });
    const guests = await Promise.all(Array.from({ length: 50 }, () => newGuest()));
    const added = await Promise.all(
      guests.map((guest) => call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 })),
    );
    expect(added.every((a) => a.status === 200)).toBe(true);
    const answers = await Promise.all(guests.map((guest) => call(guest, "POST", "/checkout", order(guest.email))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(45);
    expect(
      refused.every(
        (a) =>
          a.status === 422 &&
          a.body.errors?.quantity?.[0] === "Test gadget is no longer available in the quantity in your cart.",
      ),
    ).toBe(true);
    expect(await stockOf(product.id)).toBe(0);
    const orders = await env.DB.prepare("SELECT COUNT(*) AS n FROM order_items WHERE product_id = ?")
      .bind(product.id)
      .first<{ n: number }>();
    expect(orders!.n).toBe(5);
  }, 30_000);

  it("when one line cannot be reserved, no order exists and no stock moved", async () => {
    const guest = await newGuest();
    const plenty = await createProduct({ stock: 10 });
    const scarce = await createProduct({ stock: 3 });
    await call(guest, "POST", "/cart/add-product", { product_id: plenty.id, quantity: 2 });
    await call(guest, "POST", "/cart/add-product", { product_id: scarce.id, quantity: 3 });
    // Someone else buys the scarce item between the cart and the checkout.
    const other = await newGuest();
    expect((await checkoutWith(other, scarce.id, 1)).status).toBe(201);
    const refused = await call(guest, "POST", "/checkout", order(guest.email));
    expect(refused.status).toBe(422);
    expect(await stockOf(plenty.id)).toBe(10);
    expect(await stockOf(scarce.id)).toBe(2);
    const mine = await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE guest_id = ?")
      .bind(guest.guestId)
      .first<{ n: number }>();
    expect(mine!.n).toBe(0);
    expect((await call(guest, "GET", "/cart")).body.data.total_quantity).toBe(5);
  });

  it("the order batch rolls back entirely when a later line's conditional stock update changes no row", async () => {
    const guest = await newGuest();
    const first = await createProduct({ stock: 10 });
    const second = await createProduct({ stock: 4 });
    await call(guest, "POST", "/cart/add-product", { product_id: first.id, quantity: 2 });
    await call(guest, "POST", "/cart/add-product", { product_id: second.id, quantity: 4 });
    const owner = { userId: null, guestId: guest.guestId! };
    // The cart was read while both lines fit; the second item sells out before the batch runs.
    const contents = await cartContents(env.DB, owner, "en");
    await env.DB.prepare("UPDATE products SET stock = 1 WHERE id = ?").bind(second.id).run();
    const draft = {
      owner,
      input: order(guest.email) as Parameters<typeof writeOrder>[1]["input"],
      email: guest.email,
      address,
      contents,
      totals: computeTotals(contents.subtotal, 0, "standard", commerceSettings({})),
      vatRate: commerceSettings({}).vatRate,
      promo: null,
      reservedUntil: new Date(Date.now() + 60_000).toISOString(),
      lang: "en" as const,
    };
    await expect(writeOrder(env.DB, draft)).rejects.toMatchObject({ status: 422 });
    expect(await stockOf(first.id)).toBe(10);
    expect(await stockOf(second.id)).toBe(1);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE guest_id = ?")
      .bind(guest.guestId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
    expect((await call(guest, "GET", "/cart")).body.data.total_quantity).toBe(6);
  });

  it("an empty cart, a missing address and bad fields are answered 422", async () => {
    const guest = await newGuest();
    const empty = await call(guest, "POST", "/checkout", order(guest.email));
    expect(empty.status).toBe(422);
    expect(empty.body.errors?.cart).toEqual(["Your cart is empty."]);
    const product = await createProduct();
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const noAddress = await call(guest, "POST", "/checkout", { ...order(guest.email), address: undefined });
    expect(noAddress.body.errors?.address).toEqual(["Enter a delivery address."]);
    const bad = await call(guest, "POST", "/checkout", order("not-an-email", "k", { shipping_method: "drone" }));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors ?? {})).toEqual(
      expect.arrayContaining(["email", "idempotency_key", "shipping_method"]),
    );
    expect(
      (await call({ headers: { "guest-id": crypto.randomUUID() } }, "POST", "/checkout", order(guest.email))).status,
    ).toBe(401);
  });

  it("options list shipping and payment methods and totals with VAT as a line", async () => {
    const guest = await newGuest("ar");
    const product = await createProduct({ price: 11500 });
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const standard = await call(guest, "GET", "/checkout/options");
    expect(standard.status).toBe(200);
    expect(standard.body.data.shipping_methods.map((m: { id: string }) => m.id)).toEqual(["standard", "express"]);
    expect(standard.body.data.shipping_methods[0]).toMatchObject({ name: "التوصيل العادي", price: 2500 });
    // The method names what the payment page takes, in the reader's language, with the marks to show.
    expect(standard.body.data.payment_methods).toEqual([
      { id: "card", name: "الدفع الإلكتروني: مدى أو فيزا أو ماستركارد", marks: ["mada", "visa", "mastercard"] },
      { id: "stcpay", name: "الدفع عبر STC Pay", marks: ["stcpay"] },
      {
        id: "tabby",
        name: "قسّمها على 4 دفعات مع تابي بدون فوائد",
        marks: ["tabby"],
        instalments: { provider: "tabby", count: 4, min: 1000, max: 1_000_000 },
      },
      {
        id: "tamara",
        name: "قسّمها على 4 دفعات مع تمارا بدون فوائد",
        marks: ["tamara"],
        instalments: { provider: "tamara", count: 4, min: 10_000, max: 2_000_000 },
      },
      { id: "cod", name: "الدفع عند الاستلام", fee: 1500 },
    ]);
    expect(standard.body.data.totals).toEqual({
      subtotal: 11500,
      discount: 0,
      shipping: 2500,
      vat: 1826,
      total: 14000,
      currency: "SAR",
    });
    const express = await call(guest, "GET", "/checkout/options?shipping_method=express");
    expect(express.body.data.totals).toMatchObject({ shipping: 5000, total: 16500 });
    expect((await call(guest, "GET", "/checkout/options?shipping_method=drone")).status).toBe(422);
  });

  it("the payment page's networks and wallets follow PAYMENT_MARKS, in a fixed order, unknown words left out", () => {
    expect(paymentMarks({})).toEqual(["mada", "visa", "mastercard"]);
    expect(paymentMarks({ PAYMENT_MARKS: " ApplePay ,visa, bogus,MADA" })).toEqual(["mada", "visa", "applepay"]);
    expect(paymentMarks({ PAYMENT_MARKS: "bogus" })).toEqual(["mada", "visa", "mastercard"]);
    expect(paymentMethods("en", paymentMarks({ PAYMENT_MARKS: "visa,applepay" }))).toEqual([
      { id: "card", name: "Pay online: Visa or Apple Pay", marks: ["visa", "applepay"] },
    ]);
    expect(paymentMethods("en")[0].name).toBe("Pay online: mada, Visa, or Mastercard");
    expect(paymentMethods("ar", ["mada", "applepay"])[0].name).toBe("الدفع الإلكتروني: مدى أو Apple Pay");
  });

  it("standard shipping is free from the threshold and express is not", async () => {
    const settings = commerceSettings({});
    expect(settings).toMatchObject({ vatRate: 0.15, shippingFlat: 2500, freeShippingThreshold: 30000 });
    expect(computeTotals(29999, 0, "standard", settings).shipping).toBe(2500);
    expect(computeTotals(30000, 0, "standard", settings)).toEqual({
      subtotal: 30000,
      discount: 0,
      shipping: 0,
      vat: 3913,
      total: 30000,
      currency: "SAR",
    });
    // The threshold counts the goods after the discount.
    expect(computeTotals(32000, 3000, "standard", settings).shipping).toBe(2500);
    expect(computeTotals(40000, 0, "express", settings).shipping).toBe(5000);
    expect(computeTotals(0, 0, "standard", settings)).toMatchObject({ shipping: 0, total: 0, vat: 0 });
    // Configuration changes the rules.
    const custom = commerceSettings({ VAT_RATE: "0.05", SHIPPING_FLAT: "1000", FREE_SHIPPING_THRESHOLD: "5000" });
    expect(computeTotals(4000, 0, "standard", custom)).toMatchObject({ shipping: 1000, total: 5000, vat: 238 });
    expect(computeTotals(5000, 0, "standard", custom).shipping).toBe(0);
  });

  it("a signed-in visitor may leave the email out: the account's is used; a guest may not", async () => {
    const user = await newUser();
    const product = await createProduct();
    await call(user, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const placed = await call(user, "POST", "/checkout", { ...order(user.email), email: undefined });
    expect(placed.status).toBe(201);
    expect(placed.body.data.email).toBe(user.email);
    const guest = await newGuest("ar");
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const refused = await call(guest, "POST", "/checkout", { ...order(guest.email), email: undefined });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.email).toEqual(["أدخل بريدك الإلكتروني."]);
  });

  it("a signed-in user checks out with their own cart and the order is theirs", async () => {
    const user = await newUser();
    const product = await createProduct({ price: 40000 });
    const placed = await checkoutWith(user, product.id, 1);
    expect(placed.status).toBe(201);
    expect(placed.body.data.shipping).toBe(0);
    const row = await env.DB.prepare("SELECT user_id, guest_id FROM orders WHERE number = ?")
      .bind(placed.body.data.number)
      .first();
    expect(row).toEqual({ user_id: user.userId, guest_id: null });
  });

  it("a signed-in visitor can check out to a saved address, and only to their own", async () => {
    const user = await newUser();
    const saved = await call(user, "POST", "/client/addresses", {
      label: "Home",
      ...address,
      city: "Dammam",
      is_default: true,
    });
    expect(saved.status).toBeLessThan(300);
    const addressId = saved.body.data.id as number;
    const product = await createProduct();
    await call(user, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const placed = await call(user, "POST", "/checkout", {
      ...order(user.email),
      address: undefined,
      address_id: addressId,
    });
    expect(placed.status).toBe(201);
    expect(placed.body.data.address).toMatchObject({ city: "Dammam", name: address.name });

    const other = await newUser();
    await call(other, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const refused = await call(other, "POST", "/checkout", {
      ...order(other.email),
      address: undefined,
      address_id: addressId,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.address_id).toEqual(["Choose one of your saved addresses."]);
    const guest = await newGuest();
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    expect(
      (await call(guest, "POST", "/checkout", { ...order(guest.email), address: undefined, address_id: addressId }))
        .status,
    ).toBe(422);
  });
});
