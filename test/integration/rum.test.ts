// Field data: the own server's POST /api/rum checks each beacon, counts it in the D1
// histogram and hands it to Analytics Engine; the console's GET /backend/admin/rum reads p75 per
// page type and locale over the last day from those buckets, for staff only.
import { createExecutionContext, SELF, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { FieldData, RumBeacon, RumMetric } from "../../contract/rum";
import { apiApp } from "../../worker/api";
import { RUM_MAX_BYTES } from "../../contract/server/body-limit";
import {
  bucketOf,
  fieldData,
  hourOf,
  p75Of,
  PRECISION,
  pruneBuckets,
  recordBeacon,
  RUM_KEEP_HOURS,
  valueOf,
} from "../../contract/server/rum-store";
import { awayFromMinuteEdge, COUNTING_TIMEOUT } from "../support/accounts";
import { call, freshIp, newUser } from "../support/commerce";
import { newStaff } from "../support/console";

const ORIGIN = "https://shop.test";

function beacon(metrics: RumBeacon["metrics"], over: Partial<RumBeacon> = {}): RumBeacon {
  return { page: "product", locale: "en", navigation: "navigate", connection: "4g", metrics, ...over };
}

const good: RumBeacon = beacon([
  { name: "LCP", value: 1234.5, rating: "good" },
  { name: "INP", value: 88, rating: "good" },
  { name: "CLS", value: 0.042, rating: "good" },
  { name: "TTFB", value: 310.2, rating: "good" },
  { name: "FCP", value: 900, rating: "good" },
]);

function post(body: unknown, headers: Record<string, string> = {}) {
  return SELF.fetch(`${ORIGIN}/api/rum`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, "cf-connecting-ip": freshIp(), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function countOf(metric: RumMetric, page: string, locale: string, bucket: number): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT SUM(count) AS n FROM rum_buckets WHERE hour = ? AND metric = ? AND page_type = ? AND locale = ? AND bucket = ?",
  )
    .bind(hourOf(new Date()), metric, page, locale, bucket)
    .first<{ n: number | null }>();
  return row?.n ?? 0;
}

/** The exact 75th percentile by nearest rank, which the histogram approximates. */
function exactP75(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.75 * sorted.length) - 1];
}

/** A deterministic spread of values: a log-normal-ish tail like real LCPs (seeded, no Math.random). */
function spread(n: number, median: number, seed: number): number[] {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 0.999 + 0.0005;
  return Array.from({ length: n }, () => {
    const z = Math.sqrt(-2 * Math.log(next())) * Math.cos(2 * Math.PI * next());
    return Math.round(median * Math.exp(0.6 * z) * 10) / 10;
  });
}

describe("the histogram's buckets", () => {
  it("read every value back within the stated precision (2.5 %), from 1 ms to 120 s and CLS from 0.001", () => {
    expect(PRECISION).toBeLessThan(0.025);
    for (let ms = 1; ms <= 120_000; ms *= 1.013) {
      const read = valueOf("LCP", bucketOf("LCP", ms));
      expect(Math.abs(read - ms) / ms).toBeLessThanOrEqual(PRECISION + 1e-9);
    }
    for (let cls = 0.001; cls <= 10; cls *= 1.017) {
      const read = valueOf("CLS", bucketOf("CLS", cls));
      expect(Math.abs(read - cls) / cls).toBeLessThanOrEqual(PRECISION + 1e-9);
    }
    // Under the scale's unit: bucket 0, read as 0.
    expect(bucketOf("CLS", 0)).toBe(0);
    expect(bucketOf("INP", 0.4)).toBe(0);
    expect(valueOf("CLS", 0)).toBe(0);
  });

  it("p75 is the nearest-rank 75th percentile, within the precision", () => {
    const values = spread(501, 1800, 7);
    const counts = new Map<number, number>();
    for (const value of values) counts.set(bucketOf("LCP", value), (counts.get(bucketOf("LCP", value)) ?? 0) + 1);
    const figure = p75Of(
      "LCP",
      [...counts].map(([bucket, count]) => ({ bucket, count })),
    );
    expect(figure.samples).toBe(501);
    const exact = exactP75(values);
    expect(Math.abs(figure.p75! - exact) / exact).toBeLessThanOrEqual(PRECISION);
    expect(p75Of("LCP", [])).toEqual({ p75: null, samples: 0 });
  });
});

