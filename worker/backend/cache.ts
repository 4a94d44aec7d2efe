import type { Context, MiddlewareHandler } from "hono";
import { LOW_STOCK } from "../../contract/catalogue";
import { CATALOGUE_VERSION_HEADER, LOW_STOCK_HEADER, PAGE_KEPT_HEADER } from "../../contract/freshness";
import { IsolateMemory } from "../../contract/server/isolate-memory";
import { ReadAhead } from "./lib/read-ahead";
import type { BackendEnv, Lang } from "./env";
import { answerValueOf, deferOf } from "./http";

/**
 * Edge caching of public catalogue reads with the Workers Cache API (DESIGN §3). Two named
 * policies: `short` for answers that carry products (product lists, product detail, search,
 * suggest, home), `long` for what rarely changes (categories, brands, pages, services).
 *
 * Freshness (DESIGN §10, docs/PERFORMANCE.md "Caching at the edge"): what a shopper acts on
 * (a product's stock, availability, per-order maximum and price) is never served stale from
 * these caches. Every cached answer is checked before it is served: the products it carries (any
 * object with a numeric `id`, `stock`, `max_per_order` and `price`, nested ones included, such as
 * a product page's related products) are read again from D1 with one small primary-key query, and
 * if any of them changed (a sale, a release, a price edit) the answer is rebuilt from D1 at once
 * instead of served. So a stock change shows in the very next catalogue read after its batch
 * commits, whichever cache tier held the answer, while answers whose products did not change keep
 * being served from cache; descriptions, images and the rest ride along unchecked under the
 * policy. Nothing has to call anything on a stock change (checkout, release, payment failure),
 * so no writer can forget to. (The page cache, which makes no data read, follows availability
 * flips through the catalogue version below, and checks a page's "only N left" counts every 5 s:
 * worker/page-cache.ts.)
 *
 * Catalogue edits: everything else an answer carries (names, descriptions, images,
 * categories, a product hidden or shown again) is checked against the catalogue version, the
 * `versions` row `catalogue` that every console change to the catalogue bumps in its own batch
 * (`bumpCatalogueVersion`, services/console/staff.ts). Each cached copy, in memory or in the Cache API,
 * remembers the version it was built under (the `x-catalogue-version` header); a copy of another
 * version is not served, the answer is rebuilt from D1. An isolate reads the version at most once
 * per VERSION_TTL_MS (1 s), so this costs one tiny D1 read per second per busy isolate, not one per
 * request; the isolate that made the change forgets its kept version at once
 * (`forgetCatalogueVersion`). So an edit shows in the catalogue API within about a second
 * everywhere, and on a rendered page within about one more (the page cache asks the backend for
 * the version once a second too, `GET /backend/catalogue/version`: worker/page-cache.ts).
 * Keys do not change with the version: an old copy is simply replaced by the next answer.
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
  /** The products the answer shows, as it shows them (null: it carries none, nothing to check). */
  live: LiveSnapshot | null;
}

/**
 * What an answer says about its products' and variants' live fields: their ids (sorted, unique)
 * and one line each, `id:stock:max_per_order:price:compare_at_price` (a variant's id written
 * `v<id>`), joined.
 */
export interface LiveSnapshot {
  ids: number[];
  /** The variants it shows (a product page's `variants`). */
  variantIds: number[];
  fingerprint: string;
  /**
   * The products and variants that show their exact stock count to shoppers ("only 3 left": 1 to
   * LOW_STOCK), as `key:stock` joined by commas (contract/freshness.ts); empty when none does.
   */
  lowStock: string;
}

interface LiveFields {
  id: number;
  stock: number;
  max_per_order: number;
  price: number;
  compare_at_price: number | null;
}

function isProduct(value: Record<string, unknown>): boolean {
  return (
    typeof value.id === "number" &&
    typeof value.stock === "number" &&
    typeof value.max_per_order === "number" &&
    typeof value.price === "number"
  );
}

const fieldsLine = (key: string, p: LiveFields) =>
  `${key}:${p.stock}:${p.max_per_order}:${p.price}:${p.compare_at_price ?? ""}`;

/**
 * Every product an answer carries, at any depth (lists, a detail's related products, the home
 * page's sections), and every variant of a product's `variants` (their ids are their own).
 */
