// D1 read replication through the Sessions API: the backend's session per request
// (worker/backend/db.ts), the shopper's bookmark kept by the edge (worker/middleware/bookmark.ts),
// a lagging replica simulated on two real local databases (test/support/replica-lag.ts), and the
// PRIMARY_LATENCY_MS wrapper.
import { applyD1Migrations, createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BOOKMARK_HEADER } from "../../contract/bookmark";
import { apiApp } from "../../worker/api";
import { backendApp } from "../../worker/backend";
import { isReadOnlySql, routeOf, TrackedDatabase } from "../../worker/backend/db";
import type { Env, HonoEnv } from "../../worker/env";
import { keepBookmark } from "../../worker/middleware/bookmark";
import { address, createProduct, freshIp, newGuest, newUser, stockOf, type Shopper } from "../support/commerce";
import { LaggingD1 } from "../support/replica-lag";

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

// The edge as worker/index.ts assembles it (without the React build): the bookmark middleware in
// front of the backend and the own server.
const edge = new Hono<HonoEnv>();
edge.use(keepBookmark());
edge.route("/backend", backendApp);
edge.route("/api", apiApp);

/** A browser: its own headers (guest id or token), and the cookie jar's `d1b`. */
class Browser {
  cookie: string | null = null;
  constructor(
    readonly bindings: Env,
    readonly shopper: Pick<Shopper, "headers">,
  ) {}

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answer fields loosely
  async call(method: string, path: string, body?: unknown, form = false): Promise<{ res: Response; body: any }> {
    const headers: Record<string, string> = {
      accept: "application/json",
      "cf-connecting-ip": freshIp(),
      origin: "http://localhost",
      ...this.shopper.headers,
    };
    if (this.cookie) headers.cookie = `d1b=${this.cookie}`;
    if (body !== undefined) headers["content-type"] = form ? "application/x-www-form-urlencoded" : "application/json";
    const ctx = createExecutionContext();
    const res = await edge.request(
      `http://localhost${path}`,
      {
        method,
        headers,
        body:
          body === undefined
            ? undefined
            : form
              ? new URLSearchParams(body as Record<string, string>)
              : JSON.stringify(body),
        redirect: "manual",
      },
      this.bindings,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const kept = /(?:^|,\s*)d1b=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
    if (kept) this.cookie = kept;
    const text = await res.text();
    return { res, body: (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text };
  }
}

let lag: LaggingD1;
let lagging: Env;

beforeAll(async () => {
  await applyD1Migrations(env.REPLICA_DB, env.TEST_MIGRATIONS);
});

beforeEach(async () => {
  lag = new LaggingD1(env.DB, env.REPLICA_DB);
  lagging = { ...env, DB: lag };
  await lag.sync();
});

describe("the shopper's bookmark", () => {
  it("a write answers a bookmark, the edge keeps it, and the next read opens its session with it", async () => {
    const product = await createProduct({ stock: 10 });
    await lag.sync();
    const guest = await newGuest();
    const shopper = new Browser(lagging, guest);

    const add = await shopper.call("POST", "/backend/cart/add-product", { product_id: product.id, quantity: 1 });
    expect(add.res.status).toBe(200);
    const bookmark = add.res.headers.get(BOOKMARK_HEADER);
    expect(bookmark).toMatch(BOOKMARK);
    expect(shopper.cookie).toBe(bookmark);
    expect(add.res.headers.get("set-cookie")).toMatch(/d1b=[^;]+; Max-Age=86400; Path=\/; HttpOnly; SameSite=Lax/);

    lag.served.length = 0;
    const read = await shopper.call("GET", "/backend/cart");
    expect(read.body.data.total_quantity).toBe(1);
    // The read's session was opened with the shopper's bookmark, which the stale replica cannot
    // satisfy: the primary answered. A read writes nothing, so it answers no bookmark.
    expect(new Set(lag.served.map((s) => s.opened))).toEqual(new Set([bookmark]));
    expect(lag.served.every((s) => s.copy === "primary")).toBe(true);
    expect(read.res.headers.get(BOOKMARK_HEADER)).toBeNull();
    expect(read.res.headers.get("set-cookie")).toBeNull();

    // The same cart read without the bookmark (the guest's id on another device) is the replica's.
    const elsewhere = new Browser(lagging, guest);
    lag.served.length = 0;
    const stale = await elsewhere.call("GET", "/backend/cart");
    expect(stale.body.data.total_quantity).toBe(0);
    expect(lag.served.every((s) => s.copy === "replica" && s.opened === "first-unconstrained")).toBe(true);

    // Once the replica has caught up, the shopper's reads are the replica's again.
    await lag.sync();
    lag.served.length = 0;
    const caughtUp = await shopper.call("GET", "/backend/cart");
    expect(caughtUp.body.data.total_quantity).toBe(1);
    expect(lag.served.every((s) => s.copy === "replica")).toBe(true);
  });

  it("the shopper's cart never goes back while the replica lags; a reader without the bookmark may see it stale", async () => {
    const product = await createProduct({ stock: 50, maxPerOrder: 20 });
    const guest = await newGuest();
    const shopper = new Browser(lagging, guest);
    const other = new Browser(lagging, guest);
    let seen = 0;
    let staleReads = 0;
    for (let i = 1; i <= 6; i++) {
      const add = await shopper.call("POST", "/backend/cart/add-product", { product_id: product.id, quantity: 1 });
      expect(add.res.status).toBe(200);
      // The replica catches up only now and then, sometimes between the write and the read.
      if (i % 3 === 0) await lag.sync();
      for (const _ of [1, 2]) {
        const read = await shopper.call("GET", "/backend/cart");
        expect(read.body.data.total_quantity).toBe(i);
        expect(read.body.data.total_quantity).toBeGreaterThanOrEqual(seen);
        seen = read.body.data.total_quantity;
      }
      const theirs = await other.call("GET", "/backend/cart");
      expect(theirs.body.data.total_quantity).toBeLessThanOrEqual(i);
      if (theirs.body.data.total_quantity < i) staleReads++;
    }
    // The lag is real: without the bookmark, reads went back to the replica's older copy.
    expect(staleReads).toBeGreaterThanOrEqual(4);
  });

  it("an order placed and paid stays paid for its shopper, though the replica still has it unpaid", async () => {
    const product = await createProduct({ stock: 7 });
    const user = await newUser();
    const shopper = new Browser(lagging, user);
    expect(
      (await shopper.call("POST", "/backend/cart/add-product", { product_id: product.id, quantity: 2 })).res.status,
    ).toBe(200);

    lag.served.length = 0;
    const placed = await shopper.call("POST", "/backend/checkout", {
      idempotency_key: crypto.randomUUID(),
      email: user.email,
      address,
      shipping_method: "standard",
      payment_method: "card",
    });
    expect(placed.res.status).toBe(201);
    const number = placed.body.data.number as string;
    // Checkout ran wholly on the primary, the stock reservation included.
    expect(lag.served.length).toBeGreaterThan(0);
    expect(lag.served.every((s) => s.copy === "primary" && s.opened === "first-primary")).toBe(true);
    const reserve = lag.servedMatching(/UPDATE product_variants SET stock = stock - /);
    expect(reserve.length).toBeGreaterThan(0);
    expect(await stockOf(product.id)).toBe(5);
    expect(shopper.cookie).toBe(placed.res.headers.get(BOOKMARK_HEADER));

    await lag.sync(); // the replica now holds the order, unpaid
    lag.served.length = 0;
    const started = await shopper.call("POST", `/backend/payments/${number}/start`, {
      return_url: "/en/payment-status",
    });
    expect(started.res.status).toBe(200);
    const paid = await shopper.call(
      "POST",
      started.body.data.redirect_url as string,
      {
        card_number: "4242 4242 4242 4242",
        expiry: "12/39",
        cvc: "123",
        name: "Sara Test",
        action: "pay",
      },
      true,
    );
    expect(paid.res.status).toBe(303);
    expect(lag.served.length).toBeGreaterThan(0);
    expect(lag.served.every((s) => s.copy === "primary" && s.opened === "first-primary")).toBe(true);

    for (const _ of [1, 2, 3]) {
      const mine = await shopper.call("GET", `/backend/orders/${number}`);
      expect(mine.res.status).toBe(200);
      expect(mine.body.data.status).toBe("paid");
    }
    // The same order read without the bookmark comes from the lagging replica: still unpaid.
    const elsewhere = new Browser(lagging, user);
    const stale = await elsewhere.call("GET", `/backend/orders/${number}`);
    expect(stale.body.data.status).toBe("pending_payment");
  });

  it("SSR loaders and own-server calls carry the kept bookmark too (callBackend)", async () => {
    const product = await createProduct({ stock: 10 });
    const guest = await newGuest();
    const shopper = new Browser(lagging, guest);
    // The own server's add-product proxy calls the backend through callBackend: the answer's
    // bookmark is kept in the cookie though the proxied JSON does not carry the header.
    const add = await shopper.call("POST", "/api/cart/add-product", { productId: product.id, quantity: 3 });
    expect(add.res.status).toBe(200);
    expect(shopper.cookie).toMatch(BOOKMARK);
    const cart = await shopper.call("GET", "/backend/cart");
    expect(cart.body.data.total_quantity).toBe(3);
  });

  it("a malformed bookmark, in the header or the cookie, is ignored: an unconstrained read, never a 500", async () => {
    const guest = await newGuest();
    for (const bad of ["garbage", "00000000-00000010-00000000", "x".repeat(500), "'; DROP TABLE carts; --"]) {
      lag.served.length = 0;
      const res = await backendApp.request(
        "/cart",
        { headers: { ...guest.headers, [BOOKMARK_HEADER]: bad } },
        lagging,
        createExecutionContext(),
      );
      expect(res.status).toBe(200);
      expect(lag.served.length).toBeGreaterThan(0);
      expect(lag.served.every((s) => s.opened === "first-unconstrained")).toBe(true);

      const browser = new Browser(lagging, guest);
      browser.cookie = encodeURIComponent(bad);
      lag.served.length = 0;
      const viaCookie = await browser.call("GET", "/backend/cart");
      expect(viaCookie.res.status).toBe(200);
      expect(lag.served.every((s) => s.opened === "first-unconstrained")).toBe(true);
    }
  });

  it("an external backend's way: header in, header out, over plain HTTP semantics", async () => {
    const product = await createProduct();
    const guest = await newGuest();
    const write = await backendApp.request(
      "/cart/add-product",
      {
        method: "POST",
        headers: { ...guest.headers, "content-type": "application/json" },
        body: JSON.stringify({ product_id: product.id }),
      },
      lagging,
      createExecutionContext(),
    );
    const bookmark = write.headers.get(BOOKMARK_HEADER);
    expect(bookmark).toMatch(BOOKMARK);
    lag.served.length = 0;
    const read = await backendApp.request(
      "/cart",
      { headers: { ...guest.headers, [BOOKMARK_HEADER]: bookmark! } },
      lagging,
      createExecutionContext(),
    );
    expect(((await read.json()) as { data: { total_quantity: number } }).data.total_quantity).toBe(1);
    expect(lag.served.every((s) => s.opened === bookmark)).toBe(true);
  });
});

describe("which copy each request reads", () => {
  it("catalogue, content, cart, account and order reads may use a replica; writes, checkout, payments and the console do not", () => {
    for (const path of [
      "/products",
      "/products/tv",
      "/categories",
      "/pages/about",
      "/cart",
      "/client/auth/profile",
      "/client/addresses",
      "/orders",
      "/orders/SQ-ABCDEFGH",
    ])
      expect([path, routeOf("GET", `/backend${path}`), routeOf("GET", path)]).toEqual([path, "replica", "replica"]);
    for (const [method, path] of [
      ["POST", "/cart/add-product"],
      ["POST", "/client/auth/login"],
      ["PUT", "/client/addresses/3"],
      ["GET", "/checkout/options"],
      ["POST", "/checkout"],
      ["GET", "/payments/12/status"],
      ["GET", "/payments/sandbox/12"],
      ["GET", "/admin/products"],
      ["POST", "/admin/inventory"],
      ["GET", "/dev/outbox"],
    ])
      expect([path, routeOf(method, `/backend${path}`)]).toEqual([path, "primary"]);
  });

  it("knows a read from a write", () => {
    expect(isReadOnlySql("SELECT 1")).toBe(true);
    expect(isReadOnlySql("  -- note\n select * from products")).toBe(true);
    expect(isReadOnlySql("WITH x AS (SELECT 1) SELECT * FROM x")).toBe(true);
    expect(isReadOnlySql("WITH x AS (SELECT 1) DELETE FROM carts WHERE id IN x")).toBe(false);
    expect(isReadOnlySql("INSERT INTO carts DEFAULT VALUES RETURNING id")).toBe(false);
    expect(isReadOnlySql("UPDATE products SET stock = 1")).toBe(false);
    expect(isReadOnlySql("PRAGMA foreign_keys")).toBe(false);
  });
});

describe("PRIMARY_LATENCY_MS", () => {
  // Long enough that a loaded machine's scheduling noise (seen above 150 ms on CI) cannot pass for
  // a second wait, or make an undelayed read look delayed.
  const MS = 400;
  const timed = async (work: () => Promise<unknown>) => {
    const start = performance.now();
    await work();
    return performance.now() - start;
  };

  it("delays every round trip the primary serves, and no replica read", async () => {
    const db = new TrackedDatabase(env.DB, MS);
    const product = await createProduct();
    // The bare binding is the primary: reads wait too, with any method of running a statement.
    expect(await timed(() => db.prepare("SELECT ?1 AS x").bind(1).first("x"))).toBeGreaterThanOrEqual(MS - 1);
    expect(await timed(() => db.prepare("SELECT 1").raw())).toBeGreaterThanOrEqual(MS - 1);
    expect(await timed(() => db.exec("SELECT 1"))).toBeGreaterThanOrEqual(MS - 1);

    const replica = db.withSession("first-unconstrained");
    const read = replica.prepare("SELECT stock FROM products WHERE id = ?").bind(product.id);
    expect(await timed(() => read.first())).toBeLessThan(MS);
    expect(await timed(() => read.all())).toBeLessThan(MS);
    expect(await timed(() => read.raw({ columnNames: true }))).toBeLessThan(MS);
    expect(await timed(() => replica.batch([read, read]))).toBeLessThan(MS);
    // A write goes to the primary, alone or in a batch (one round trip, one wait).
    const write = replica.prepare("UPDATE products SET stock = stock + 0 WHERE id = ?").bind(product.id);
    expect(await timed(() => write.run())).toBeGreaterThanOrEqual(MS - 1);
    const both = await timed(() => replica.batch([read, write]));
    expect(both).toBeGreaterThanOrEqual(MS - 1);
    expect(both).toBeLessThan(2 * MS);
    expect(replica.getBookmark()).toMatch(BOOKMARK);

    // A first-primary session's reads are the primary's.
    const primary = db.withSession("first-primary");
    expect(await timed(() => primary.prepare("SELECT 1").first())).toBeGreaterThanOrEqual(MS - 1);
  });

  it("through the backend: a cart read is served undelayed, an add to cart waits on the primary", async () => {
    const slow: Env = { ...env, PRIMARY_LATENCY_MS: String(MS) };
    const product = await createProduct();
    const guest = await newGuest();
    const post = () =>
      backendApp.request(
        "/cart/add-product",
        {
          method: "POST",
          headers: { ...guest.headers, "content-type": "application/json" },
          body: JSON.stringify({ product_id: product.id }),
        },
        slow,
        createExecutionContext(),
      );
    let res: Response | undefined;
    expect(await timed(async () => (res = await post()))).toBeGreaterThanOrEqual(MS - 1);
    expect(res?.status).toBe(200);
    expect(res?.headers.get(BOOKMARK_HEADER)).toMatch(BOOKMARK);
    let read: Response | undefined;
    const readMs = await timed(
      async () =>
        (read = await backendApp.request("/cart", { headers: guest.headers }, slow, createExecutionContext())),
    );
    expect(read?.status).toBe(200);
    expect(readMs).toBeLessThan(MS);
  });
});
