import type { Context } from "hono";
import { localeCookie, PAGE_CACHEABLE_HEADER, withoutTracking } from "../contract/edge";
import { stockPairs } from "../contract/freshness";
import { localeOfPath } from "../contract/locale";
import { hasSessionCookie } from "./api/session";
import { catalogueVersionOf, stockStillShown } from "./backend-client";
import type { HonoEnv } from "./env";
import { IsolateMemory } from "../contract/server/isolate-memory";

/**
 * The page cache: the rendered answer of a public page, kept in this isolate's memory (and the
 * data centre's Cache API) while the catalogue has not changed, and served to the next anonymous
 * visitors of the same URL (docs/PERFORMANCE.md, "Caching at the edge", "Caches that purge").
 * The same URL but for campaign and click tags (`utm_*`, `gclid`, `fbclid`...: contract/edge.ts
 * `isTrackingParam`) is the same page: no page writes them, and each ad click has its own.
 *
 * Why: rendering a page costs the Worker several milliseconds of CPU (route matching, the loaders,
 * React's render, the hydration payload), while a kept page costs a copy; an isolate serves many
 * requests in a row, so a popular page renders once per catalogue version (at most once per
 * PAGE_TTL_MS) per isolate instead of once per visitor. A hit is answered here, before React Router runs at all.
 *
 * What makes it safe:
 * - A page is kept only when the storefront marked its answer cacheable: the routes that opt in
 *   with `pageCacheMiddleware` (public catalogue and content pages), a GET from a visitor without
 *   a session, a whole 200 HTML document or `.data` payload. Here, a request that carries a session
 *   cookie is never answered from, nor stored in, the cache.
 * - Set-Cookie is never kept; the locale cookie the redirect middleware would set is set on a hit
 *   by the same function (`localeCookie`).
 * - A document carries the CSP nonce of the request that rendered it; a copy gets the serving
 *   request's own nonce in its place, so a nonce is never reused.
 * - The map (IsolateMemory) is capped in entries and bytes, so it cannot eat the isolate's 128 MB.
 * - Cart, checkout, accounts and payments never opt in; the cart re-reads stock from D1. A request
 *   with `Cache-Control: no-cache` (a hard reload; the bench's render rows) renders afresh and
 *   refreshes the entry.
 *
 * Freshness (DESIGN §10: what a shopper acts on is at most a few seconds old: caches
 * that purge). A kept page is never served under another catalogue version than the one it was
 * rendered under. The version (contract/freshness.ts) moves with every change a shopper could see
 * on any page: console edits (names, prices, images, categories, pages...), seeds, and a product
 * going out of stock or coming back (services/catalogue/availability.ts). This isolate asks the backend for
 * it at most once a second (`catalogueVersionOf`, through the backend contract, never D1 itself),
 * and a page is kept under the OLDEST version among its own and those of the catalogue answers
 * its render read, so a render that raced a change is dropped at the next look. So a change shows
 * on every page within about two seconds (the backend's second and this isolate's), while pages
 * nothing changed on keep being served: they live PAGE_TTL_MS, 60 s, which only bounds what the
 * version does not follow:
 * - A sale that leaves a product in stock does not move the version (it would with every order,
 *   and no page would stay kept). What it changes on a page: the "only N left" count, shown at
 *   LOW_STOCK or less. A page remembers the counts its answers showed (LOW_STOCK_HEADER), and
 *   once it is SHORT_TTL_MS (5 s, every page's bound before) past its last check, the next
 *   request asks the backend for those products' stock (`stockStillShown`, one small read;
 *   concurrent requests share it): unchanged, the page is served and checked again 5 s later;
 *   changed (or no answer), it is rendered again. So a count is at most about 5 s old, and the
 *   page is not rendered for it. Left to PAGE_TTL_MS: the quantity picker's maximum above that
 *   count (min(stock, max_per_order)), and a product selling down into the count (6 left to 5)
 *   still saying "In stock", which is true; the cart and checkout refuse more than the stock
 *   with their own message (they read D1).
 * - 60 s, not hours: the memory of idle pages comes back soon, and whatever a backend change might
 *   miss heals within the minute.
 * A backend without the version endpoint gets SHORT_TTL_MS for every page, the old fixed bound.
 *
 * Two tiers: this isolate's memory, then the data centre's Cache API (`caches.default`), shared by
 * every isolate there, so a page is rendered once per colo and version rather than once per
 * isolate. Its key is the URL plus the preferred locale plus the version: a page of an older
 * version is simply never asked for again, and expires on its own (max-age = its TTL). A page is
 * put there as kept in memory: with a marker where the nonce stood, Set-Cookie never. The page is
 * the colo's one copy of what its render read: that render's backend calls say so (`pageShared`,
 * PAGE_KEPT_HEADER in contract/freshness.ts), and the backend keeps their answers in memory only.
 *
 * One render at a time per page and isolate: requests for a page that another request of this
 * isolate is rendering wait for its copy (at most COALESCE_WAIT_MS, then render themselves), so a
 * burst of visitors after a purge, or when a page expires, costs one render and not one each.
 */
