// The backend really swaps: a storefront worker whose own database is empty,
// with BACKEND_URL pointing at another worker process that serves the reference backend on
// another port (the suite's main worker). Everything a shopper sees and does must come from,
// and land in, that second backend.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningWorker } from "../../scripts/lib/worker.ts";
import { jsonApi, startStorefrontOf, builtWorker } from "../support/http.ts";

const backendWorker = builtWorker().url;
let shop: RunningWorker;
let stop: (() => void) | undefined;

/** A visitor address of its own, so the backend's per-network limits see this test alone. */
const ip = `198.51.100.${10 + Math.floor(Math.random() * 200)}`;

beforeAll(async () => {
  ({ worker: shop, stop } = await startStorefrontOf(`${backendWorker}/backend`));
});

afterAll(() => stop?.());

describe("a storefront with BACKEND_URL set", () => {
  for (const locale of ["en", "ar"] as const) {
    it(`renders the product list and a product page from the other backend in ${locale}`, async () => {
      const list = await fetch(`${shop.url}/${locale}/products`, { headers: { "cf-connecting-ip": ip } });
      expect(list.status).toBe(200);
      const html = await list.text();
      expect(html).toContain(`/${locale}/product-details/iphone-16-pro`);
      const page = await fetch(`${shop.url}/${locale}/product-details/iphone-16-pro`, {
        headers: { "cf-connecting-ip": ip },
      });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("/backend/media/products/iphone-16-pro.svg");
    });
  }

  it("keeps the browser on its own origin: the CSP allows only 'self' and the page never names the backend's address", async () => {
    const res = await fetch(`${shop.url}/en`, { headers: { "cf-connecting-ip": ip } });
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
    expect(csp).toMatch(/img-src 'self' data: blob:(;|$)/);
    const html = await res.text();
    expect(html).not.toContain(backendWorker);
  });

  it("forwards the browser's /backend calls and product art to the other backend, answers unchanged", async () => {
    const through = await fetch(`${shop.url}/backend/products?per_page=3`, { headers: { "cf-connecting-ip": ip } });
    const direct = await fetch(`${backendWorker}/backend/products?per_page=3`, { headers: { "cf-connecting-ip": ip } });
    expect(through.status).toBe(200);
    expect(await through.json()).toEqual(await direct.json());
    const art = await fetch(`${shop.url}/backend/media/products/iphone-16-pro.svg?v=1`);
    expect(art.status).toBe(200);
    expect(art.headers.get("content-type")).toContain("image/svg+xml");
  });

  it("takes a guest from a minted id through cart and checkout, and the order lands in the other backend", async () => {
    const shopApi = jsonApi(shop.url, { "cf-connecting-ip": ip });
    const minted = await shopApi("/api/cart/generate-guest-id");
    expect(minted.status).toBe(200);
    const guest = { "guest-id": minted.body.guestId as string, "content-language": "en" };
    // The id was recorded by the backend that will be asked about it, not by the storefront.
    const backendApi = jsonApi(backendWorker, { "cf-connecting-ip": ip });
    expect((await backendApi("/backend/cart", { headers: guest })).status).toBe(200);

    // A product of one variant: the spec's add names the product alone.
    const product = (await backendApi("/backend/products/iphone-15-pro")).body.data as { id: number };
    const added = await shopApi("/api/cart/add-product", {
      method: "POST",
      headers: guest,
      body: { productId: product.id, quantity: 1 },
    });
    expect(added.status).toBe(200);
    expect((await backendApi("/backend/cart", { headers: guest })).body.data.total_quantity).toBe(1);

    const placed = await shopApi("/backend/checkout", {
      method: "POST",
      headers: guest,
      body: {
        idempotency_key: crypto.randomUUID(),
        email: `swap-${guest["guest-id"].slice(0, 8)}@example.com`,
        address: { name: "Swap Buyer", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
        shipping_method: "standard",
        payment_method: "card",
      },
    });
    expect(placed.status).toBe(201);
    const number = placed.body.data.number as string;
    const order = await backendApi(`/backend/orders/${number}`, { headers: guest });
    expect(order.status).toBe(200);
    expect(order.body.data.number).toBe(number);

    // The sandbox payment page is the other backend's, reached through the shop's origin.
    const started = await shopApi(`/backend/payments/${number}/start`, {
      method: "POST",
      headers: guest,
      body: { return_url: "/en/payment-status" },
    });
    expect(started.status).toBe(200);
    const redirect = started.body.data.redirect_url as string;
    expect(redirect.startsWith("/backend/")).toBe(true);
    const payPage = await fetch(`${shop.url}${redirect}`, { headers: { "cf-connecting-ip": ip } });
    expect(payPage.status).toBe(200);
    expect(await payPage.text()).toContain(number);
  });
});
