import type { MiddlewareHandler } from "hono";
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

/** Serves GETs from the edge cache when it can, and stores successful answers under the policy. */
export function edgeCache(policy: CachePolicy): MiddlewareHandler<BackendEnv> {
  const cacheControl = CACHE_POLICIES[policy];
  return async (c, next) => {
    const cache = defaultCache();
    if (c.req.method !== "GET" || !cache) {
      await next();
      return;
    }
    const key = cacheKey(c.req.url, c.get("lang"));
    const hit = await cache.match(key);
    if (hit) {
      const res = new Response(hit.body, hit);
      res.headers.set("x-cache", "HIT");
      return res;
    }
    await next();
    // Only whole successes are shared; errors (404, 422, 429, 5xx) are never stored.
    if (c.res.status !== 200) return;
    c.res.headers.set("cache-control", cacheControl);
    c.res.headers.set("vary", "content-language");
    c.res.headers.set("content-language", c.get("lang"));
    c.res.headers.set("x-cache", "MISS");
    const stored = cache.put(key, c.res.clone()).catch((err: unknown) => {
      console.warn(JSON.stringify({ level: "warn", message: "edge cache put failed", error: String(err) }));
    });
    try {
      c.executionCtx.waitUntil(stored);
    } catch {
      // No execution context (a direct app.request call): finish the write before answering.
      await stored;
    }
  };
}
