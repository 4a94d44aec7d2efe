import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { mergeGuestCart } from "../../worker/backend/services/orders/cart";
import { call, createProduct, newGuest, newUser } from "../support/commerce";

describe("cart", () => {
  it("a guest adds a product and sees the line, the quantities and the totals", async () => {
    const guest = await newGuest();
    const product = await createProduct({ price: 12345, stock: 10, maxPerOrder: 5 });
    const add = await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 2 });
    expect(add.status).toBe(200);
    expect(add.body.data.products).toHaveLength(1);
    expect(add.body.data.products[0]).toMatchObject({ product_id: product.id, quantity: 2, line_total: 24690 });
    expect(add.body.data.products[0].product).toMatchObject({
      id: product.id,
      slug: product.slug,
      price: 12345,
      currency: "SAR",
      in_stock: true,
      max_per_order: 5,
    });
    expect(add.body.data).toMatchObject({
      total_quantity: 2,
      subtotal: 24690,
      discount: 0,
      total: 24690,
      currency: "SAR",
      promo: null,
      invalid: [],
    });

    const again = await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    expect(again.body.data.products[0].quantity).toBe(3);
    const read = await call(guest, "GET", "/cart");
    expect(read.body.data.total_quantity).toBe(3);
  });

  it("product names come back in the content-language", async () => {
    const guest = await newGuest("ar");
    const product = await createProduct();
    const add = await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    expect(add.body.data.products[0].product.name).toBe("جهاز اختبار");
    expect(add.body.data.products[0].product.category.name).toBe("أجهزة اختبار");
  });

  it("an add past the per-order maximum is refused with 422 on quantity, in the shopper's language", async () => {
    const product = await createProduct({ stock: 50, maxPerOrder: 3 });
    const guest = await newGuest();
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 2 });
    const refused = await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 2 });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.quantity[0]).toBe("You can order at most 3 of this product.");
    const arabic = await call(
      { headers: { ...guest.headers, "content-language": "ar" } },
      "POST",
      "/cart/add-product",
      { product_id: product.id, quantity: 2 },
    );
    expect(arabic.body.errors?.quantity[0]).toBe("يمكنك طلب 3 كحد أقصى من هذا المنتج.");
    expect((await call(guest, "GET", "/cart")).body.data.products[0].quantity).toBe(2);
  });

  it("an add past the stock is refused with 422 naming how many are left", async () => {
    const product = await createProduct({ stock: 2, maxPerOrder: 5 });
    const guest = await newGuest();
    const refused = await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 3 });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.quantity).toContain("Only 2 left in stock.");
    const out = await createProduct({ stock: 0 });
    const none = await call(guest, "POST", "/cart/add-product", { product_id: out.id, quantity: 1 });
    expect(none.body.errors?.quantity).toContain("This product is out of stock.");
  });

  it("bad input is answered 422 and an unknown product names the product field", async () => {
    const guest = await newGuest();
    expect((await call(guest, "POST", "/cart/add-product", { product_id: "x", quantity: 1 })).status).toBe(422);
    expect(
      (await call(guest, "POST", "/cart/add-product", { product_id: 1, quantity: 0 })).body.errors?.quantity,
    ).toBeDefined();
    const unknown = await call(guest, "POST", "/cart/add-product", { product_id: 99_999_999, quantity: 1 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors?.product_id).toEqual(["This product does not exist."]);
  });

  it("50 concurrent adds of quantity 1 give exactly the total the bound allows", async () => {
    const roomy = await createProduct({ stock: 500, maxPerOrder: 100 });
    const guest = await newGuest();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => call(guest, "POST", "/cart/add-product", { product_id: roomy.id, quantity: 1 })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect((await call(guest, "GET", "/cart")).body.data.products[0].quantity).toBe(50);

    const tight = await createProduct({ stock: 500, maxPerOrder: 20 });
    const other = await newGuest();
    const bounded = await Promise.all(
      Array.from({ length: 50 }, () => call(other, "POST", "/cart/add-product", { product_id: tight.id, quantity: 1 })),
    );
    expect(bounded.filter((a) => a.status === 200)).toHaveLength(20);
    expect(bounded.filter((a) => a.status === 422)).toHaveLength(30);
    expect((await call(other, "GET", "/cart")).body.data.products[0].quantity).toBe(20);
  }, 30_000);

  it("update-quantity sets the line, 0 removes it, and remove-product takes productId", async () => {
    const guest = await newGuest();
    const a = await createProduct({ price: 1000 });
    const b = await createProduct({ price: 2000 });
    await call(guest, "POST", "/cart/add-product", { product_id: a.id, quantity: 1 });
    await call(guest, "POST", "/cart/add-product", { product_id: b.id, quantity: 1 });
    const set = await call(guest, "POST", "/cart/update-quantity", { product_id: a.id, quantity: 4 });
    expect(set.body.data).toMatchObject({ total_quantity: 5, subtotal: 6000 });
    const tooMany = await call(guest, "POST", "/cart/update-quantity", { product_id: a.id, quantity: 6 });
    expect(tooMany.status).toBe(422);
    const zero = await call(guest, "POST", "/cart/update-quantity", { product_id: a.id, quantity: 0 });
    expect(zero.body.data.products.map((l: { product_id: number }) => l.product_id)).toEqual([b.id]);
    const removed = await call(guest, "POST", "/cart/remove-product", { productId: b.id });
    expect(removed.body.data).toMatchObject({ products: [], total_quantity: 0, subtotal: 0, total: 0 });
  });

  it("a line whose stock dropped below its quantity is listed as invalid", async () => {
    const guest = await newGuest();
    const product = await createProduct({ stock: 5 });
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 4 });
    await env.DB.prepare("UPDATE products SET stock = 2 WHERE id = ?").bind(product.id).run();
    expect((await call(guest, "GET", "/cart")).body.data.invalid).toEqual([product.id]);
  });

  it("one guest cannot read or change another guest's cart", async () => {
    const alice = await newGuest();
    const bob = await newGuest();
    const product = await createProduct();
    await call(alice, "POST", "/cart/add-product", { product_id: product.id, quantity: 2 });
    expect((await call(bob, "GET", "/cart")).body.data.products).toEqual([]);
    await call(bob, "POST", "/cart/remove-product", { productId: product.id });
    await call(bob, "POST", "/cart/update-quantity", { product_id: product.id, quantity: 0 });
    expect((await call(alice, "GET", "/cart")).body.data.products[0].quantity).toBe(2);
  });

  it("a guest id the shop never minted, or none at all, is answered 401", async () => {
    const forged = { headers: { "guest-id": crypto.randomUUID() } };
    expect((await call(forged, "GET", "/cart")).status).toBe(401);
    expect((await call(forged, "POST", "/cart/add-product", { product_id: 1, quantity: 1 })).status).toBe(401);
    expect((await call(null, "GET", "/cart")).status).toBe(401);
    expect(
      (await call({ headers: { authorization: "Bearer not-a-real-token-but-long-enough" } }, "GET", "/cart")).status,
    ).toBe(401);
  });

  it("a signed-in user has a cart of their own, separate from guests", async () => {
    const user = await newUser();
    const product = await createProduct();
    await call(user, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    expect((await call(user, "GET", "/cart")).body.data.total_quantity).toBe(1);
    expect((await call(await newUser(), "GET", "/cart")).body.data.total_quantity).toBe(0);
  });

  it("at login the guest's lines merge into the user's cart, summed and capped, and the guest cart is gone", async () => {
    const guest = await newGuest();
    const user = await newUser();
    const shared = await createProduct({ stock: 10, maxPerOrder: 4 });
    const guestOnly = await createProduct();
    await call(guest, "POST", "/cart/add-product", { product_id: shared.id, quantity: 3 });
    await call(guest, "POST", "/cart/add-product", { product_id: guestOnly.id, quantity: 1 });
    await call(user, "POST", "/cart/add-product", { product_id: shared.id, quantity: 2 });

    await mergeGuestCart(env.DB, guest.guestId!, user.userId!);

    const merged = (await call(user, "GET", "/cart")).body.data;
    const quantities = Object.fromEntries(
      merged.products.map((l: { product_id: number; quantity: number }) => [l.product_id, l.quantity]),
    );
    expect(quantities).toEqual({ [shared.id]: 4, [guestOnly.id]: 1 });
    expect((await call(guest, "GET", "/cart")).body.data.products).toEqual([]);
    // Merging again (a second login) changes nothing.
    await mergeGuestCart(env.DB, guest.guestId!, user.userId!);
    expect((await call(user, "GET", "/cart")).body.data.total_quantity).toBe(5);
  });

  it("orders a guest placed become the user's at login, and no one else's", async () => {
    const guest = await newGuest();
    const user = await newUser();
    const product = await createProduct();
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const placed = await call(guest, "POST", "/checkout", {
      idempotency_key: crypto.randomUUID(),
      email: guest.email,
      address: { name: "G", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Main" },
      shipping_method: "standard",
      payment_method: "card",
    });
    expect(placed.status).toBe(201);
    await mergeGuestCart(env.DB, guest.guestId!, user.userId!);
    const mine = await call(user, "GET", "/orders");
    expect(mine.body.data.map((o: { number: string }) => o.number)).toEqual([placed.body.data.number]);
    expect((await call(guest, "GET", `/orders/${placed.body.data.number}`)).status).toBe(200);
    // Another user signing in later with the same guest id does not take it over.
    const other = await newUser();
    await mergeGuestCart(env.DB, guest.guestId!, other.userId!);
    expect((await call(other, "GET", "/orders")).body.data).toEqual([]);
  });

  it("the own server's /api/cart/add-product proxies to the backend with the caller's identity", async () => {
    const guest = await newGuest();
    const product = await createProduct({ stock: 10, maxPerOrder: 2 });
    const proxy = (headers: Record<string, string>, body: unknown) =>
      SELF.fetch("http://shop.test/api/cart/add-product", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://shop.test", ...headers },
        body: JSON.stringify(body),
      });
    const added = await proxy(guest.headers, { productId: product.id, quantity: 2 });
    expect(added.status).toBe(200);
    const cart = (await added.json()) as { data: { total_quantity: number; products: { product_id: number }[] } };
    expect(cart.data.total_quantity).toBe(2);
    expect((await call(guest, "GET", "/cart")).body.data.products[0]).toMatchObject({
      product_id: product.id,
      quantity: 2,
    });

    const refused = await proxy(guest.headers, { productId: product.id, quantity: 1 });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: Record<string, string[]> }).errors.quantity[0]).toBe(
      "You can order at most 2 of this product.",
    );
    expect((await proxy({ "guest-id": crypto.randomUUID() }, { productId: product.id, quantity: 1 })).status).toBe(401);
    expect((await proxy(guest.headers, { productId: "x" })).status).toBe(422);

    const user = await newUser();
    expect((await proxy(user.headers, { productId: product.id })).status).toBe(200);
    expect((await call(user, "GET", "/cart")).body.data.total_quantity).toBe(1);
  });
});
