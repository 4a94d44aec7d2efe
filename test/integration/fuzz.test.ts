import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalogue } from "../support/catalogue";
import { bodyFor, internals, queryFor, segment } from "../support/fuzz";
import { newGuest, newUser, type Shopper } from "../support/commerce";

/**
 * Every backend and /api endpoint receives hundreds of malformed inputs: broken JSON, wrong
 * types, missing and extra fields, huge numbers and strings, unicode edge cases and injection
 * strings. Whatever comes in: no 5xx, no stack trace or SQL in any answer, and afterwards no
 * negative stock, no orphan rows and no partial orders.
 */
const RUNS = 200;

type Who = "anonymous" | "guest" | "user";
interface Endpoint {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** `{id}`, `{slug}` and `{number}` are filled with fuzzed path segments. */
  path: string;
  who: Who;
  /** Query parameters for GETs, body fields for the others. */
  fields: string[];
}

const endpoints: Endpoint[] = [
  { method: "GET", path: "/backend/categories", who: "anonymous", fields: [] },
  { method: "GET", path: "/backend/brands", who: "anonymous", fields: [] },
  {
    method: "GET",
    path: "/backend/products",
    who: "anonymous",
    fields: ["q", "category", "brand", "min_price", "max_price", "in_stock", "sort", "page", "per_page"],
  },
  { method: "GET", path: "/backend/products/{slug}", who: "anonymous", fields: [] },
  { method: "GET", path: "/backend/search/suggest", who: "anonymous", fields: ["q"] },
  { method: "GET", path: "/backend/pages", who: "anonymous", fields: [] },
  { method: "GET", path: "/backend/pages/{slug}", who: "anonymous", fields: [] },
  { method: "GET", path: "/backend/services", who: "anonymous", fields: [] },
  { method: "GET", path: "/backend/services/{slug}", who: "anonymous", fields: [] },
  { method: "GET", path: "/backend/home", who: "anonymous", fields: [] },
  {
    method: "POST",
    path: "/backend/contact",
    who: "anonymous",
    fields: ["name", "email", "phone", "subject", "message"],
  },
  {
    method: "POST",
    path: "/backend/client/auth/register",
    who: "guest",
    fields: ["name", "email", "phone", "password", "password_confirmation"],
  },
  { method: "POST", path: "/backend/client/auth/login", who: "guest", fields: ["email", "phone", "password"] },
  { method: "POST", path: "/backend/client/auth/reset-password", who: "anonymous", fields: ["email", "phone"] },
  {
    method: "POST",
    path: "/backend/client/auth/code-password-verify",
    who: "anonymous",
    fields: ["email", "phone", "code", "purpose"],
  },
  {
    method: "POST",
    path: "/backend/client/auth/update-password",
    who: "anonymous",
    fields: ["reset_token", "password", "password_confirmation"],
  },
  { method: "POST", path: "/backend/client/auth/check-password", who: "user", fields: ["password"] },
  { method: "GET", path: "/backend/client/auth/profile", who: "user", fields: [] },
  { method: "POST", path: "/backend/client/auth/profile", who: "user", fields: ["name", "email", "phone"] },
  {
    method: "POST",
    path: "/backend/client/auth/change-password",
    who: "user",
    fields: ["current_password", "password", "password_confirmation"],
  },
  { method: "GET", path: "/backend/client/auth/social/platforms", who: "anonymous", fields: [] },
  { method: "POST", path: "/backend/client/auth/resend-code", who: "anonymous", fields: ["email", "phone", "purpose"] },
  { method: "GET", path: "/backend/client/addresses", who: "user", fields: [] },
  {
    method: "POST",
    path: "/backend/client/addresses",
    who: "user",
    fields: ["label", "name", "phone", "city", "district", "street", "building", "postal_code", "notes", "is_default"],
  },
  {
    method: "PUT",
    path: "/backend/client/addresses/{id}",
    who: "user",
    fields: ["label", "name", "phone", "city", "district", "street", "building", "postal_code", "notes", "is_default"],
  },
  { method: "DELETE", path: "/backend/client/addresses/{id}", who: "user", fields: [] },
  { method: "GET", path: "/backend/cart", who: "guest", fields: [] },
  { method: "POST", path: "/backend/cart/add-product", who: "guest", fields: ["product_id", "quantity"] },
  { method: "POST", path: "/backend/cart/update-quantity", who: "guest", fields: ["product_id", "quantity"] },
  { method: "POST", path: "/backend/cart/remove-product", who: "guest", fields: ["productId"] },
  { method: "POST", path: "/backend/promo-code/check", who: "guest", fields: ["code"] },
  { method: "POST", path: "/backend/promo-code/remove", who: "guest", fields: [] },
  { method: "GET", path: "/backend/checkout/options", who: "guest", fields: ["shipping_method"] },
  {
    method: "POST",
    path: "/backend/checkout",
    who: "guest",
    fields: ["idempotency_key", "email", "address", "address_id", "shipping_method", "payment_method"],
  },
  { method: "GET", path: "/backend/orders", who: "user", fields: [] },
  { method: "GET", path: "/backend/orders/{number}", who: "guest", fields: [] },
  { method: "POST", path: "/backend/orders/track", who: "anonymous", fields: ["number", "contact"] },
  { method: "POST", path: "/backend/orders/{number}/cancel", who: "guest", fields: [] },
  {
    method: "POST",
    path: "/backend/orders/{number}/returns",
    who: "guest",
    fields: ["items", "product_id", "quantity", "reason", "note"],
  },
  { method: "POST", path: "/backend/payments/{number}/start", who: "guest", fields: ["return_url"] },
  { method: "GET", path: "/backend/payments/{id}/status", who: "guest", fields: [] },
  {
    method: "POST",
    path: "/backend/payments/webhook/sandbox",
    who: "anonymous",
    fields: ["id", "type", "payment_id", "status"],
  },
  { method: "GET", path: "/backend/payments/sandbox/{id}", who: "anonymous", fields: [] },
  {
    method: "POST",
    path: "/backend/payments/sandbox/{id}",
    who: "anonymous",
    fields: ["card_number", "expiry", "cvc", "name", "code"],
  },
  {
    method: "GET",
    path: "/backend/catalogue/products/{slug}/reviews",
    who: "anonymous",
    fields: ["sort", "stars", "lang", "page"],
  },
  {
    method: "POST",
    path: "/backend/client/reviews",
    who: "user",
    fields: ["product", "rating", "title", "body", "lang", "author_name", "keep_photos"],
  },
  { method: "GET", path: "/backend/client/reviews/eligibility", who: "user", fields: ["product"] },
  { method: "GET", path: "/backend/client/reviews/reviewable", who: "user", fields: ["order"] },
  { method: "DELETE", path: "/backend/client/reviews/{id}/photos/{id}", who: "user", fields: [] },
  { method: "POST", path: "/backend/reviews/{id}/helpful", who: "guest", fields: [] },
  { method: "POST", path: "/backend/reviews/{id}/report", who: "guest", fields: ["reason"] },
  { method: "GET", path: "/api/get-user", who: "anonymous", fields: [] },
  { method: "POST", path: "/api/add-user", who: "anonymous", fields: ["token", "user"] },
  { method: "POST", path: "/api/logout", who: "anonymous", fields: [] },
  { method: "GET", path: "/api/cart/generate-guest-id", who: "anonymous", fields: [] },
  { method: "POST", path: "/api/cart/add-product", who: "guest", fields: ["productId", "quantity"] },
];