export const PAGE_TTL_MS = 60_000;
/** Pages showing an exact low stock count, or kept while the catalogue version is unknown. */
export const SHORT_TTL_MS = 5_000;
const MAX_ENTRIES = 128;
const MAX_BODY_BYTES = 512 * 1024;

interface Page {
  /** When it stops being served (epoch ms); the shared tier's copy expires with it. */
  expires: number;
  status: number;
  headers: [string, string][];
  /** The body as UTF-8, cut where the rendering request's nonce stood (one part when it had none). */
  parts: Uint8Array[];
  size: number;
  /** The catalogue version it was rendered under (null: unknown, kept SHORT_TTL_MS). */
  version: number | null;
  /** The "only N left" counts it shows, `id:stock,...` (LOW_STOCK_HEADER); empty: none. */
  lowStock: string;
  /** When those counts were last known right (epoch ms). */
  checked: number;
}

const pages = new IsolateMemory<Page>(MAX_ENTRIES);

/** How long a request waits for another's render of the same page before rendering itself. */
export const COALESCE_WAIT_MS = 1_000;
/** Pages whose last render was not kept (cart, checkout, a 404...): their requests never wait. */
const notKept = new IsolateMemory<true>(MAX_ENTRIES);
const NOT_KEPT_TTL_MS = 60_000;
/** The renders under way in this isolate, by page key: settled once the copy is kept (or not). */
const rendering = new Map<string, { since: number; done: Promise<void>; finish: () => void }>();

/** Marks this request as the one rendering its page; keepPage (or the wait's end) settles it. */
function startRender(c: Context<HonoEnv>, key: string): void {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const entry = { since: Date.now(), done, finish };
  rendering.set(key, entry);
  c.set("pageRender", () => {
    if (rendering.get(key) === entry) rendering.delete(key);
    finish();
  });
}

/** Another request's render of this page, if one started less than COALESCE_WAIT_MS ago. */
function renderUnderWay(key: string): Promise<void> | undefined {
  const entry = rendering.get(key);
  if (!entry) return undefined;
  // A render that never reached keepPage (an error): forgotten, so no one waits for it again.
  if (Date.now() - entry.since >= COALESCE_WAIT_MS) {
    rendering.delete(key);
    entry.finish();
    return undefined;
  }
  return entry.done;
}
const encoder = new TextEncoder();

function keyOf(c: Context<HonoEnv>): string {
  // The unprefixed home page follows the visitor's preferred locale: it is part of the key.
  return `${c.get("language")} ${pageUrl(c)}`;
}

/** Each request's page URL, worked out once (the memory's key, the colo's key). */
const pageUrls = new WeakMap<Request, string>();

