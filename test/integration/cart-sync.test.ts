import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CartSynced } from "../../contract/cart";
import { LIMITS } from "../../contract/limits";
import { call, createProduct, createVariantProduct, newGuest, newUser } from "../support/commerce";
import { awayFromMinuteEdge, COUNTING_TIMEOUT } from "../support/accounts";

// POST /cart/sync: what a browser changed offline, replayed when it is back (app/lib/offline-cart).

const setStock = (productId: number, stock: number) =>
  env.DB.prepare("UPDATE product_variants SET stock = ? WHERE product_id = ?").bind(stock, productId).run();

describe("offline cart sync", () => {
  it("sets each line's quantity in order, so the same replay sent twice leaves the same cart", async () => {
    const guest = await newGuest();
    const kept = await createProduct({ price: 5000, stock: 10, maxPerOrder: 5 });
    const added = await createProduct({ price: 7000, stock: 10, maxPerOrder: 5 });
    const removed = await createProduct({ price: 9000, stock: 10, maxPerOrder: 5 });
    await call(guest, "POST", "/cart/add-product", { product_id: kept.id, quantity: 1 });
    await call(guest, "POST", "/cart/add-product", { product_id: removed.id, quantity: 2 });
    const lines = [
      { product_id: kept.id, quantity: 3 },
      { product_id: added.id, quantity: 2 },
      { product_id: removed.id, quantity: 0 },
    ];
    const first = await call<CartSynced>(guest, "POST", "/cart/sync", { lines });
    expect(first.status).toBe(200);
    const quantities = (synced: CartSynced) => synced.cart.products.map((l) => [l.product_id, l.quantity]);
    expect(quantities(first.body.data)).toEqual([
      [kept.id, 3],
      [added.id, 2],
    ]);
    expect(first.body.data.outcomes.map((o) => [o.product_id, o.status, o.quantity])).toEqual([
      [kept.id, "applied", 3],
      [added.id, "applied", 2],
      [removed.id, "removed", 0],
    ]);
    expect(first.body.data.cart).toMatchObject({ total_quantity: 5, subtotal: 3 * 5000 + 2 * 7000 });

    const again = await call<CartSynced>(guest, "POST", "/cart/sync", { lines });
    expect(again.status).toBe(200);
    expect(quantities(again.body.data)).toEqual(quantities(first.body.data));
    const read = await call(guest, "GET", "/cart");
    expect(read.body.data.total_quantity).toBe(5);
  });

  it("clamps a line to what is left, leaves out what sold out or is no longer sold, and says which", async () => {
    const user = await newUser("ar");
    const few = await createProduct({ stock: 2, maxPerOrder: 5 });
    const limited = await createProduct({ stock: 50, maxPerOrder: 3 });
    const soldOut = await createProduct({ stock: 4, maxPerOrder: 5 });
    const gone = await createProduct({ stock: 4, maxPerOrder: 5 });
    // Already in the cart before the browser went offline: a sold-out line keeps its quantity.
    await call(user, "POST", "/cart/add-product", { product_id: soldOut.id, quantity: 1 });
    await setStock(soldOut.id, 0);
    await env.DB.prepare("UPDATE products SET active = 0 WHERE id = ?").bind(gone.id).run();
    const synced = await call<CartSynced>(user, "POST", "/cart/sync", {
      lines: [
        { product_id: few.id, quantity: 4 },
        { product_id: limited.id, quantity: 5 },
        { product_id: soldOut.id, quantity: 3 },
        { product_id: gone.id, quantity: 1 },
        { product_id: 99_999_999, quantity: 1 },
      ],
    });
    expect(synced.status).toBe(200);
    expect(synced.body.data.outcomes.map((o) => [o.status, o.requested, o.quantity])).toEqual([
      ["reduced", 4, 2],
      ["reduced", 5, 3],
      ["sold_out", 3, 1],
      ["unavailable", 1, 0],
      ["unavailable", 1, 0],
    ]);
    const lines = synced.body.data.cart.products.map((l) => [l.product_id, l.quantity, l.product.stock]);
    expect(lines).toEqual([
      [soldOut.id, 1, 0],
      [few.id, 2, 2],
      [limited.id, 3, 50],
    ]);
    // The sold-out line is still marked as one the shopper must change before checking out.
    expect(synced.body.data.cart.invalid).toEqual([synced.body.data.cart.products[0].variant_id]);
  });

  it("names the variant a line of a product of several means", async () => {
    const guest = await newGuest();
    const phone = await createVariantProduct();
    const [blue256, blue512, black256] = phone.variants;
    const synced = await call<CartSynced>(guest, "POST", "/cart/sync", {
      lines: [
        { product_id: phone.id, variant_id: black256.id, quantity: 2 },
        { product_id: phone.id, variant_id: blue512.id, quantity: 1 },
        { product_id: phone.id, quantity: 1 },
      ],
    });
    expect(synced.status).toBe(200);
    expect(synced.body.data.outcomes.map((o) => [o.variant_id, o.status])).toEqual([
      [black256.id, "applied"],
      [blue512.id, "sold_out"],
      // Without a choice a product of several variants sells nothing.
      [null, "unavailable"],
    ]);
    expect(synced.body.data.cart.products.map((l) => [l.variant_id, l.quantity])).toEqual([[black256.id, 2]]);
    expect(blue256.id).not.toBe(black256.id);
  });

  it("refuses a malformed replay with 422 field errors in the shopper's language, writing nothing", async () => {
    const guest = await newGuest("ar");
    const product = await createProduct();
    for (const body of [
      {},
      { lines: [] },
      { lines: "all" },
      {
        lines: [
          { product_id: product.id, quantity: 1 },
          { product_id: product.id, quantity: -1 },
        ],
      },
      { lines: [{ product_id: product.id, quantity: LIMITS.quantity + 1 }] },
      { lines: Array.from({ length: LIMITS.cartSyncLines + 1 }, () => ({ product_id: product.id, quantity: 1 })) },
    ]) {
      const refused = await call(guest, "POST", "/cart/sync", body);
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(Object.keys(refused.body.errors ?? {}).length).toBeGreaterThan(0);
      expect(refused.body.message).toMatch(/[\u0600-\u06ff]/);
    }
    const read = await call(guest, "GET", "/cart");
    expect(read.body.data.products).toEqual([]);
  });

  it("answers 401 to a caller the shop does not know", async () => {
    const product = await createProduct();
    const stranger = { headers: { "guest-id": crypto.randomUUID(), "content-language": "en" } };
    const refused = await call(stranger, "POST", "/cart/sync", { lines: [{ product_id: product.id, quantity: 1 }] });
    expect(refused.status).toBe(401);
  });

  it(
    "is counted per cart: a script rewriting one cart in a loop is refused with 429",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      const guest = await newGuest();
      const product = await createProduct();
      await awayFromMinuteEdge();
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) {
        const res = await call(guest, "POST", "/cart/sync", { lines: [{ product_id: product.id, quantity: 1 }] });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
      expect(statuses[20]).toBe(429);
    },
  );
});