describe("POST /api/rum", () => {
  it("answers 204 and counts each metric in its hour's bucket for the page type and locale", async () => {
    const before = await Promise.all(
      good.metrics.map((m) => countOf(m.name, "product", "en", bucketOf(m.name, m.value))),
    );
    const res = await post(good);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    const after = await Promise.all(
      good.metrics.map((m) => countOf(m.name, "product", "en", bucketOf(m.name, m.value))),
    );
    expect(after.map((n, i) => n - before[i])).toEqual([1, 1, 1, 1, 1]);
    // A second beacon of the same figures adds to the same rows (the upsert), not new ones.
    expect((await post(good)).status).toBe(204);
    const again = await Promise.all(
      good.metrics.map((m) => countOf(m.name, "product", "en", bucketOf(m.name, m.value))),
    );
    expect(again.map((n, i) => n - before[i])).toEqual([2, 2, 2, 2, 2]);
  });

  it("hands every metric to Analytics Engine: blobs metric, page type, locale, rating; the value; indexed by page type", async () => {
    const points: AnalyticsEngineDataPoint[] = [];
    const RUM = { writeDataPoint: (p?: AnalyticsEngineDataPoint) => void points.push(p!) } as AnalyticsEngineDataset;
    const ctx = createExecutionContext();
    const res = await apiApp.request(
      `${ORIGIN}/rum`,
      {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN, "cf-connecting-ip": freshIp() },
        body: JSON.stringify(beacon(good.metrics.slice(0, 2), { page: "search", locale: "ar" })),
      },
      { ...env, RUM },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(204);
    expect(points).toEqual([
      { blobs: ["LCP", "search", "ar", "good"], doubles: [1234.5], indexes: ["search"] },
      { blobs: ["INP", "search", "ar", "good"], doubles: [88], indexes: ["search"] },
    ]);
  });

  const bad: [string, unknown, string][] = [
    ["an unknown metric", beacon([{ name: "FID", value: 10, rating: "good" } as never]), "metrics.0.name"],
    ["a value that is not finite", JSON.stringify(good).replace("1234.5", "1e999"), "metrics.0.value"],
    ["a negative value", beacon([{ name: "INP", value: -1, rating: "good" }]), "metrics.0.value"],
    ["a value out of range", beacon([{ name: "CLS", value: 500, rating: "poor" }]), "metrics.0"],
    ["a string value", beacon([{ name: "LCP", value: "1200" as never, rating: "good" }]), "metrics.0.value"],
    ["an unknown rating", beacon([{ name: "LCP", value: 1, rating: "great" as never }]), "metrics.0.rating"],
    ["an unknown page type", beacon(good.metrics, { page: "/en/product-details/phone-x" as never }), "page"],
    ["an unknown locale", beacon(good.metrics, { locale: "fr" as never }), "locale"],
    ["an unknown navigation type", beacon(good.metrics, { navigation: "teleport" as never }), "navigation"],
    ["an unknown connection", beacon(good.metrics, { connection: "5g" as never }), "connection"],
    ["no metrics", beacon([]), "metrics"],
    ["more than ten metrics", beacon(Array.from({ length: 11 }, () => good.metrics[0])), "metrics"],
    ["a field the contract does not name (a URL)", { ...good, url: "https://shop.test/en?q=x" }, "url"],
    ["a metric with a field of its own", beacon([{ ...good.metrics[0], id: "v5-1" } as never]), "metrics.0.id"],
    ["not JSON", "page=product", "body"],
  ];
  for (const [what, body, field] of bad)
    it(`refuses ${what}: 422 naming ${field}, nothing counted`, async () => {
      const before = await env.DB.prepare("SELECT COALESCE(SUM(count), 0) AS n FROM rum_buckets").first<{
        n: number;
      }>();
      const res = await post(body);
      expect(res.status).toBe(422);
      const json = (await res.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(json.errors)).toContain(field);
      const after = await env.DB.prepare("SELECT COALESCE(SUM(count), 0) AS n FROM rum_buckets").first<{ n: number }>();
      expect(after!.n).toBe(before!.n);
    });

  it(`refuses a body over ${RUM_MAX_BYTES} bytes with 413, before reading it`, async () => {
    const res = await post({ ...good, padding: "x".repeat(RUM_MAX_BYTES) });
    expect(res.status).toBe(413);
  });

  it("refuses a beacon from another site (403), as every own-server state change", async () => {
    expect((await post(good, { origin: "https://elsewhere.test" })).status).toBe(403);
    expect((await post(good, { origin: ORIGIN, "sec-fetch-site": "cross-site" })).status).toBe(403);
  });

  it(
    "limits one network to 60 beacons a minute (429), another network still reports",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      await awayFromMinuteEdge(5_000);
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 61; i++)
        statuses.push((await post(beacon([good.metrics[3]]), { "cf-connecting-ip": ip })).status);
      expect(statuses.slice(0, 60).every((s) => s === 204)).toBe(true);
      expect(statuses[60]).toBe(429);
      expect((await post(beacon([good.metrics[3]]))).status).toBe(204);
    },
  );

  it(
    "field-data flood: rotating IPv6 addresses inside one /64 is one network",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      await awayFromMinuteEdge(5_000);
      // One subscriber's /64, a fresh interface id for every beacon (as a privacy address rotates).
      const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
      const host = () => Array.from({ length: 4 }, () => Math.floor(Math.random() * 0xffff).toString(16)).join(":");
      const statuses: number[] = [];
      for (let i = 0; i < 61; i++)
        statuses.push((await post(beacon([good.metrics[3]]), { "cf-connecting-ip": `${prefix}:${host()}` })).status);
      expect(statuses.slice(0, 60).every((s) => s === 204)).toBe(true);
      expect(statuses[60]).toBe(429);
      // The next /64 is another subscriber.
      expect((await post(beacon([good.metrics[3]]), { "cf-connecting-ip": `2001:db8:ffff:${host()}:1` })).status).toBe(
        204,
      );
    },
  );
});

