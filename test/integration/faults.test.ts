import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { apiApp } from "../../worker/api";
import { backendApp } from "../../worker/backend";
import type { Env } from "../../worker/env";

/**
 * Faults in the platform's own services. The bindings are the real miniflare ones, wrapped so
 * that one call fails the way a D1 or KV outage does.
 */
const internals = /D1_ERROR|SQLITE|no such table|secret|\.ts:\d+|\bat \w+ \(/i;

function failingD1(): D1Database {
  const fail = () => {
    throw new Error("D1_ERROR: no such table: secret_internal_table: SQLITE_ERROR");
  };
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "prepare" || prop === "batch" || prop === "exec") return fail;
      // The backend reads and writes through a D1 session (worker/backend/db.ts): an outage fails those too.
      if (prop === "withSession") return () => ({ prepare: fail, batch: fail, getBookmark: () => null });
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function failingKV(): KVNamespace {
  return new Proxy(env.KV, {
    get(target, prop) {
      if (prop === "put" || prop === "get") {
        return () => Promise.reject(new Error("KV PUT failed: 503 internal kv-node-17 secret"));
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function request(
  app: { request: typeof backendApp.request },
  path: string,
  init: RequestInit,
  bindings: Partial<Env>,
) {
  const ctx = createExecutionContext();
  const res = await app.request(path, init, { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("a D1 failure", () => {
  for (const [method, path, body] of [
    ["GET", "/products?q=phone", undefined],
    ["GET", "/categories", undefined],
    ["POST", "/client/auth/login", { email: "someone@example.com", password: "correct horse battery" }],
    [
      "POST",
      "/contact",
      { name: "Sara", email: "sara@example.com", subject: "Hello there", message: "A message that is long enough." },
    ],
  ] as const) {
    it(`${method} ${path} answers a JSON 500 with the request id and no internals`, async () => {
      const res = await request(
        backendApp,
        path,
        {
          method,
          headers: { "content-type": "application/json", "x-request-id": "req-fault-1" },
          body: body ? JSON.stringify(body) : undefined,
        },
        { DB: failingD1() },
      );
      expect(res.status).toBe(500);
      expect(res.headers.get("content-type")).toContain("application/json");
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ message: "Server error", request_id: "req-fault-1" });
      expect(text).not.toMatch(internals);
    });
  }
});

describe("a KV failure", () => {
  it("while minting a guest id is answered cleanly, with no id handed out", async () => {
    const res = await request(apiApp, "/cart/generate-guest-id", { method: "GET" }, { KV: failingKV() });
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.status).toBeLessThan(600);
    const text = await res.text();
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(body.guestId).toBeUndefined();
    expect(typeof body.message).toBe("string");
    expect(text).not.toMatch(internals);
  });

  it("while reading the session means simply not signed in", async () => {
    const res = await request(
      apiApp,
      "/get-user",
      { headers: { cookie: "sid=" + "a".repeat(43) } },
      { KV: failingKV() },
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: "User not authenticated" });
  });

  it("a guest id cannot be checked, so the cart call is refused, not crashed", async () => {
    const res = await request(
      backendApp,
      "/cart",
      { headers: { "guest-id": "0b6c3f3e-1111-4222-8333-444455556666" } },
      { KV: failingKV() },
    );
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(JSON.parse(text).message).toBe("The service is briefly unavailable. Please try again.");
    expect(text).not.toMatch(internals);
  });
});
