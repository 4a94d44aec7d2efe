import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningWorker } from "../../scripts/lib/worker.ts";
import { jsonApi, startProductionWorker, type JsonInit } from "../support/http.ts";

// No payment provider: a worker configured the way README's deployment steps say (ENVIRONMENT=production,
// the secrets set) but with no payment provider takes no payment, and the test card pays nothing.

let production: RunningWorker;
let stop: (() => void) | undefined;

beforeAll(async () => {
  ({ worker: production, stop } = await startProductionWorker());
});

afterAll(() => stop?.());

const visitor = `10.77.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

const api = (path: string, init?: JsonInit) => jsonApi(production.url, { "cf-connecting-ip": visitor })(path, init);

describe("a production worker with no payment provider", () => {
  it("refuses checkout with a clear error and logs why, and holds no stock", async () => {
    const { guestId } = (await api("/api/cart/generate-guest-id")).body as unknown as { guestId: string };
    const guest = { "guest-id": guestId, "content-language": "en" };
    const products = await api("/backend/products?in_stock=1&per_page=12");
    // A product of one variant: the add names the product alone.
    const product = (products.body.data as { id: number; slug: string; stock: number; variant_count?: number }[]).find(
      (p) => (p.variant_count ?? 1) === 1,
    )!;
    expect(
      (
        await api("/backend/cart/add-product", {
          method: "POST",
          headers: guest,
          body: { product_id: product.id, quantity: 1 },
        })
      ).status,
    ).toBe(200);

    const placed = await api("/backend/checkout", {
      method: "POST",
      headers: guest,
      body: {
        idempotency_key: crypto.randomUUID(),
        email: "buyer@example.com",
        address: { name: "Buyer", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "King Fahd Road" },
        shipping_method: "standard",
        payment_method: "card",
      },
    });
    expect(placed.status).toBe(503);
    expect(placed.body.message).toBe(
      "This shop cannot take payments right now, so orders cannot be placed. Please try again later.",
    );
    const arabic = await api("/backend/checkout", {
      method: "POST",
      headers: { ...guest, "content-language": "ar" },
      body: {
        idempotency_key: crypto.randomUUID(),
        email: "buyer@example.com",
        address: { name: "Buyer", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "King Fahd Road" },
        shipping_method: "standard",
        payment_method: "card",
      },
    });
    expect(arabic.status).toBe(503);
    expect(arabic.body.message).toMatch(/[\u0600-\u06ff]/);

    const after = (await api(`/backend/products/${product.slug}`)).body.data as { stock: number };
    expect(after.stock).toBe(product.stock);
    await expect.poll(() => production.output(), { timeout: 5_000 }).toContain("payments.not_configured");
    expect(production.output()).toContain("PAYMENT_PROVIDER is not set");
  });

  it("serves no sandbox card page, form or webhook: every one answers 404", async () => {
    const id = `pay_${crypto.randomUUID().replace(/-/g, "")}`;
    expect((await api(`/backend/payments/sandbox/${id}?lang=en`, { headers: { accept: "text/html" } })).status).toBe(
      404,
    );
    const form = await fetch(`${production.url}/backend/payments/sandbox/${id}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": visitor },
      body: new URLSearchParams({
        card_number: "4242 4242 4242 4242",
        expiry: "12/39",
        cvc: "123",
        name: "Thief",
        action: "pay",
      }).toString(),
      redirect: "manual",
    });
    expect(form.status).toBe(404);
    expect(
      (
        await api("/backend/payments/webhook/sandbox", {
          method: "POST",
          body: { id: "evt_1", type: "payment.paid", data: { payment_id: id } },
        })
      ).status,
    ).toBe(404);
  });

  it("keeps the development outbox closed", async () => {
    expect((await api("/backend/dev/outbox?to=buyer@example.com")).status).toBe(404);
  });
});
