import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, checkoutWith, createProduct, newGuest, newUser, stockOf, type Shopper } from "../support/commerce";

async function placeOrder(shopper: Shopper, opts: { stock?: number; quantity?: number } = {}) {
  const product = await createProduct({ stock: opts.stock ?? 10 });
  const placed = await checkoutWith(shopper, product.id, opts.quantity ?? 1);
  expect(placed.status).toBe(201);
  return { product, number: placed.body.data.number as string };
}

describe("orders", () => {
  it("a signed-in visitor lists their own orders, newest first, with their states", async () => {
    const user = await newUser();
    const first = await placeOrder(user);
    const second = await placeOrder(user);
    await placeOrder(await newUser());
    const list = await call(user, "GET", "/orders");
    expect(list.status).toBe(200);
    expect(list.body.data.map((o: { number: string }) => o.number)).toEqual([second.number, first.number]);
    expect(list.body.data[0]).toMatchObject({
      status: "pending_payment",
      payment_status: "unpaid",
      items: [expect.objectContaining({ quantity: 1 })],
    });
  });

  it("the order list needs a signed-in visitor", async () => {
    expect((await call(await newGuest(), "GET", "/orders")).status).toBe(401);
    expect((await call(null, "GET", "/orders")).status).toBe(401);
  });

  it("an order is shown to the guest or user who placed it and to no one else", async () => {
    const guest = await newGuest();
    const user = await newUser();
    const guestOrder = await placeOrder(guest);
    const userOrder = await placeOrder(user);
    expect((await call(guest, "GET", `/orders/${guestOrder.number}`)).body.data.number).toBe(guestOrder.number);
    expect((await call(user, "GET", `/orders/${userOrder.number}`)).body.data.number).toBe(userOrder.number);

    const strangers = [await newGuest(), await newUser()];
    for (const stranger of strangers) {
      for (const number of [guestOrder.number, userOrder.number]) {
        const answer = await call(stranger, "GET", `/orders/${number}`);
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ message: "Order not found." });
      }
    }
    expect((await call(user, "GET", `/orders/${guestOrder.number}`)).status).toBe(404);
    expect((await call(guest, "GET", `/orders/SQ-NOTREAL1`)).status).toBe(404);
    expect(
      (await call({ headers: { "guest-id": crypto.randomUUID() } }, "GET", `/orders/${guestOrder.number}`)).status,
    ).toBe(401);
  });

  it("track-order finds an order by number and email or phone, without the address details", async () => {
    const guest = await newGuest();
    const { number } = await placeOrder(guest);
    const byEmail = await call(null, "POST", "/orders/track", { number, contact: guest.email.toUpperCase() });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data).toMatchObject({ number, status: "pending_payment" });
    expect(byEmail.body.data.address).toEqual({ city: "Riyadh" });
    const byPhone = await call(null, "POST", "/orders/track", {
      number: number.toLowerCase(),
      contact: "+966 51 234 5678",
    });
    expect(byPhone.status).toBe(200);
    expect((await call(null, "POST", "/orders/track", { number, contact: "00966512345678" })).status).toBe(200);
  });

  it("track-order answers the same 422 on the pair (field `order`) for an unknown number and for a wrong contact, never a 404 (§8 sends 404s to /error)", async () => {
    const guest = await newGuest();
    const { number } = await placeOrder(guest);
    const wrongContact = await call(null, "POST", "/orders/track", { number, contact: "someone@else.example" });
    const wrongPhone = await call(null, "POST", "/orders/track", { number, contact: "+966500000000" });
    const unknown = await call(null, "POST", "/orders/track", { number: "SQ-ZZZZZZZZ", contact: guest.email });
    for (const answer of [wrongContact, wrongPhone, unknown]) {
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({
        message: "No order matches this number and contact.",
        errors: { order: ["No order matches this number and contact."] },
      });
    }
    const arabic = await call({ headers: { "content-language": "ar" } }, "POST", "/orders/track", {
      number,
      contact: "x@y.example",
    });
    expect(arabic.body.message).toBe("لا يوجد طلب يطابق هذا الرقم وبيانات التواصل.");
    const malformed = await call(null, "POST", "/orders/track", { number: "12345", contact: "" });
    expect(malformed.status).toBe(422);
    expect(Object.keys(malformed.body.errors ?? {}).sort()).toEqual(["contact", "number"]);
  });

  it("an unpaid order whose reservation ran out is cancelled and its stock released", async () => {
    const guest = await newGuest();
    const { product, number } = await placeOrder(guest, { stock: 4, quantity: 3 });
    expect(await stockOf(product.id)).toBe(1);
    await env.DB.prepare("UPDATE orders SET reserved_until = '2020-01-01T00:00:00.000Z' WHERE number = ?")
      .bind(number)
      .run();
    const order = await call(guest, "GET", `/orders/${number}`);
    expect(order.body.data).toMatchObject({ status: "cancelled", reserved_until: null });
    expect(await stockOf(product.id)).toBe(4);
    // Reading again releases nothing more.
    await call(guest, "GET", `/orders/${number}`);
    expect(await stockOf(product.id)).toBe(4);
    const pay = await call(guest, "POST", `/payments/${number}/start`, { return_url: "/en/payment-status" });
    expect(pay.status).toBe(409);
    expect(pay.body.message).toBe(
      "This order was cancelled because it was not paid in time. Place it again from your cart.",
    );
  });

  it("stock held by an expired order is back in time for the next shopper's add", async () => {
    const holder = await newGuest();
    const { product, number } = await placeOrder(holder, { stock: 2, quantity: 2 });
    expect(await stockOf(product.id)).toBe(0);
    await env.DB.prepare("UPDATE orders SET reserved_until = '2020-01-01T00:00:00.000Z' WHERE number = ?")
      .bind(number)
      .run();
    const added = await call(await newGuest(), "POST", "/cart/add-product", { product_id: product.id, quantity: 2 });
    expect(added.status).toBe(200);
    expect(await stockOf(product.id)).toBe(2);
    expect((await call(holder, "GET", `/orders/${number}`)).body.data.status).toBe("cancelled");
  });
});
