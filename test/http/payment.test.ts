import { describe, expect, it } from "vitest";
import { jsonApi, visitorIp, builtWorker } from "../support/http.ts";

// The money path against the real built worker (its CSP and headers included): a guest buys a
// seeded product with a seeded promo code and pays on the sandbox card page.
const base = builtWorker().url;

const api = jsonApi(base, { "cf-connecting-ip": visitorIp() });

describe("paying for an order on the built worker", () => {
  it("a guest adds a product, applies a promo code, checks out and pays through the sandbox page", async () => {
    const { guestId } = (await api("/api/cart/generate-guest-id")).body as { guestId: string };
    const guest = { "guest-id": guestId, "content-language": "en" };
    const products = await api("/backend/products?in_stock=1&per_page=48&sort=price_desc");
    // SAVE50 (50 SAR off from 300 SAR): a guest's code; once-per-customer codes need an account.
    const product = (products.body.data as { id: number; price: number; stock: number; variant_count?: number }[]).find(
      (p) => p.price >= 30000 && (p.variant_count ?? 1) === 1 && p.stock >= 2,
    )!;
    expect(product).toBeDefined();

    const added = await api("/api/cart/add-product", {
      method: "POST",
      headers: guest,
      body: { productId: product.id, quantity: 1 },
    });
    expect(added.status).toBe(200);
    const promo = await api("/backend/promo-code/check", { method: "POST", headers: guest, body: { code: "SAVE50" } });
    expect(promo.body.data).toMatchObject({ code: "SAVE50", discount_type: 2, discount: 5000 });

    const placed = await api("/backend/checkout", {
      method: "POST",
      headers: guest,
      body: {
        idempotency_key: crypto.randomUUID(),
        email: "http-guest@example.com",
        address: {
          name: "Guest",
          phone: "+966512345678",
          city: "Jeddah",
          district: "Al Hamra",
          street: "Palestine St",
        },
        shipping_method: "express",
        payment_method: "card",
      },
    });
    expect(placed.status).toBe(201);
    const number = placed.body.data.number as string;

    const started = await api(`/backend/payments/${number}/start`, {
      method: "POST",
      headers: guest,
      body: { return_url: "/en/payment-status" },
    });
    expect(started.status).toBe(200);
    const page = await fetch(`${base}${started.body.data.redirect_url}`);
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(await page.text()).not.toMatch(/<script/i);

    const paid = await fetch(`${base}${started.body.data.redirect_url}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({
        card_number: "4242 4242 4242 4242",
        expiry: "12/39",
        cvc: "123",
        action: "pay",
      }).toString(),
      redirect: "manual",
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(
      `/en/payment-status?payment_id=${started.body.data.payment_id}&order=${number}`,
    );

    const status = await api(`/backend/payments/${started.body.data.payment_id}/status`, { headers: guest });
    expect(status.status, JSON.stringify(status.body)).toBe(200);
    expect(status.body.data).toMatchObject({ status: "paid", order_status: "paid", order_number: number });
    const tracked = await api("/backend/orders/track", {
      method: "POST",
      body: { number, contact: "http-guest@example.com" },
    });
    // The tracking answer masks the email.
    expect(tracked.body.data).toMatchObject({
      number,
      status: "paid",
      payment_status: "paid",
      discount: 5000,
      email: "h***@e***.com",
    });
  });
});
