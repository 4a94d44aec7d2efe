import type { Context } from "hono";
import { BOOKMARK_HEADER } from "../contract/bookmark";
import { deviceTypeFromHeaders, localeFromHeaders } from "../contract/edge";
import { EDGE_SECRET_HEADER, VISITOR_IP_HEADER } from "../contract/edge-caller";
import {
  CATALOGUE_STOCK_PATH,
  CATALOGUE_VERSION_HEADER,
  CATALOGUE_VERSION_PATH,
  LOW_STOCK_HEADER,
  PAGE_KEPT_HEADER,
  parseStockPairs,
  stockPairs,
} from "../contract/freshness";
import { backendApp } from "./backend";
import type { HonoEnv } from "./env";
import { ReadAhead } from "./backend/lib/read-ahead";
import { noteBookmark, visitorBookmark } from "./middleware/bookmark";

/**
 * The one transport from the edge to the commerce backend, for SSR loaders and the own server
 * alike: the reference backend in-process by default, any backend over HTTP when BACKEND_URL is
 * set. Nothing else at the edge reaches the backend, so an operator can swap it (DESIGN §10).
 */

function executionCtx(c: Context<HonoEnv>): Context<HonoEnv>["executionCtx"] | undefined {
  try {
    return c.executionCtx;
  } catch {
    // No execution context (e.g. app.request in a test): the backend runs without waitUntil.
    return undefined;
  }
}

/**
 * Calls the commerce backend the way the storefront does: in-process by default, over HTTP when
 * BACKEND_URL is set. The own server uses it to check tokens and to proxy cart calls.
 */
export async function callBackend(c: Context<HonoEnv>, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("accept", "application/json");
  const requestId = c.get("requestId");
  if (requestId) headers.set("x-request-id", requestId);
  // The visitor's own address, set by Cloudflare on the outer request, so the backend's per-network
  // limits count each visitor of a server-rendered form apart (never taken from the caller's init).
  const visitor = c.req.header("cf-connecting-ip");
  if (visitor) headers.set("cf-connecting-ip", visitor);
  else headers.delete("cf-connecting-ip");
  // A backend on another zone sees the worker's address in cf-connecting-ip: the edge vouches for
  // the visitor's own in a header of its own.
  vouch(headers, c.env.EDGE_SECRET, visitor);
  // Spec §7: every backend call carries the content language and the device type. A call made for
  // a visitor takes them from the visitor's request unless the caller set them itself.
  if (!headers.has("content-language")) headers.set("content-language", localeFromHeaders(c.req.raw.headers));
  if (!headers.has("device-type")) headers.set("device-type", String(deviceTypeFromHeaders(c.req.raw.headers)));
  // The visitor's D1 bookmark, so the backend reads at least their own last write; the answer's
  // bookmark, after a write, is kept for their next calls (middleware/bookmark.ts).
  const bookmark = visitorBookmark(c);
  if (bookmark && !headers.has(BOOKMARK_HEADER)) headers.set(BOOKMARK_HEADER, bookmark);
  // A render whose page the page cache keeps in the data centre's tier tells the backend that its
  // answers need no shared copy of their own (contract/freshness.ts).
  if (c.get("pageShared")) headers.set(PAGE_KEPT_HEADER, "1");
  const external = externalBackend(c.env);
  const res = external
    ? await fetch(`${external}${path}`, { ...init, headers })
    : await backendApp.request(path, { ...init, headers }, c.env, executionCtx(c));
  noteBookmark(c, res);
  noteCatalogueAnswer(c, res.headers);
  return res;
}

/**
 * What the catalogue answers of this request said about their freshness (contract/freshness.ts):
 * the oldest catalogue version one was built under, and the products shown with an exact low
 * stock count. The page cache keeps the page it rendered by it (worker/page-cache.ts).
 */
function noteCatalogueAnswer(c: Context<HonoEnv>, headers: Headers): void {
  const version = headers.get(CATALOGUE_VERSION_HEADER);
  if (version === null) return;
  const read = c.get("catalogueRead") ?? { oldest: null, lowStock: new Map<string, number>() };
  const n = Number(version);
  if (Number.isFinite(n) && (read.oldest === null || n < read.oldest)) read.oldest = n;
  const low = headers.get(LOW_STOCK_HEADER);
  if (low) for (const [id, stock] of parseStockPairs(low)) read.lowStock.set(id, stock);
  c.set("catalogueRead", read);
}

/**
 * Whether the products of `pairs` (`id:stock,...`, as LOW_STOCK_HEADER) still have that stock,
 * asked of the backend (`GET /backend/catalogue/stock`). False when it cannot say (an error, or a
 * backend without the endpoint): the page is then rendered again, which is always right.
 */
export async function stockStillShown(c: Context<HonoEnv>, pairs: string): Promise<boolean> {
  const shown = parseStockPairs(pairs);
  try {
    const res = await callBackend(c, `${CATALOGUE_STOCK_PATH}?ids=${[...shown.keys()].join(",")}`);
    if (!res.ok) return false;
    const body = (await res.json()) as { data?: Record<string, number> };
    const now = new Map(Object.entries(body.data ?? {}));
    return stockPairs(now) === stockPairs(shown);
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", message: "page cache stock check failed", error: String(error) }));
    return false;
  }
}

/** How long an isolate trusts the catalogue version it asked the backend for. */
export const VERSION_TTL_MS = 1_000;
const knownVersion = new ReadAhead<number | null>(VERSION_TTL_MS);