let shoppers: Record<Who, Shopper | null>;
const tally = { requests: 0, byStatus: new Map<number, number>() };

async function send(
  endpoint: Endpoint,
  path: string,
  query: string,
  body: string,
): Promise<{ status: number; text: string }> {
  const who = shoppers[endpoint.who];
  const headers: Record<string, string> = {
    ...(who?.headers ?? {}),
    "content-type": "application/json",
    origin: "http://example.com",
  };
  const url = `http://example.com${path}${query ? `?${query}` : ""}`;
  const res = await SELF.fetch(url, {
    method: endpoint.method,
    headers,
    body: endpoint.method === "GET" ? undefined : body,
  });
  const text = await res.text();
  tally.requests += 1;
  tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
  return { status: res.status, text };
}

beforeAll(async () => {
  await seedCatalogue(env.DB);
  shoppers = { anonymous: null, guest: await newGuest(), user: await newUser() };
});

afterAll(() => {
  console.log(`fuzz: ${tally.requests} requests; statuses ${JSON.stringify(Object.fromEntries(tally.byStatus))}`);
});

describe("fuzzing every endpoint with malformed input", () => {
  for (const endpoint of endpoints) {
    // Hundreds of requests per endpoint: generous time, since CI shares two cores with the build.
    it(`${endpoint.method} ${endpoint.path} never answers 5xx or leaks internals`, { timeout: 180_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(
          segment,
          queryFor(endpoint.method === "GET" ? endpoint.fields : []),
          bodyFor(endpoint.fields),
          async (seg, query, body) => {
            const path = endpoint.path.replace(
              /\{(id|slug|number)\}/g,
              () => encodeURIComponent(seg.replace(/[\ud800-\udfff]/g, "\ufffd")) || "x",
            );
            const { status, text } = await send(endpoint, path, query, body);
            expect(status, `${endpoint.method} ${path}?${query.slice(0, 200)} ${body.slice(0, 200)}`).toBeLessThan(500);
            expect(text).not.toMatch(internals);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }

  it("leaves the data whole: no negative stock, no orphan rows, no partial orders", async () => {
    const one = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
    expect(await one("SELECT COUNT(*) AS n FROM products WHERE stock < 0")).toBe(0);
    expect(
      await one(
        "SELECT COUNT(*) AS n FROM cart_items WHERE cart_id NOT IN (SELECT id FROM carts) OR product_id NOT IN (SELECT id FROM products)",
      ),
    ).toBe(0);
    expect(await one("SELECT COUNT(*) AS n FROM cart_items WHERE quantity <= 0")).toBe(0);
    expect(await one("SELECT COUNT(*) AS n FROM order_items WHERE order_id NOT IN (SELECT id FROM orders)")).toBe(0);
    expect(await one("SELECT COUNT(*) AS n FROM orders WHERE id NOT IN (SELECT order_id FROM order_items)")).toBe(0);
    expect(await one("SELECT COUNT(*) AS n FROM payments WHERE order_id NOT IN (SELECT id FROM orders)")).toBe(0);
    expect(await one("SELECT COUNT(*) AS n FROM addresses WHERE user_id NOT IN (SELECT id FROM users)")).toBe(0);
    expect(tally.requests).toBeGreaterThanOrEqual(endpoints.length * RUNS);
  });
});