/** The request's URL as pages are kept under it: without campaign and click tags (contract/edge.ts). */
function pageUrl(c: Context<HonoEnv>): string {
  let kept = pageUrls.get(c.req.raw);
  if (kept === undefined) {
    const url = c.req.url;
    const at = url.indexOf("?");
    kept = at < 0 ? url : url.slice(0, at) + withoutTracking(url.slice(at));
    pageUrls.set(c.req.raw, kept);
  }
  return kept;
}

function wantsFresh(c: Context<HonoEnv>): boolean {
  return /no-cache|no-store|max-age=0/.test(c.req.header("cache-control") ?? "");
}

function mayUse(c: Context<HonoEnv>): boolean {
  return c.req.method === "GET" && !hasSessionCookie(c);
}

/** The parts with `between` between each two: one buffer, copies only. */
function joined(parts: Uint8Array[], between: Uint8Array): Uint8Array<ArrayBuffer> {
  let size = between.byteLength * (parts.length - 1);
  for (const part of parts) size += part.byteLength;
  const body = new Uint8Array(size);
  let offset = 0;
  parts.forEach((part, i) => {
    if (i > 0) {
      body.set(between, offset);
      offset += between.byteLength;
    }
    body.set(part, offset);
    offset += part.byteLength;
  });
  return body;
}

/**
 * How common a byte is in a page's HTML (home: about 40 KB, measured): lowercase letters, spaces,
 * quotes and markup's punctuation are everywhere (3); digits hundreds of times each, in prices,
 * sizes and icons' paths (2); capitals a few dozen times each (1); anything else rarely (0).
 */
function commonness(byte: number): number {
  if (byte >= 0x41 && byte <= 0x5a) return 1;
  if (byte >= 0x30 && byte <= 0x39) return 2;
  if ((byte >= 0x61 && byte <= 0x7a) || ' "=/<>-_.:;'.includes(String.fromCharCode(byte))) return 3;
  return 0;
}

/** The position in `mark` of its least common byte (the first such), which `cut` looks for. */
function anchorOf(mark: Uint8Array): number {
  let best = 0;
  for (let i = 1; i < mark.byteLength && commonness(mark[best]) > 0; i++)
    if (commonness(mark[i]) < commonness(mark[best])) best = i;
  return best;
}

/**
 * `bytes` cut at every occurrence of `mark` (views, no copies), as `text.split(mark)` would cut the
 * text. Bytes rather than text: a rendered page was decoded, split and each part encoded again to
 * be kept, then joined and encoded once more for the colo's copy, part of every fresh render's CPU
 * (docs/PERFORMANCE.md, "A fresh render within the CPU budget"). UTF-8 never encodes an ASCII
 * character inside another character's bytes, so an ASCII mark (the nonce is base64) is found
 * where the text has it and nowhere else. The scan looks for the mark's rarest byte (a nonce's
 * capital rather than its first character, which a page may hold hundreds of times) and
 * compares the whole mark around each one, in order, so the cuts are the leftmost as split's.
 */
export function cut(bytes: Uint8Array, mark: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  const offset = anchorOf(mark);
  const anchor = mark[offset];
  let from = 0;
  let at = bytes.indexOf(anchor, from + offset);
  while (at !== -1 && at - offset + mark.byteLength <= bytes.byteLength) {
    const start = at - offset;
    let i = 0;
    while (i < mark.byteLength && bytes[start + i] === mark[i]) i++;
    if (i === mark.byteLength) {
      parts.push(bytes.subarray(from, start));
      from = start + mark.byteLength;
      at = bytes.indexOf(anchor, from + offset);
    } else {
      at = bytes.indexOf(anchor, at + 1);
    }
  }
  parts.push(bytes.subarray(from));
  return parts;
}

/** The kept bytes with this request's nonce between the parts: copies, no string work per hit. */
function build(page: Page, nonce: string): Response {
  return new Response(joined(page.parts, encoder.encode(nonce)), { status: page.status, headers: page.headers });
}