/**
 * The catalogue version as the backend says it (`GET /backend/catalogue/version`), asked at most
 * once per VERSION_TTL_MS per isolate (concurrent requests share the one question), and again
 * after an answer once half that old (`ReadAhead`): a kept page is checked against it without a
 * read of its own, and a busy isolate's pages never wait for the question. Null when the backend
 * has no such endpoint (an operator's own backend may not): the page cache then keeps pages only
 * briefly. When the backend cannot answer, the last version known stands.
 */
export function catalogueVersionOf(c: Context<HonoEnv>): Promise<number | null> {
  const ctx = executionCtx(c);
  return knownVersion.get(() => askVersion(c), ctx && ((task) => ctx.waitUntil(task)));
}

async function askVersion(c: Context<HonoEnv>): Promise<number | null> {
  try {
    const res = await callBackend(c, CATALOGUE_VERSION_PATH);
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`status ${res.status}`);
    const body = (await res.json()) as { data?: { version?: unknown } };
    const n = Number(body.data?.version);
    return Number.isFinite(n) ? n : null;
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", message: "catalogue version read failed", error: String(error) }));
    return knownVersion.last ?? null;
  }
}

/** Forgets the version this isolate knows (tests that bump it and look at once). */
export function forgetKnownVersion(): void {
  knownVersion.forget();
}

/**
 * The own server's calls: an unreachable backend becomes a clean 503 answer for the browser
 * instead of an exception (the storefront's loaders use `callBackend`, where "no response" is
 * its own case in the spec's error handler).
 */
export async function callBackendOrUnavailable(
  c: Context<HonoEnv>,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  try {
    return await callBackend(c, path, init);
  } catch (error) {
    return backendUnreachable(c, path, error);
  }
}

/** The clean answer, and the log line, for a backend that could not be reached at all. */
function backendUnreachable(c: Context<HonoEnv>, path: string, error: unknown): Response {
  console.error(
    JSON.stringify({
      level: "error",
      request_id: c.get("requestId"),
      event: "backend.unreachable",
      path,
      error: String(error),
    }),
  );
  return Response.json({ message: "The service is briefly unavailable. Please try again." }, { status: 503 });
}

/** BACKEND_URL without a trailing slash, or null for the reference backend in-process. */
export function externalBackend(env: HonoEnv["Bindings"]): string | null {
  return env.BACKEND_URL ? env.BACKEND_URL.replace(/\/$/, "") : null;
}

/**
 * The edge's word to the backend (contract/edge-caller.ts): EDGE_SECRET and the visitor's address
 * as Cloudflare saw it, when the secret is set; never what a caller wrote in those headers.
 */
function vouch(headers: Headers, secret: string | undefined, visitor: string | null | undefined): void {
  headers.delete(EDGE_SECRET_HEADER);
  headers.delete(VISITOR_IP_HEADER);
  if (!secret) return;
  headers.set(EDGE_SECRET_HEADER, secret);
  if (visitor) headers.set(VISITOR_IP_HEADER, visitor);
}

/** Request headers that belong to the visitor's connection to the shop, not to the backend. */
const HOP_HEADERS = ["host", "cookie", "connection", "keep-alive", "transfer-encoding", "upgrade", "content-length"];

/**
 * What a forwarded call carries: the browser's headers without those of its connection to the
 * shop (cookies included: the own-server session is none of the backend's business), the request
 * id, and the visitor's address for the backend's per-network limits (a backend on another zone
 * sees the worker's address in cf-connecting-ip): as `x-forwarded-for`, and, with EDGE_SECRET
 * set, in the edge's own header beside the secret (contract/edge-caller.ts). Only the address
 * Cloudflare saw: one the caller wrote would let anyone pick the network they are counted under.
 */
export function forwardedHeaders(incoming: Headers, requestId: string | undefined, edgeSecret?: string): Headers {
  const headers = new Headers(incoming);
  for (const name of HOP_HEADERS) headers.delete(name);
  headers.delete("x-forwarded-for");
  const visitor = incoming.get("cf-connecting-ip");
  if (visitor) headers.set("x-forwarded-for", visitor);
  vouch(headers, edgeSecret, visitor);
  if (requestId) headers.set("x-request-id", requestId);
  return headers;
}

/**
 * The browser's `/backend/*` calls (catalogue reads, cart, checkout, payment pages, product art)
 * when BACKEND_URL is set: forwarded to the configured backend, so the browser only ever talks to
 * the shop's own origin. The CSP stays `'self'`, the service worker's `/backend` rules keep
 * matching, and no CORS is needed (DESIGN §10; README "Configuration").
 */
export async function forwardToBackend(c: Context<HonoEnv>, external: string): Promise<Response> {
  const url = new URL(c.req.url);
  const target = `${external}${url.pathname.replace(/^\/backend/, "") || "/"}${url.search}`;
  const headers = forwardedHeaders(c.req.raw.headers, c.get("requestId"), c.env.EDGE_SECRET);
  const method = c.req.method;
  // Read before the call, outside its error handling: a body over the edge's limit is a 413
  // (worker/index.ts), not an unreachable backend.
  const body = method === "GET" || method === "HEAD" ? undefined : await c.req.raw.arrayBuffer();
  try {
    const res = await fetch(target, { method, headers, body, redirect: "manual" });
    // A fresh response, so the edge's own headers (CSP, request id) can be set on it.
    return new Response(res.body, res);
  } catch (error) {
    return backendUnreachable(c, url.pathname, error);
  }
}
