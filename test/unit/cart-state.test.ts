import { createStore } from "jotai";
import { beforeAll, describe, expect, it } from "vitest";
import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import { promoAmount, promoTemplate } from "../../app/lib/cart";
import { registerMessages } from "../../app/lib/i18n";
import {
  cartFromResponse,
  cartListAtom,
  DEFAULT_DISCOUNT_TYPE,
  EMPTY_CART,
  IDLE_PROMO,
  invalidPromo,
  maxQuantityOf,
  productsFlag,
  totalQuantity,
  totalQuantityAtom,
  validPromo,
  withInvalid,
  withLineQuantity,
  withoutInvalid,
  type CartList,
} from "../../app/state/cart";
import { productSummary as product } from "../support/product-summary";

beforeAll(() => {
  registerMessages("en", en);
  registerMessages("ar", ar);
});

const cart: CartList = cartFromResponse({
  products: [
    { product_id: 1, quantity: 2, product: product(1, 10000), line_total: 20000 },
    { product_id: 2, quantity: 3, product: product(2, 5000), line_total: 15000 },
  ],
  subtotal: 35000,
  discount: 0,
  total: 35000,
  currency: "SAR",
  promo: null,
  invalid: [],
});

describe("cart state", () => {
  it("total_quantity is the sum of the lines' quantities", () => {
    expect(totalQuantity(cart)).toBe(5);
    expect(totalQuantity(EMPTY_CART)).toBe(0);
  });

  it("the derived total_quantity atom follows the cart list", () => {
    const store = createStore();
    expect(store.get(totalQuantityAtom)).toBe(0);
    store.set(cartListAtom, cart);
    expect(store.get(totalQuantityAtom)).toBe(5);
    store.set(cartListAtom, withLineQuantity(cart, { product_id: 2 }, 7));
    expect(store.get(totalQuantityAtom)).toBe(9);
  });

  it("session storage's products flag is true while the cart holds a product", () => {
    expect(productsFlag(cart)).toBe("true");
    expect(productsFlag(EMPTY_CART)).toBe("false");
  });

  it("an optimistic quantity change moves the line total and the subtotal; quantity 0 removes the line", () => {
    const changed = withLineQuantity(cart, { product_id: 1 }, 4);
    expect(changed.products.find((l) => l.product_id === 1)).toMatchObject({ quantity: 4, line_total: 40000 });
    expect(changed.subtotal).toBe(55000);
    expect(changed.total).toBe(55000);
    const removed = withLineQuantity(cart, { product_id: 1 }, 0);
    expect(removed.products.map((l) => l.product_id)).toEqual([2]);
    expect(removed.subtotal).toBe(15000);
    // The state before the change is untouched, so a refusal can roll back to it.
    expect(cart.products[0].quantity).toBe(2);
  });

  it("a line may hold at most the lower of stock and the per-order maximum", () => {
    expect(maxQuantityOf({ product_id: 1, quantity: 1, product: product(1, 100, 3, 5) })).toBe(3);
    expect(maxQuantityOf({ product_id: 1, quantity: 1, product: product(1, 100, 30, 5) })).toBe(5);
    expect(maxQuantityOf({ product_id: 1, quantity: 1, product: product(1, 100, 0, 5) })).toBe(0);
  });

  it("a failed add records the product as having an invalid quantity, and a later success clears it", () => {
    const none = new Set<number>();
    const after = withInvalid(none, 7);
    expect(after.has(7)).toBe(true);
    expect(none.has(7)).toBe(false);
    expect(withInvalid(after, 7)).toBe(after);
    expect(withoutInvalid(after, 7).has(7)).toBe(false);
  });

  it("the backend's cart answer is read with its promo and invalid ids, and the discount type defaults to 1", () => {
    const read = cartFromResponse({
      products: [{ product_id: 3, quantity: 1 }],
      subtotal: 1000,
      discount: 100,
      total: 900,
      currency: "SAR",
      promo: { code: "WELCOME10", discount_type: 1, discount: 100, value: 10 },
      invalid: [3],
    });
    expect(read.promo).toEqual({ code: "WELCOME10", discount_type: 1, discount: 100, value: 10 });
    expect(read.invalid).toEqual([3]);
    expect(cartFromResponse(null)).toBe(EMPTY_CART);
    expect(DEFAULT_DISCOUNT_TYPE).toBe(1);
  });
});

describe("promo code state", () => {
  it("a valid percentage code stores its type and value and says 'Discount received 10% on total payment'", () => {
    const state = validPromo(
      { code: "WELCOME10", discount_type: 1, discount: 10 },
      "welcome10",
      promoAmount("en", "SAR"),
      promoTemplate("en"),
    );
    expect(state).toEqual({
      state: "valid",
      code: "WELCOME10",
      discount_type: 1,
      discount: 10,
      message: "Discount received 10% on total payment",
    });
  });

  it("a valid fixed code shows the amount as money, in Arabic with Latin digits", () => {
    const state = validPromo(
      { discount_type: 2, discount: 5000 },
      "SAVE50",
      promoAmount("ar", "SAR"),
      promoTemplate("ar"),
    );
    expect(state.discount_type).toBe(2);
    expect(state.discount).toBe(5000);
    expect(state.message).toMatch(/^تم الحصول على خصم .*50\.00.* على إجمالي الدفع$/);
  });

  it("a missing discount type falls back to 1 (percentage)", () => {
    const state = validPromo({ discount: 15 }, "X", promoAmount("en", "SAR"), promoTemplate("en"));
    expect(state.discount_type).toBe(1);
    expect(state.message).toBe("Discount received 15% on total payment");
  });

  it("an invalid code stores the server's message and resets the discount to 0", () => {
    const valid = validPromo(
      { code: "WELCOME10", discount_type: 1, discount: 10 },
      "WELCOME10",
      promoAmount("en", "SAR"),
      promoTemplate("en"),
    );
    const state = invalidPromo(valid, "OLD2020", "This promo code has expired.");
    expect(state).toMatchObject({
      state: "invalid",
      code: "OLD2020",
      discount: 0,
      message: "This promo code has expired.",
    });
    expect(invalidPromo(IDLE_PROMO, "X", "Unknown").discount).toBe(0);
  });
});