export function liveSnapshotOf(json: unknown): LiveSnapshot | null {
  const products = new Map<number, LiveFields>();
  const variants = new Map<number, LiveFields>();
  const walk = (value: unknown, depth: number, found: Map<number, LiveFields>): void => {
    if (depth > 8 || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1, found);
      return;
    }
    const record = value as Record<string, unknown>;
    if (isProduct(record)) {
      const compare = record.compare_at_price;
      found.set(record.id as number, {
        id: record.id as number,
        stock: record.stock as number,
        max_per_order: record.max_per_order as number,
        price: record.price as number,
        compare_at_price: typeof compare === "number" ? compare : null,
      });
    }
    for (const [key, child] of Object.entries(record))
      if (child !== null && typeof child === "object") walk(child, depth + 1, key === "variants" ? variants : found);
  };
  walk(json, 0, products);
  if (products.size === 0 && variants.size === 0) return null;
  const sorted = (found: Map<number, LiveFields>) => [...found.keys()].sort((a, b) => a - b);
  const ids = sorted(products);
  const variantIds = sorted(variants);
  const keyed = [
    ...ids.map((id) => [String(id), products.get(id)!] as const),
    ...variantIds.map((id) => [`v${id}`, variants.get(id)!] as const),
  ];
  const lowStock = keyed
    .filter(([, p]) => p.stock >= 1 && p.stock <= LOW_STOCK)
    .map(([key, p]) => `${key}:${p.stock}`)
    .join(",");
  return { ids, variantIds, fingerprint: keyed.map(([key, p]) => fieldsLine(key, p)).join(","), lowStock };
}

function snapshotOfBody(body: ArrayBuffer): LiveSnapshot | null {
  try {
    return liveSnapshotOf(JSON.parse(new TextDecoder().decode(body)));
  } catch {
    return null;
  }
}

/**
 * True when D1 still says what the snapshot says: one query by primary key for the answer's
 * products (a list page's 12, a product page's 9), whatever the cache tier. A product gone from
 * D1 counts as a change. When D1 cannot answer, the cached copy is served (and the failure
 * logged): browsing goes on, and the cart and checkout check stock in D1 themselves.
 */
async function stillCurrent(db: D1Database, snapshot: LiveSnapshot | null): Promise<boolean> {
  if (!snapshot) return true;
  try {
    const variantIds = snapshot.variantIds ?? [];
    const { results } = await db
      .prepare(
        `SELECT 'p' AS kind, id, stock, max_per_order, price, compare_at_price FROM products WHERE id IN (SELECT value FROM json_each(?1))
         UNION ALL
         SELECT 'v', id, stock * active, max_per_order, price, compare_at_price FROM product_variants WHERE id IN (SELECT value FROM json_each(?2))`,
      )
      .bind(JSON.stringify(snapshot.ids), JSON.stringify(variantIds))
      .all<LiveFields & { kind: "p" | "v" }>();
    const byKey = new Map(results.map((r) => [r.kind === "p" ? String(r.id) : `v${r.id}`, r]));
    const now = [...snapshot.ids.map(String), ...variantIds.map((id) => `v${id}`)].map((key) => {
      const row = byKey.get(key);
      return row ? fieldsLine(key, row) : `${key}:gone`;
    });
    return now.join(",") === snapshot.fingerprint;
  } catch (err) {
    console.warn(
      JSON.stringify({
        level: "warn",
        message: "edge cache stock check failed; serving the cached copy",
        error: String(err),
      }),
    );
    return true;
  }
}

const memory = new IsolateMemory<Remembered>(MEMORY_MAX_ENTRIES);

/** How long an isolate trusts the catalogue version it read (see "Catalogue edits" above). */
export const VERSION_TTL_MS = 1_000;
export const VERSION_HEADER = CATALOGUE_VERSION_HEADER;
/** The statement that reads it (the taxonomy reads it in its own batch: services/catalogue/taxonomy.ts). */
export const CATALOGUE_VERSION_SQL = "SELECT value FROM versions WHERE name = 'catalogue'";
const knownVersion = new ReadAhead<string>(VERSION_TTL_MS);

/**
 * The catalogue version, read from D1 at most once per VERSION_TTL_MS per isolate; with `defer`
 * (the request's waitUntil), read again after the answer once half that old (`ReadAhead`).
 */
export function catalogueVersion(
  db: D1Database,
  defer?: (task: Promise<unknown>) => void,
  /** The oldest reading the caller takes (the storefront's question keeps its answer a second more). */
  maxAgeMs = VERSION_TTL_MS,
): Promise<string> {
  const read = async () => {
    try {
      return String((await db.prepare(CATALOGUE_VERSION_SQL).first<number>("value")) ?? 0);
    } catch (err) {
      console.warn(JSON.stringify({ level: "warn", message: "catalogue version read failed", error: String(err) }));
      throw err;
    }
  };
  // No answer from D1: keep serving under the last version known (the stock check still runs).
  return knownVersion.get(read, defer, maxAgeMs).catch(() => knownVersion.last ?? "0");
}

