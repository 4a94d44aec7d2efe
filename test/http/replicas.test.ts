// Read replicas on the real built worker under wrangler dev: the D1 Sessions API as
// workerd runs it, the bookmark cookie over HTTP, through an external backend (BACKEND_URL), and
// PRIMARY_LATENCY_MS read from the worker's vars. The lag itself is simulated in the Workers-runtime
// suite (test/integration/replicas.test.ts): local D1 has no replicas.
import { afterAll, describe, expect, it } from "vitest";
import { BOOKMARK_HEADER } from "../../contract/bookmark.ts";
import { startExtraWorker, startStorefrontOf, TEST_VARS, visitorIp, builtWorker } from "../support/http.ts";

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
const base = builtWorker().url;
const stops: (() => void)[] = [];
afterAll(() => stops.forEach((stop) => stop()));

/** The `d1b` cookie a response sets, if any. */
const keptBookmark = (res: Response) =>
  /(?:^|[;,]\s*)(?:__Host-)?d1b=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1];

async function guestOf(origin: string, ip: string): Promise<Record<string, string>> {
  const res = await fetch(`${origin}/api/cart/generate-guest-id`, { headers: { "cf-connecting-ip": ip } });
  expect(res.status).toBe(200);
  const { guestId } = (await res.json()) as { guestId: string };
  return { "guest-id": guestId, "content-language": "en", "cf-connecting-ip": ip, accept: "application/json" };
}

async function productId(origin: string): Promise<number> {
  // A product of one variant: the add names the product alone.
  const res = await fetch(`${origin}/backend/products/iphone-15-pro`);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

const addOne = (origin: string, headers: Record<string, string>, id: number) =>
  fetch(`${origin}/backend/cart/add-product`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", origin },
    body: JSON.stringify({ product_id: id, quantity: 1 }),
  });

describe("the bookmark over HTTP", () => {
  it("a write answers x-d1-bookmark and the d1b cookie; a read with it answers the write; a bad one is ignored", async () => {
    const guest = await guestOf(base, visitorIp());
    const add = await addOne(base, guest, await productId(base));
    expect(add.status).toBe(200);
    const bookmark = add.headers.get(BOOKMARK_HEADER);
    expect(bookmark).toMatch(BOOKMARK);
    expect(keptBookmark(add)).toBe(bookmark);
    expect(add.headers.get("set-cookie")).toMatch(/HttpOnly/i);

    const read = await fetch(`${base}/backend/cart`, { headers: { ...guest, cookie: `d1b=${bookmark}` } });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { data: { total_quantity: number } }).data.total_quantity).toBe(1);
    expect(read.headers.get(BOOKMARK_HEADER)).toBeNull();
    expect(read.headers.get("set-cookie") ?? "").not.toMatch(/d1b=/);

    for (const bad of ["nonsense", "ffffffff-ffffffff", "z".repeat(300)]) {
      const res = await fetch(`${base}/backend/cart`, { headers: { ...guest, [BOOKMARK_HEADER]: bad } });
      expect(res.status).toBe(200);
    }
  });

  it("with BACKEND_URL, the external backend's bookmark comes back through the forward and is kept", async () => {
    const { worker: shop, stop } = await startStorefrontOf(`${base}/backend`);
    stops.push(stop);
    const ip = visitorIp();
    const guest = await guestOf(shop.url, ip);
    const add = await addOne(shop.url, guest, await productId(base));
    expect(add.status).toBe(200);
    const bookmark = add.headers.get(BOOKMARK_HEADER);
    expect(bookmark).toMatch(BOOKMARK);
    expect(keptBookmark(add)).toBe(bookmark);
    // The kept bookmark goes with the next forwarded call, which reads the write.
    const read = await fetch(`${shop.url}/backend/cart`, { headers: { ...guest, cookie: `d1b=${bookmark}` } });
    expect(((await read.json()) as { data: { total_quantity: number } }).data.total_quantity).toBe(1);
  });
});

describe("PRIMARY_LATENCY_MS on the built worker", () => {
  it("an add to cart waits on the primary; a cart read does not", async () => {
    const MS = 150;
    const { worker, stop } = await startExtraWorker(
      { ...TEST_VARS, PRIMARY_LATENCY_MS: String(MS) },
      { database: "seeded" },
    );
    stops.push(stop);
    const guest = await guestOf(worker.url, visitorIp());
    const id = await productId(worker.url);
    const timed = async (work: () => Promise<Response>) => {
      const start = performance.now();
      const res = await work();
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      return performance.now() - start;
    };
    expect(await timed(() => addOne(worker.url, guest, id))).toBeGreaterThanOrEqual(MS);
    const reads: number[] = [];
    for (let i = 0; i < 3; i++) reads.push(await timed(() => fetch(`${worker.url}/backend/cart`, { headers: guest })));
    expect(Math.min(...reads)).toBeLessThan(MS);
    // Starting the worker of its own takes most of this test's time.
  }, 120_000);
});
