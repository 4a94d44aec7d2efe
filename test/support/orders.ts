// Fixtures for the console's order tests: an order placed through checkout and paid with the
// sandbox's success card, through the real API and the sandbox's card page.
import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import { call, checkoutWith, createProduct, type Shopper, type TestProduct } from "./commerce";

export interface PlacedOrder {
  product: TestProduct;
  number: string;
  total: number;
}

/** An order of `quantity` of a fresh product, placed by `shopper` (not paid yet). */
export async function placeOrder(
  shopper: Shopper,
  opts: { stock?: number; quantity?: number; price?: number } = {},
): Promise<PlacedOrder> {
  const product = await createProduct({ stock: opts.stock ?? 10, price: opts.price ?? 10000 });
  const placed = await checkoutWith(shopper, product.id, opts.quantity ?? 1);
  expect(placed.status).toBe(201);
  return { product, number: placed.body.data.number as string, total: placed.body.data.total as number };
}

/** Pays an order on the sandbox card page with its success card. */
export async function payOrder(shopper: Shopper, number: string): Promise<void> {
  const started = await call<{ payment_id: string; redirect_url: string }>(
    shopper,
    "POST",
    `/payments/${number}/start`,
    {
      return_url: "/en/payment-status",
    },
  );
  expect(started.status).toBe(200);
  const paid = await SELF.fetch(`http://shop.test${started.body.data.redirect_url}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      card_number: "4242 4242 4242 4242",
      expiry: "12/39",
      cvc: "123",
      name: "Sara Test",
      action: "pay",
    }).toString(),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
}

/** A placed and paid order. */
export async function paidOrder(
  shopper: Shopper,
  opts: { stock?: number; quantity?: number; price?: number } = {},
): Promise<PlacedOrder> {
  const order = await placeOrder(shopper, opts);
  await payOrder(shopper, order.number);
  return order;
}

/** The shopper's browser on a provider's hosted page: submits its form, and does not follow the redirect. */
export function submitForm(path: string, fields: Record<string, string>): Promise<Response> {
  return SELF.fetch(`http://shop.test${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

/** POST /payments/{number}/start back to the English status page, `extra` (a method) added. */
export function startPaying(shopper: Shopper, number: string, extra: Record<string, unknown> = {}) {
  return call(shopper, "POST", `/payments/${number}/start`, { return_url: "/en/payment-status", ...extra });
}
