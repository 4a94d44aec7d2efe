import type { MiddlewareHandler } from "hono";
import { IsolateMemory } from "../lib/isolate-memory";
import type { BackendEnv, Lang } from "./env";

/**
 * Edge caching of public catalogue reads with the Workers Cache API (DESIGN §3). Two named
 * policies: `short` for lists that change with stock and prices (product lists, search, suggest,
 * home), `long` for what rarely changes (categories, brands, pages, services, product detail).
 */
export const CACHE_POLICIES = {
  short: "public, max-age=30, stale-while-revalidate=300",
  long: "public, max-age=3600, stale-while-revalidate=86400",
} as const;

export type CachePolicy = keyof typeof CACHE_POLICIES;

/**
 * The cache key: the full URL plus the answer's language. Catalogue answers depend on nothing
 * else, so request headers (Authorization, guest-id, cookies) are left out of the key entirely:
 * a signed-in shopper and a guest share the same cached list.
 */
export function cacheKey(url: string, lang: Lang): Request {
  const key = new URL(url);
  key.searchParams.set("__lang", lang);
  return new Request(key.toString(), { method: "GET" });
}

function defaultCache(): Cache | undefined {
  // The DOM lib's CacheStorage type hides the Workers-only `default` cache; it exists at run time.
  return typeof caches !== "undefined" ? (caches as unknown as { default?: Cache }).default : undefined;
}

/**
 * The first tier: this isolate's memory. A Worker's isolate serves many requests in a row, and a
 * page render makes two to four catalogue reads; answering them from memory instead of the Cache
 * API saves a lookup and a body stream per read (about 1.5 ms of CPU each, measured locally by
 * `npm run bench`). Entries live at most MEMORY_TTL_MS and never longer than the policy allows,
 * so memory adds no staleness the Cache API's policy does not already accept; the map is capped
 * in entries and body size so an isolate's 128 MB cannot be eaten by it.
 */
export const MEMORY_TTL_MS = 5_000;
const MEMORY_MAX_ENTRIES = 256;
const MEMORY_MAX_BODY_BYTES = 256 * 1024;

interface Remembered {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
}

const memory = new IsolateMemory<Remembered>(MEMORY_MAX_ENTRIES);

function recall(key: string, now: number): Response | undefined {
  const entry = memory.get(key, now);
  if (!entry) return undefined;
  const res = new Response(entry.body, { status: entry.status, headers: entry.headers });
  res.headers.set("x-cache", "HIT");
  return res;
}

function remember(key: string, res: Response, body: ArrayBuffer, ttlMs: number, now: number): void {
  if (body.byteLength > MEMORY_MAX_BODY_BYTES) return;
  memory.set(key, { status: res.status, headers: [...res.headers], body }, ttlMs, now);
}

/** Forgets every remembered answer (tests that rewrite the catalogue under a URL already read). */
export function forgetRemembered(): void {
  memory.clear();
}

/** How long memory may keep an answer: MEMORY_TTL_MS, or less if the policy's max-age is shorter. */
function memoryTtl(cacheControl: string): number {
  const maxAge = Number(/max-age=(\d+)/.exec(cacheControl)?.[1] ?? 0) * 1000;
  return Math.min(MEMORY_TTL_MS, maxAge);
}

/** Serves GETs from the edge cache when it can, and stores successful answers under the policy. */
export function edgeCache(policy: CachePolicy): MiddlewareHandler<BackendEnv> {
  const cacheControl = CACHE_POLICIES[policy];
  const ttlMs = memoryTtl(cacheControl);
  return async (c, next) => {
    const cache = defaultCache();
    if (c.req.method !== "GET" || !cache) {
      await next();
      return;
    }
    const key = cacheKey(c.req.url, c.get("lang"));
    const remembered = recall(key.url, Date.now());
    if (remembered) return remembered;
    const hit = await cache.match(key);
    if (hit) {
      const body = await hit.arrayBuffer();
      const res = new Response(body, hit);
      res.headers.set("x-cache", "HIT");
      remember(key.url, res, body, ttlMs, Date.now());
      return res;
    }
    await next();
    // Only whole successes are shared; errors (404, 422, 429, 5xx) are never stored.
    if (c.res.status !== 200) return;
    c.res.headers.set("cache-control", cacheControl);
    c.res.headers.set("vary", "content-language");
    c.res.headers.set("content-language", c.get("lang"));
    c.res.headers.set("x-cache", "MISS");
    const copy = c.res.clone();
    const stored = cache.put(key, c.res.clone()).catch((err: unknown) => {
      console.warn(JSON.stringify({ level: "warn", message: "edge cache put failed", error: String(err) }));
    });
    const body = await copy.arrayBuffer();
    const forMemory = new Response(null, c.res);
    forMemory.headers.set("x-cache", "HIT");
    remember(key.url, forMemory, body, ttlMs, Date.now());
    try {
      c.executionCtx.waitUntil(stored);
    } catch {
      // No execution context (a direct app.request call): finish the write before answering.
      await stored;
    }
  };
}
