import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EDGE_SECRET_HEADER, VISITOR_IP_HEADER } from "../../contract/edge-caller";
import { externalBackend, forwardToBackend } from "../../worker/backend-client";
import { backendApp } from "../../worker/backend";
import { networkKey } from "../../contract/server/network";
import { hashedNetwork } from "../../worker/backend/services/shared/rate-limit";
import type { Env, HonoEnv } from "../../worker/env";
import { createProduct, freshIp, newGuest } from "../support/commerce";

/**
 * With BACKEND_URL set, the backend sees every call from the worker's own address (Cloudflare sets
 * cf-connecting-ip on a Worker's subrequest to another zone). The edge vouches for the visitor's
 * address with the secret both share (contract/edge-caller.ts); without the secret, the header
 * naming an address is nobody's word.
 */

const BACKEND = "https://backend.example";
/** The worker's egress address, as the backend on another zone sees every forwarded call. */
const EGRESS = "192.0.2.50";
const SECRET = "edge-secret-of-the-test";
const shopEnv = () => ({ ...env, BACKEND_URL: BACKEND, EDGE_SECRET: SECRET }) as Env;

// The edge as worker/index.ts assembles it with BACKEND_URL set: the browser's /backend calls forwarded.
const edge = new Hono<HonoEnv>();
edge.all("/backend/*", (c) => forwardToBackend(c, externalBackend(c.env)!));

beforeEach(() => {
  const realFetch = globalThis.fetch;
  // The other zone: the reference backend, reached with cf-connecting-ip rewritten to the egress address.
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input, init);
    if (!req.url.startsWith(BACKEND)) return realFetch(input, init);
    const headers = new Headers(req.headers);
    headers.set("cf-connecting-ip", EGRESS);
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
    return backendApp.request(req.url, { method: req.method, headers, body }, shopEnv());
  });
});

afterEach(() => vi.restoreAllMocks());

const json = { "content-type": "application/json", accept: "application/json" };

/** A guest at `ip` puts a product in the cart and places an unpaid order, all through the edge. */
async function orderThroughEdge(ip: string): Promise<{ status: number; number?: string }> {
  const guest = await newGuest();
  const product = await createProduct();
  const headers = { ...json, ...guest.headers, "cf-connecting-ip": ip };
  const viaEdge = (path: string, body: unknown) =>
    edge.request(`http://shop.test/backend${path}`, { method: "POST", headers, body: JSON.stringify(body) }, shopEnv());
  expect((await viaEdge("/cart/add-product", { product_id: product.id, quantity: 1 })).status).toBe(200);
  const placed = await viaEdge("/checkout", {
    idempotency_key: crypto.randomUUID(),
    email: `${guest.guestId!.slice(0, 8)}@guest.example`,
    address: { name: "Edge Buyer", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
    shipping_method: "standard",
    payment_method: "card",
  });
  const body = (await placed.json()) as { data?: { number: string } };
  return { status: placed.status, number: body.data?.number };
}

const networkHashOf = async (number: string) =>
  env.DB.prepare("SELECT network_hash FROM orders WHERE number = ?").bind(number).first<string | null>("network_hash");

describe("the edge's word on the visitor's address", () => {
  it("shared network behind BACKEND_URL: two shoppers forwarded by the edge count as two networks", async () => {
    // Four shoppers, each holding one unpaid order: one network may hold three, so as one network
    // the fourth (and every checkout in the shop after it) would be refused.
    const ips = [freshIp(), freshIp(), freshIp(), freshIp()];
    const orders = [];
    for (const ip of ips) orders.push(await orderThroughEdge(ip));
    expect(orders.map((o) => o.status)).toEqual([201, 201, 201, 201]);
    const hashes = await Promise.all(orders.map((o) => networkHashOf(o.number!)));
    expect(new Set(hashes).size).toBe(4);
    expect(hashes[0]).toBe(await hashedNetwork(env, networkKey(ips[0])));
    expect(hashes).not.toContain(await hashedNetwork(env, EGRESS));
  });

  it("a caller without the secret cannot choose its address with that header", async () => {
    const chosen = freshIp();
    const place = async (
      send: (path: string, init: RequestInit) => Response | Promise<Response>,
      extra: Record<string, string>,
    ) => {
      // A network of its own each time: one network may hold three unpaid orders.
      const own = freshIp();
      const guest = await newGuest();
      const product = await createProduct();
      const headers = { ...json, ...guest.headers, "cf-connecting-ip": own, [VISITOR_IP_HEADER]: chosen, ...extra };
      const init = (body: unknown): RequestInit => ({ method: "POST", headers, body: JSON.stringify(body) });
      expect((await send("/cart/add-product", init({ product_id: product.id, quantity: 1 }))).status).toBe(200);
      const placed = await send(
        "/checkout",
        init({
          idempotency_key: crypto.randomUUID(),
          email: `${guest.guestId!.slice(0, 8)}@guest.example`,
          address: {
            name: "Direct Caller",
            phone: "+966512345678",
            city: "Riyadh",
            district: "Olaya",
            street: "Tahlia",
          },
          shipping_method: "standard",
          payment_method: "card",
        }),
      );
      expect(placed.status).toBe(201);
      const hash = await networkHashOf(((await placed.json()) as { data: { number: string } }).data.number);
      return hash === (await hashedNetwork(env, networkKey(own))) ? "own" : "another";
    };
    // A backend with the secret set: a wrong secret, or none, names no address.
    const direct = (path: string, init: RequestInit) => backendApp.request(path, init, shopEnv());
    expect(await place(direct, { [EDGE_SECRET_HEADER]: "guessed-secret" })).toBe("own");
    expect(await place(direct, {})).toBe("own");
    // A backend without the secret: no caller's header is anyone's word, whatever it sends.
    const unset = (path: string, init: RequestInit) => SELF.fetch(`http://shop.test/backend${path}`, init);
    expect(await place(unset, { [EDGE_SECRET_HEADER]: "" })).toBe("own");
    // Through the edge, what the browser wrote in the edge's headers is replaced by what Cloudflare saw.
    const forwarded = (path: string, init: RequestInit) =>
      edge.request(`http://shop.test/backend${path}`, init, shopEnv());
    expect(await place(forwarded, { [EDGE_SECRET_HEADER]: "guessed-secret" })).toBe("own");
  });
});