/** Where the rendering request's nonce stood, in the shared tier's copy (no page contains it). */
const NONCE_MARK = "\u0000page-cache-nonce\u0000";
const NONCE_MARK_BYTES = encoder.encode(NONCE_MARK);
/** The shared copy's own facts (status, headers, version, expiry), as JSON in one header. */
const META_HEADER = "x-page-meta";

function sharedCache(): Cache | undefined {
  // The DOM lib's CacheStorage type hides the Workers-only `default` cache; it exists at run time.
  return typeof caches !== "undefined" ? (caches as unknown as { default?: Cache }).default : undefined;
}

/** The colo's key of this page under `version`: its URL with the version and preferred locale added. */
function sharedKey(c: Context<HonoEnv>, version: number): string {
  const url = pageUrl(c);
  return `${url}${url.includes("?") ? "&" : "?"}__page=${version}-${c.get("language")}`;
}

/** The colo's copy of this page under `version`, or undefined (none, expired, unreadable). */
async function fromShared(c: Context<HonoEnv>, version: number): Promise<Page | undefined> {
  const cache = sharedCache();
  if (!cache) return undefined;
  try {
    const hit = await cache.match(sharedKey(c, version));
    if (!hit) return undefined;
    const meta = JSON.parse(hit.headers.get(META_HEADER) ?? "null") as Omit<Page, "parts" | "size"> | null;
    if (!meta || meta.version !== version || meta.expires <= Date.now()) return undefined;
    const parts = cut(new Uint8Array(await hit.arrayBuffer()), NONCE_MARK_BYTES);
    return { ...meta, parts, size: parts.reduce((sum, part) => sum + part.byteLength, 0) };
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", message: "page cache shared read failed", error: String(error) }));
    return undefined;
  }
}

async function toShared(c: Context<HonoEnv>, page: Page): Promise<void> {
  const cache = sharedCache();
  if (!cache || page.version === null) return;
  const { parts, size: _size, ...meta } = page;
  const seconds = Math.max(1, Math.floor((page.expires - Date.now()) / 1000));
  const copy = new Response(joined(parts, NONCE_MARK_BYTES), {
    headers: {
      "content-type": "text/plain",
      "cache-control": `public, max-age=${seconds}`,
      [META_HEADER]: JSON.stringify(meta),
    },
  });
  await cache.put(sharedKey(c, page.version), copy);
}

/** Forgets every page this isolate keeps (tests: what another isolate of the colo would see). */
export function forgetPages(): void {
  pages.clear();
}

/** A kept page for this request, or undefined. */
export async function servePage(c: Context<HonoEnv>, nonce: string): Promise<Response | undefined> {
  if (!mayUse(c)) return undefined;
  // Read before a render too: the version the page will be kept under (keepPage).
  const version = await catalogueVersionOf(c);
  c.set("pageVersion", version);
  const key = keyOf(c);
  // Its render's page goes to the colo's tier (when its route marks it): the reads it makes need
  // no shared copy of their own (backend-client.ts, PAGE_KEPT_HEADER).
  c.set("pageShared", version !== null && !notKept.get(key));
  if (wantsFresh(c)) return undefined;
  let page = pages.get(key);
  // A page rendered under another catalogue version is out of date: rendered again, and replaced.
  if (page && page.version !== version) page = undefined;
  let tier = "memory";
  if (!page && version !== null) {
    page = await fromShared(c, version);
    if (page) {
      tier = "colo";
      pages.set(key, page, page.expires - Date.now());
    }
  }
  if (page && !(await countsStillShown(c, key, page))) page = undefined;
  if (!page && !notKept.get(key)) {
    const underWay = renderUnderWay(key);
    if (underWay) {
      await Promise.race([underWay, new Promise((resolve) => setTimeout(resolve, COALESCE_WAIT_MS))]);
      page = pages.get(key);
      if (page && page.version !== version) page = undefined;
      tier = "waited";
    }
  }
  if (!page) {
    if (!notKept.get(key)) startRender(c, key);
    return undefined;
  }
  const response = build(page, nonce);
  response.headers.set("x-page-cache", "HIT");
  response.headers.set("x-page-cache-tier", tier);
  const cookie = localeCookie(
    c.req.header("cookie") ?? null,
    localeOfPath(c.req.path) ?? (c.get("language") === "ar" ? "ar" : "en"),
  );
  if (cookie) response.headers.append("set-cookie", cookie);
  return response;
}

