import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_PUBLIC_ORIGIN, type RunningWorker } from "../../scripts/lib/worker.ts";
import { jsonApi, startExtraWorker, visitorIp } from "../support/http.ts";

// A production shop's links come from PUBLIC_ORIGIN alone: without it the worker serves nothing,
// and with it every link of an order's messages points there, whatever Origin the checkout
// carried and whatever the shopper typed as their name. The messages are read as the provider
// gets them (MESSENGER=http, a listener of the test's own): production has no outbox.

const SECRETS = {
  ENVIRONMENT: "production",
  AUTH_PEPPER: "production-pepper-for-the-test",
  PAYMENT_SECRET: "production-webhook-secret-for-the-test",
  ORDER_LINK_SECRET: "production-order-link-secret-for-the-test",
};
const PHISH = "souq-edge-payments.example";

interface Sent {
  to: string;
  channel: string;
  purpose: string;
  text: string;
  html?: string;
}

const sent: Sent[] = [];
let provider: Server;
let unconfigured: { worker: RunningWorker; stop: () => void } | undefined;
let configured: { worker: RunningWorker; stop: () => void } | undefined;

beforeAll(async () => {
  provider = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      sent.push(JSON.parse(body) as Sent);
      res.statusCode = 200;
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  const port = (provider.address() as { port: number }).port;
  // Started once it answers at all: its 503 (a worker that served would answer 200, and fail below).
  unconfigured = await startExtraWorker(SECRETS, { database: "seeded", ready: (res) => res.ok || res.status === 503 });
  configured = await startExtraWorker(
    {
      ...SECRETS,
      PUBLIC_ORIGIN: LOCAL_PUBLIC_ORIGIN,
      // A demo shop that takes test cards, so an order can be placed in production mode.
      PAYMENT_PROVIDER: "sandbox",
      UNSAFE_SANDBOX_PAYMENTS_IN_PRODUCTION: "true",
      MESSENGER: "http",
      MESSENGER_URL: `http://127.0.0.1:${port}/send`,
      MESSENGER_KEY: "provider-key-for-the-test",
    },
    { database: "seeded" },
  );
});

afterAll(() => {
  unconfigured?.stop();
  configured?.stop();
  provider?.close();
});

describe("a production worker without PUBLIC_ORIGIN", () => {
  it("refuses to serve: a 503 page for a browser, a 503 answer for the API, and a log line saying what to set", async () => {
    const base = unconfigured!.worker.url;
    const page = await fetch(`${base}/en`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(503);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("The shop is not available right now.");
    expect(html).toMatch(/[\u0600-\u06ff]/);
    const api = jsonApi(base, { "cf-connecting-ip": visitorIp() });
    const products = await api("/backend/products?per_page=1");
    expect(products.status).toBe(503);
    expect(products.body.message).toBe("The shop is not available right now. Please try again later.");
    expect((await api("/api/cart/generate-guest-id")).status).toBe(503);
    const checkout = await api("/backend/checkout", { method: "POST", body: {} });
    expect(checkout.status).toBe(503);
    await expect
      .poll(() => unconfigured!.worker.output(), { timeout: 5_000 })
      .toContain("config.public_origin_missing");
    expect(unconfigured!.worker.output()).toContain("PUBLIC_ORIGIN is not set");
  });
});

describe("a production worker with PUBLIC_ORIGIN", () => {
  it("payment-link phishing: every link of an order's messages points to PUBLIC_ORIGIN, whatever Origin the checkout carried", async () => {
    const base = configured!.worker.url;
    const api = jsonApi(base, { "cf-connecting-ip": visitorIp() });
    const { guestId } = (await api("/api/cart/generate-guest-id")).body as { guestId: string };
    const guest = { "guest-id": guestId, "content-language": "en" };
    const products = await api("/backend/products?in_stock=1&per_page=12");
    // A product of one variant: the add names the product alone.
    const product = (products.body.data as { id: number; variant_count?: number }[]).find(
      (p) => (p.variant_count ?? 1) === 1,
    )!;
    const added = await api("/backend/cart/add-product", {
      method: "POST",
      headers: guest,
      body: { product_id: product.id, quantity: 1 },
    });
    expect(added.status).toBe(200);
    const email = `victim-${guestId.slice(0, 8)}@example.org`;
    const placed = await api("/backend/checkout", {
      method: "POST",
      // Any HTTP client can write these headers: calling itself the shop's own page gets it past the
      // cross-site check, and it names the phishing site as its Origin.
      headers: { ...guest, origin: `https://${PHISH}`, "sec-fetch-site": "same-origin" },
      body: {
        idempotency_key: crypto.randomUUID(),
        email,
        address: {
          name: `https://${PHISH}/pay Bob`,
          phone: "+966500000002",
          city: "Riyadh",
          district: "Olaya",
          street: "King Fahd Road",
        },
        shipping_method: "standard",
        payment_method: "card",
      },
    });
    expect(placed.status).toBe(201);
    const number = placed.body.data.number as string;

    const ofOrder = () => sent.filter((m) => m.text.includes(number));
    await expect.poll(() => ofOrder().length, { timeout: 30_000 }).toBe(2);
    expect(
      ofOrder()
        .map((m) => `${m.channel}:${m.purpose}`)
        .sort(),
    ).toEqual(["email:order.placed", "sms:order.placed"]);
    for (const m of ofOrder()) {
      const everything = `${m.text}\n${m.html ?? ""}`;
      expect(everything).not.toContain(PHISH);
      const urls = everything.match(/https?:\/\/[^\s"<]+/g) ?? [];
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(url.startsWith(`${LOCAL_PUBLIC_ORIGIN}/`), url).toBe(true);
      expect(m.text).toContain(`${LOCAL_PUBLIC_ORIGIN}/en/order/checkout/status?order=${number}`);
    }
    const mail = ofOrder().find((m) => m.channel === "email")!;
    expect(mail.to).toBe(email);
    // A guest's order: the link carries its signed token in the fragment (services/orders/order-links.ts).
    expect([...mail.html!.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((a) => a[1])).toEqual([
      expect.stringMatching(/#access=\d+\.[0-9a-f]{64}$/),
    ]);
    expect(mail.html).toContain(`href="${LOCAL_PUBLIC_ORIGIN}/en/order/checkout/status?order=${number}#access=`);
  });

  it("serves the generated art with its own default-src 'none' policy, not the pages'", async () => {
    const base = configured!.worker.url;
    const products = await jsonApi(base)("/backend/products?per_page=1");
    const slug = (products.body.data as { slug: string }[])[0]!.slug;
    const art = await fetch(`${base}/backend/media/products/${slug}.svg`);
    expect(art.status).toBe(200);
    expect(art.headers.get("content-security-policy")).toMatch(/^default-src 'none'/);
    const page = await fetch(`${base}/en`, { headers: { accept: "text/html" } });
    expect(page.headers.get("content-security-policy")).toContain("script-src 'nonce-");
  });
});
