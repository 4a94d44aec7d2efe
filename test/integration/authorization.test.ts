import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { address, call, checkoutWith, createProduct, newGuest, newUser, type Shopper } from "../support/commerce";

/**
 * The authorisation matrix: every endpoint that touches personal data, called as anonymous, as
 * another guest, as another user, and as the owner. Only the owner succeeds; everyone else is
 * refused (401/403/404) or, where the call is about "my own" resource, sees none of the owner's.
 */
type Actor = "anonymous" | "other guest" | "other user" | "owner";

interface World {
  guest: Shopper;
  user: Shopper;
  otherGuest: Shopper;
  otherUser: Shopper;
  guestOrder: string;
  userOrder: string;
  guestPayment: string;
  addressId: number;
  productId: number;
}
let w: World;

const REFUSED = [401, 403, 404];

beforeAll(async () => {
  const product = await createProduct({ stock: 100, maxPerOrder: 10, price: 25_000 });
  const [guest, user, otherGuest, otherUser] = await Promise.all([newGuest(), newUser(), newGuest(), newUser()]);
  const guestCheckout = await checkoutWith(guest, product.id, 1);
  const userCheckout = await checkoutWith(user, product.id, 1);
  expect(guestCheckout.status).toBe(201);
  expect(userCheckout.status).toBe(201);
  const guestOrder = (guestCheckout.body.data as { number: string }).number;
  const userOrder = (userCheckout.body.data as { number: string }).number;
  const start = await call<{ payment_id: string }>(guest, "POST", `/payments/${guestOrder}/start`, {
    return_url: "/en/payment-status",
  });
  expect(start.status).toBe(200);
  const saved = await call<{ id: number }>(user, "POST", "/client/addresses", { ...address, label: "Home" });
  expect(saved.status).toBe(201);
  // Both owners keep something in their carts, so "someone else's cart" has content to leak.
  await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 2 });
  await call(user, "POST", "/cart/add-product", { product_id: product.id, quantity: 3 });
  w = {
    guest,
    user,
    otherGuest,
    otherUser,
    guestOrder,
    userOrder,
    guestPayment: start.body.data.payment_id,
    addressId: saved.body.data.id,
    productId: product.id,
  };
});

function as(actor: Actor, owner: Shopper): Shopper | null {
  if (actor === "anonymous") return null;
  if (actor === "owner") return owner;
  return actor === "other guest" ? w.otherGuest : w.otherUser;
}

const ACTORS: Actor[] = ["anonymous", "other guest", "other user", "owner"];

describe("resources that belong to one visitor", () => {
  const cases: { name: string; owner: () => Shopper; method: string; path: () => string; body?: () => unknown }[] = [
    { name: "a guest's order", owner: () => w.guest, method: "GET", path: () => `/orders/${w.guestOrder}` },
    { name: "a user's order", owner: () => w.user, method: "GET", path: () => `/orders/${w.userOrder}` },
    {
      name: "starting payment of a guest's order",
      owner: () => w.guest,
      method: "POST",
      path: () => `/payments/${w.guestOrder}/start`,
      body: () => ({ return_url: "/en/payment-status" }),
    },
    {
      name: "a guest's payment status",
      owner: () => w.guest,
      method: "GET",
      path: () => `/payments/${w.guestPayment}/status`,
    },
    {
      name: "updating a user's address",
      owner: () => w.user,
      method: "PUT",
      path: () => `/client/addresses/${w.addressId}`,
      body: () => ({ ...address, city: "Jeddah" }),
    },
  ];

  for (const c of cases) {
    for (const actor of ACTORS) {
      it(`${c.name}, called as ${actor}: ${actor === "owner" ? "succeeds" : "refused"}`, async () => {
        const res = await call(as(actor, c.owner()), c.method, c.path(), c.body?.());
        if (actor === "owner") expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
        else expect(REFUSED, `${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
      });
    }
  }

  for (const actor of ["anonymous", "other guest", "other user"] as const) {
    it(`deleting a user's address as ${actor} is refused and the address stays`, async () => {
      const res = await call(as(actor, w.user), "DELETE", `/client/addresses/${w.addressId}`);
      expect(REFUSED).toContain(res.status);
      const row = await env.DB.prepare("SELECT id FROM addresses WHERE id = ?").bind(w.addressId).first();
      expect(row).not.toBeNull();
    });
  }
});

describe("calls about 'my own' data never show another visitor's", () => {
  for (const actor of ACTORS) {
    it(`the cart as ${actor}`, async () => {
      const res = await call<{ products: { product_id: number; quantity: number }[] }>(
        as(actor, w.guest),
        "GET",
        "/cart",
      );
      if (actor === "anonymous") return expect(res.status).toBe(401);
      expect(res.status).toBe(200);
      const line = res.body.data.products.find((l) => l.product_id === w.productId);
      if (actor === "owner") expect(line?.quantity).toBe(2);
      else expect(line).toBeUndefined();
    });

    it(`the orders list as ${actor}`, async () => {
      const res = await call<{ number: string }[]>(as(actor, w.user), "GET", "/orders");
      if (actor === "anonymous" || actor === "other guest") return expect(REFUSED).toContain(res.status);
      expect(res.status).toBe(200);
      const numbers = res.body.data.map((o) => o.number);
      expect(numbers.includes(w.userOrder)).toBe(actor === "owner");
      expect(numbers).not.toContain(w.guestOrder);
    });

    it(`the address book as ${actor}`, async () => {
      const res = await call<{ id: number }[]>(as(actor, w.user), "GET", "/client/addresses");
      if (actor === "anonymous" || actor === "other guest") return expect(REFUSED).toContain(res.status);
      expect(res.status).toBe(200);
      expect(res.body.data.some((a) => a.id === w.addressId)).toBe(actor === "owner");
    });

    it(`the profile as ${actor}`, async () => {
      const res = await call<{ id: number }>(as(actor, w.user), "GET", "/client/auth/profile");
      if (actor === "anonymous" || actor === "other guest") return expect(REFUSED).toContain(res.status);
      expect(res.status).toBe(200);
      expect(res.body.data.id === w.user.userId).toBe(actor === "owner");
    });

    it(`checking out with the owner's saved address as ${actor}`, async () => {
      if (actor === "anonymous") {
        const res = await call(null, "POST", "/checkout", {
          idempotency_key: crypto.randomUUID(),
          address_id: w.addressId,
          shipping_method: "standard",
          payment_method: "card",
        });
        // Refused before anything is read: by validation or for want of an identity.
        return expect([...REFUSED, 422]).toContain(res.status);
      }
      const shopper = as(actor, w.user)!;
      const res = await checkoutWith(shopper, w.productId, 1, { address: undefined, address_id: w.addressId });
      if (actor === "owner") expect(res.status, JSON.stringify(res.body)).toBe(201);
      else expect([403, 404, 422], JSON.stringify(res.body)).toContain(res.status);
    });
  }

  it("tracking an order needs its contact: the number alone finds nothing", async () => {
    const wrong = await call(null, "POST", "/orders/track", {
      number: w.guestOrder,
      contact: "someone-else@example.com",
    });
    expect(wrong.status).toBe(422);
    expect(JSON.stringify(wrong.body)).not.toContain(w.guestOrder);
    const right = await call(null, "POST", "/orders/track", { number: w.guestOrder, contact: w.guest.email });
    expect(right.status).toBe(200);
    expect(JSON.stringify(right.body)).not.toContain(address.street);
  });
});
