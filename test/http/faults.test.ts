import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type RunningWorker } from "../../scripts/lib/worker.ts";
import { startExtraWorker, TEST_VARS, builtWorker } from "../support/http.ts";

const base = builtWorker().url;

/** A second worker whose BACKEND_URL points at a local port nothing listens on. */
let unreachable: RunningWorker;
let stop: (() => void) | undefined;

beforeAll(async () => {
  const closedPort = await freePort();
  ({ worker: unreachable, stop } = await startExtraWorker(
    { ...TEST_VARS, BACKEND_URL: `http://127.0.0.1:${closedPort}` },
    { database: "seeded" },
  ));
});

afterAll(() => stop?.());

const internals = /at \w+ \(|\.ts:\d+|\.js:\d+|SQLITE|D1_ERROR|SELECT |INSERT |stack/i;

describe("the backend unreachable", () => {
  for (const locale of ["en", "ar"] as const) {
    it(`a page that needs the backend shows the 500 error screen in ${locale}`, async () => {
      const res = await fetch(`${unreachable.url}/${locale}/products`);
      expect(res.status).toBe(500);
      const html = await res.text();
      expect(html).toContain('class="error-screen');
      expect(html).toMatch(/>\s*500\s*</);
      expect(html).not.toMatch(internals);
    });
  }

  it("the browser's /backend calls answer a clean 503 in JSON, never a stack trace", async () => {
    const res = await fetch(`${unreachable.url}/backend/products`);
    expect(res.status).toBe(503);
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({ message: "The service is briefly unavailable. Please try again." });
    expect(body).not.toMatch(internals);
  });

  it("a body over the backend's limit is refused at the edge, before anything is forwarded", async () => {
    // The backend here cannot be reached: a 413 can only come from the edge itself.
    const res = await fetch(`${unreachable.url}/backend/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ notes: "x".repeat(80 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: "Payload too large" });
  });

  it("pages that need no backend data still render", async () => {
    const res = await fetch(`${unreachable.url}/en/auth/login`);
    expect(res.status).toBe(200);
  });

  it("the own-server calls answer clean JSON errors, never a stack trace", async () => {
    const add = await fetch(`${unreachable.url}/api/add-user`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: unreachable.url },
      body: JSON.stringify({ token: "a".repeat(43), user: { id: 1, name: "Sara" } }),
    });
    expect(add.status).toBeGreaterThanOrEqual(400);
    expect(add.status).not.toBe(500);
    const body = await add.text();
    expect(() => JSON.parse(body)).not.toThrow();
    expect(body).not.toMatch(internals);

    const proxy = await fetch(`${unreachable.url}/api/cart/add-product`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: unreachable.url },
      body: JSON.stringify({ productId: 1, quantity: 1 }),
    });
    expect(proxy.status).toBeGreaterThanOrEqual(400);
    const proxyBody = await proxy.text();
    expect(() => JSON.parse(proxyBody)).not.toThrow();
    expect(proxyBody).not.toMatch(internals);
  });
});

describe("malformed cookies are ignored safely", () => {
  const cookies = [
    "sid=%E0%A4%A",
    "sid=../../etc/passwd; __Host-sid=\u00ff\u00fe",
    "i18n_redirected=fr; sid=" + "x".repeat(5000),
    "=; ;;; sid",
    "i18n_redirected=%ZZ",
  ];

  it("pages render and the session is simply absent", async () => {
    for (const cookie of cookies) {
      const page = await fetch(`${base}/`, { headers: { cookie } });
      expect(page.status, cookie).toBe(200);
      const user = await fetch(`${base}/api/get-user`, { headers: { cookie } });
      expect(user.status, cookie).toBe(401);
      expect(await user.json()).toEqual({ message: "User not authenticated" });
    }
  });
});
