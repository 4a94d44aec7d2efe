import { createStore } from "jotai";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import en from "../../locales/en.json";
import { addProductToCart, type CartContext } from "../../app/lib/cart";
import { registerMessages } from "../../app/lib/i18n";
import { cartListAtom } from "../../app/state/cart";
import { productSummary } from "../support/product-summary";

// Spec §4 (docs/SPEC.md row 48): after a successful add the cart is reloaded from GET /cart, so what
// the shopper sees is the backend's cart and not the add's own answer.

const g = globalThis as unknown as { window?: { sessionStorage: Storage } };

function line(productId: number, quantity: number) {
  return {
    product_id: productId,
    quantity,
    line_total: 1000 * quantity,
    product: productSummary(productId, 1000),
  };
}

function cart(lines: ReturnType<typeof line>[]) {
  const subtotal = lines.reduce((sum, l) => sum + l.line_total, 0);
  return {
    data: {
      products: lines,
      total_quantity: lines.reduce((sum, l) => sum + l.quantity, 0),
      subtotal,
      discount: 0,
      total: subtotal,
      currency: "SAR",
    },
  };
}

beforeAll(() => registerMessages("en", en));
beforeEach(() => {
  const items = new Map<string, string>([["guestId", "0b6c3f3e-1111-4222-8333-444455556666"]]);
  g.window = {
    sessionStorage: {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    } as Storage,
  };
});
afterEach(() => {
  vi.restoreAllMocks();
  delete g.window;
});

describe("adding to the cart", () => {
  it("§4 row 48: after a successful add the cart is reloaded with GET /cart, whose answer is what the store holds", async () => {
    const calls: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = String(input);
      calls.push(`${init?.method ?? "GET"} ${url}`);
      // The add's own answer holds one line; the cart the backend then reports holds two (another
      // tab added one meanwhile): only a reload can show the second.
      if (url === "/api/cart/add-product") return Response.json(cart([line(7, 1)]));
      if (url === "/backend/cart") return Response.json(cart([line(7, 1), line(9, 2)]));
      return Response.json({ message: "unexpected" }, { status: 500 });
    });
    const store = createStore();
    const ctx: CartContext = { store, locale: "en", navigate: () => {}, pathname: () => "/en/products" };

    expect(await addProductToCart(ctx, { product_id: 7 }, 1)).toEqual({ ok: true });
    expect(calls).toEqual(["POST /api/cart/add-product", "GET /backend/cart"]);
    expect(store.get(cartListAtom).products.map((p) => [p.product_id, p.quantity])).toEqual([
      [7, 1],
      [9, 2],
    ]);
  });

  it("§4: a refused add does not reload the cart", async () => {
    const calls: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      calls.push(`${init?.method ?? "GET"} ${String(input)}`);
      return Response.json({ message: "Too many", errors: { quantity: ["Too many"] } }, { status: 422 });
    });
    const ctx: CartContext = { store: createStore(), locale: "en", navigate: () => {}, pathname: () => "/en" };
    expect((await addProductToCart(ctx, { product_id: 7 }, 99)).ok).toBe(false);
    expect(calls).toEqual(["POST /api/cart/add-product"]);
  });
});