describe("GET /backend/admin/rum", () => {
  beforeEach(async () => {
    await env.DB.prepare("DELETE FROM rum_buckets").run();
  });

  // 700 sequential writes: 1.5-2.2 s when quiet, over vitest's 5 s default at load 8.
  it("answers p75 per page type and locale over the last day, from known inputs, with sample counts", async () => {
    const now = new Date();
    const lcp = spread(400, 2100, 11);
    const inp = spread(400, 140, 23);
    const cls = spread(400, 0.05, 5).map((x) => Math.round(x * 10000) / 10000);
    const ttfb = spread(400, 420, 31);
    for (let i = 0; i < 400; i++)
      await recordBeacon(
        env.DB,
        beacon(
          [
            { name: "LCP", value: lcp[i], rating: "good" },
            { name: "INP", value: inp[i], rating: "good" },
            { name: "CLS", value: cls[i], rating: "good" },
            // A fifth of the visits report no TTFB (a back-forward-cache restore, say).
            ...(i % 5 === 0 ? [] : [{ name: "TTFB" as const, value: ttfb[i], rating: "good" as const }]),
          ],
          { page: "list", locale: "ar" },
        ),
        new Date(now.getTime() - (i % 20) * 3_600_000),
      );
    // Outside the window (25 hours ago), slow enough to move p75 if it were counted.
    for (let i = 0; i < 300; i++)
      await recordBeacon(
        env.DB,
        beacon([{ name: "LCP", value: 60_000, rating: "poor" }], { page: "list", locale: "ar" }),
        new Date(now.getTime() - 25 * 3_600_000),
      );
    // Through the real endpoint too: a home page in English.
    expect((await post(beacon(good.metrics, { page: "home" }))).status).toBe(204);

    const support = await newStaff("support");
    const res = await call<FieldData>(support, "GET", "/admin/rum");
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.precision).toBe(PRECISION);
    expect(new Date(data.to).getTime() - new Date(data.from).getTime()).toBeGreaterThan(23 * 3_600_000);
    expect(new Date(data.to).getTime() - new Date(data.from).getTime()).toBeLessThanOrEqual(24 * 3_600_000 + 5000);
    expect(data.rows.map((r) => `${r.page_type}/${r.locale}`)).toEqual(["home/en", "list/ar"]);

    const list = data.rows.find((r) => r.page_type === "list")!;
    const ttfbSent = ttfb.filter((_, i) => i % 5 !== 0);
    for (const [metric, values] of [
      ["LCP", lcp],
      ["INP", inp],
      ["CLS", cls],
      ["TTFB", ttfbSent],
    ] as const) {
      const figure = list.metrics[metric];
      expect(figure.samples, metric).toBe(values.length);
      const exact = exactP75(values);
      expect(Math.abs(figure.p75! - exact) / exact, `${metric}: ${figure.p75} against ${exact}`).toBeLessThanOrEqual(
        PRECISION,
      );
    }
    expect(list.metrics.FCP).toEqual({ p75: null, samples: 0 });

    const home = data.rows.find((r) => r.page_type === "home")!;
    expect(home.metrics.LCP.samples).toBe(1);
    expect(Math.abs(home.metrics.LCP.p75! - 1234.5) / 1234.5).toBeLessThanOrEqual(PRECISION);
    expect(Math.abs(home.metrics.CLS.p75! - 0.042) / 0.042).toBeLessThanOrEqual(PRECISION);
  }, 30_000);

  it("is the console's: 404 to shoppers and to anonymous callers, as any console path", async () => {
    expect((await call(null, "GET", "/admin/rum")).status).toBe(404);
    expect((await call(await newUser(), "GET", "/admin/rum")).status).toBe(404);
    for (const role of ["support", "manager", "owner"] as const)
      expect((await call(await newStaff(role), "GET", "/admin/rum")).status).toBe(200);
  });

  it("the cron deletes hours older than the store keeps, and keeps the rest", async () => {
    const now = new Date();
    const old = new Date(now.getTime() - (RUM_KEEP_HOURS + 1) * 3_600_000);
    await recordBeacon(env.DB, beacon([good.metrics[0]], { page: "cart" }), old);
    await recordBeacon(env.DB, beacon([good.metrics[0]], { page: "cart" }), now);
    expect(await pruneBuckets(env.DB, now)).toBe(1);
    const left = await env.DB.prepare("SELECT hour FROM rum_buckets WHERE page_type = 'cart'").all<{ hour: number }>();
    expect(left.results.map((r) => r.hour)).toEqual([hourOf(now)]);
    expect((await fieldData(env.DB, now)).rows.map((r) => r.page_type)).toEqual(["cart"]);
  });
});