/** After this isolate changed the catalogue: its next read asks D1 for the version again. */
export function forgetCatalogueVersion(): void {
  knownVersion.forget();
}

/** A remembered answer (its headers already say `x-cache: HIT`: see `remember`'s callers). */
function answerOf(entry: Remembered): Response {
  return new Response(entry.body, { status: entry.status, headers: entry.headers });
}

function remember(
  key: string,
  res: Response,
  body: ArrayBuffer,
  live: LiveSnapshot | null,
  ttlMs: number,
  now: number,
): void {
  if (body.byteLength > MEMORY_MAX_BODY_BYTES) return;
  memory.set(key, { status: res.status, headers: [...res.headers], body, live }, ttlMs, now);
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

/**
 * Serves GETs from the edge cache when it can (memory first, then the Cache API), each copy only
 * while its products' live fields still match D1 (`stillCurrent`), and stores successful answers
 * under the policy.
 */
export function edgeCache(
  policy: CachePolicy,
  /**
   * Whether this answer goes to the Cache API too (default: always), or stays in the isolate's
   * memory only: for answers the data centre is unlikely to be asked for again before the page
   * that shows them (which the page cache keeps there), where a lookup that misses and a copy
   * nobody reads would cost every request (searches: `searchAnswersShared`). A read the edge marks
   * with PAGE_KEPT_HEADER (contract/freshness.ts) stays in memory whatever this says: the page its
   * render makes is kept in the data centre, the answer's copy there would be a second one.
   */
  shared: (c: Context<BackendEnv>) => boolean = () => true,
): MiddlewareHandler<BackendEnv> {
  const cacheControl = CACHE_POLICIES[policy];
  const ttlMs = memoryTtl(cacheControl);
  return async (c, next) => {
    const cache = defaultCache();
    if (c.req.method !== "GET" || !cache) {
      await next();
      return;
    }
    const toShare = c.req.header(PAGE_KEPT_HEADER) === undefined && shared(c);
    const key = cacheKey(c.req.url, c.get("lang"));
    const version = await catalogueVersion(c.env.DB, deferOf(c));
    const kept = memory.get(key.url, Date.now());
    // A copy built under another catalogue version is not served (an edit since): rebuilt below.
    const remembered =
      kept && kept.headers.some(([name, value]) => name === VERSION_HEADER && value === version) ? kept : undefined;
    if (remembered) {
      if (await stillCurrent(c.env.DB, remembered.live)) return answerOf(remembered);
      // A product changed: the Cache API's copy is no newer than memory's, so rebuild from D1.
    } else if (toShare) {
      const hit = await cache.match(key);
      if (hit && hit.headers.get(VERSION_HEADER) === version) {
        const body = await hit.arrayBuffer();
        const live = snapshotOfBody(body);
        if (await stillCurrent(c.env.DB, live)) {
          const res = new Response(body, hit);
          res.headers.set("x-cache", "HIT");
          remember(key.url, res, body, live, ttlMs, Date.now());
          return res;
        }
      }
    }
    await next();
    // Only whole successes are shared; errors (404, 422, 429, 5xx) are never stored.
    if (c.res.status !== 200) return;
    c.res.headers.set("cache-control", cacheControl);
    c.res.headers.set("vary", "content-language");
    c.res.headers.set("content-language", c.get("lang"));
    c.res.headers.set("x-cache", "MISS");
    c.res.headers.set(VERSION_HEADER, version);
    const value = answerValueOf(c.res);
    const copy = c.res.clone();
    const body = await copy.arrayBuffer();
    const live = value === undefined ? snapshotOfBody(body) : liveSnapshotOf(value);
    // The page cache checks the "only N left" counts a page shows (worker/page-cache.ts). The header
    // stays true of every copy served later: a copy is served only while its stock is unchanged.
    if (live?.lowStock) c.res.headers.set(LOW_STOCK_HEADER, live.lowStock);
    const forMemory = new Response(null, c.res);
    forMemory.headers.set("x-cache", "HIT");
    remember(key.url, forMemory, body, live, ttlMs, Date.now());
    if (!toShare) return;
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

/** Bumps the catalogue version (in a change's batch); caches keyed by it stop answering the old one. */
export function bumpCatalogueVersion(db: D1Database): D1PreparedStatement {
  return db.prepare("UPDATE versions SET value = value + 1 WHERE name = 'catalogue'");
}