/** The checks of kept pages' counts under way, by page key: concurrent requests share one. */
const checking = new Map<string, Promise<boolean>>();

/** Whether a kept page's "only N left" counts may be shown as they are (see "Freshness" above). */
async function countsStillShown(c: Context<HonoEnv>, key: string, page: Page): Promise<boolean> {
  if (!page.lowStock || Date.now() - page.checked < SHORT_TTL_MS) return true;
  let check = checking.get(key);
  if (!check) {
    check = stockStillShown(c, page.lowStock).then((same) => {
      if (same) page.checked = Date.now();
      return same;
    });
    checking.set(key, check);
    void check.finally(() => checking.delete(key));
  }
  return check;
}

/** The version a render is kept under, for how long, and the counts it shows (see "Freshness" above). */
function keptAs(c: Context<HonoEnv>): { version: number | null; ttl: number; lowStock: string } {
  const before = c.get("pageVersion") ?? null;
  const read = c.get("catalogueRead");
  const version = before === null ? null : Math.min(before, read?.oldest ?? before);
  const lowStock = read ? stockPairs(read.lowStock) : "";
  return { version, ttl: version === null ? SHORT_TTL_MS : PAGE_TTL_MS, lowStock };
}

async function keep(c: Context<HonoEnv>, body: ReadableStream<Uint8Array>, response: Response, nonce: string) {
  const key = keyOf(c);
  const { version, ttl, lowStock } = keptAs(c);
  const bytes = new Uint8Array(await new Response(body).arrayBuffer());
  // The body cut where the nonce stood, once, for both tiers.
  const parts = nonce ? cut(bytes, encoder.encode(nonce)) : [bytes];
  const size = parts.reduce((sum, part) => sum + part.byteLength, 0);
  if (size > MAX_BODY_BYTES) return;
  const headers = [...response.headers].filter(
    ([name]) => name !== "set-cookie" && name !== "x-page-cache" && name !== "x-page-cache-tier",
  );
  const now = Date.now();
  const page: Page = {
    expires: now + ttl,
    status: response.status,
    headers,
    parts,
    size,
    version,
    lowStock,
    checked: now,
  };
  pages.set(key, page, ttl);
  // The requests waiting for this render are served now; the colo's copy follows.
  c.get("pageRender")?.();
  await toShared(c, page);
}

/**
 * After a render: keeps the answer when the storefront marked it cacheable, and returns the
 * response to send (the same stream, teed).
 */
export function keepPage(c: Context<HonoEnv>, response: Response, nonce: string): Response {
  const finished = c.get("pageRender") ?? (() => undefined);
  const marked = response.headers.has(PAGE_CACHEABLE_HEADER);
  response.headers.delete(PAGE_CACHEABLE_HEADER);
  if (!marked || !mayUse(c) || response.status !== 200 || !response.body) {
    if (mayUse(c)) notKept.set(keyOf(c), true, NOT_KEPT_TTL_MS);
    finished();
    return response;
  }
  const [toVisitor, toKeep] = response.body.tee();
  const stored = keep(c, toKeep, response, nonce)
    .catch((error: unknown) => {
      console.warn(JSON.stringify({ level: "warn", message: "page cache keep failed", error: String(error) }));
    })
    .finally(finished);
  c.executionCtx.waitUntil(stored);
  const served = new Response(toVisitor, response);
  served.headers.set("x-page-cache", wantsFresh(c) ? "BYPASS" : "MISS");
  return served;
}
