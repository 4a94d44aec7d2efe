import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { timing } from "hono/timing";
import { createRequestHandler, RouterContextProvider, type RequestHandler } from "react-router";
import { shopContext } from "../contract/edge";
import { apiApp } from "./api";
import { readSession } from "./api/session";
import { callBackend, catalogueVersionOf, externalBackend, forwardToBackend } from "./backend-client";
import { backendApp, queue, scheduled } from "./backend";
import { backendBodyLimit } from "../contract/server/body-limit";
import { errorBody } from "../contract/server/errors";
import { foreignWrite, foreignWriteAnswer } from "../contract/server/same-origin";
import { buildsApp } from "./builds";
import type { Env, HonoEnv } from "./env";
import { keepBookmark } from "./middleware/bookmark";
import { lookupBase, securityHeaders } from "./middleware/headers";
import { localeDetector } from "./middleware/locale";
import { requirePublicOrigin } from "./middleware/public-origin";
import { publicOrigin } from "../contract/server/public-origin";
import { manifestApp } from "./manifest";
import { keepPage, servePage } from "./page-cache";

/**
 * The storefront's request handler, made once per isolate. Handing React Router the build
 * *object* matters: given a function, it re-derives its route tables and static handler on
 * every request (about 0.5 ms of CPU per page, measured by the bench's profile).
 */
let ssrHandler: RequestHandler | undefined;
async function ssr(request: Request, context: RouterContextProvider): Promise<Response> {
  ssrHandler ??= createRequestHandler(await import("virtual:react-router/server-build"), import.meta.env.MODE);
  return ssrHandler(request, context);
}

/** RUM_SAMPLE_RATE as a share of visits, 0 to 1; unset or not a number: 0.1 (wrangler.toml). */
function rumSampleRate(env: Env): number {
  const rate = Number(env.RUM_SAMPLE_RATE ?? "0.1");
  return Number.isFinite(rate) && env.RUM_SAMPLE_RATE !== "" ? Math.min(1, Math.max(0, rate)) : 0.1;
}

const app = new Hono<HonoEnv>();

app.use(requestId());
app.use(timing({ crossOrigin: false }));
app.use(securityHeaders());
// Production without its public origin serves nothing (lib/public-origin.ts).
app.use(requirePublicOrigin());
// The shopper's D1 bookmark: sent on their backend calls, kept from the answers to their writes.
app.use(keepBookmark());

// With BACKEND_URL set, the configured backend answers the browser's /backend calls through the
// shop's origin; otherwise the reference backend runs here, in-process.
app.use("/backend/*", backendBodyLimit());
app.use("/backend/*", async (c, next) => {
  const external = externalBackend(c.env);
  if (!external) return next();
  // The shop's own origin is known here, not at a backend on another host: a state change from
  // another site is refused before it is forwarded (the in-process backend checks its own).
  if (foreignWrite(c)) return foreignWriteAnswer(c);
  return forwardToBackend(c, external);
});
app.route("/backend", backendApp);
app.route("/api", apiApp);
app.route("/builds", buildsApp);
app.route("/", manifestApp);
// An unknown /api or /backend path is a JSON 404, never a page from the storefront.
app.all("/api/*", (c) => c.json({ message: "Not found" }, 404));
app.all("/backend/*", (c) => c.json({ message: "Not found" }, 404));

app.all("*", localeDetector(), async (c) => {
  const id = c.get("requestId");
  const nonce = c.get("secureHeadersNonce") ?? "";
  const kept = await servePage(c, nonce);
  if (kept) {
    kept.headers.set("x-request-id", id);
    kept.headers.set("cache-control", "no-cache");
    return kept;
  }
  const url = new URL(c.req.url);
  const context = new RouterContextProvider();
  let session: ReturnType<typeof readSession> | undefined;
  context.set(shopContext, {
    requestId: id,
    nonce,
    origin: publicOrigin(c.env, url.href),
    preferredLocale: c.get("language") === "ar" ? "ar" : "en",
    environment: c.env.ENVIRONMENT,
    rumSampleRate: rumSampleRate(c.env),
    // In-process to the built-in backend, or HTTP when BACKEND_URL is set (one place decides).
    backend: (path, init) => callBackend(c, path, init),
    // The browser always calls the shop's own /backend, forwarded to BACKEND_URL when it is set.
    publicBackendBase: "/backend",
    publicLookupBase: lookupBase(c.env) ?? "/backend",
    catalogueVersion: () => catalogueVersionOf(c),
    getSession: () => (session ??= readSession(c)),
    waitUntil: (p) => c.executionCtx.waitUntil(p),
  });
  const response = keepPage(c, await ssr(c.req.raw, context), nonce);
  response.headers.set("x-request-id", id);
  // Documents and their single-fetch payloads (`.data`, text/x-script) carry the visitor's
  // signed-in state, and documents a per-request nonce: never stored by shared caches
  // (docs/PERFORMANCE.md, "Caching at the edge"). Resource routes keep their own policy.
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("text/html") || type.startsWith("text/x-script")) {
    // A signed-in visitor's page may carry their data (the account pages hand the tab its
    // token): no cache at all may keep it.
    const signedIn = session !== undefined && (await session) !== null;
    response.headers.set("cache-control", signedIn ? "private, no-store" : "no-cache");
  }
  return response;
});

app.onError((err, c) => {
  const { status, body } = errorBody(err, c.get("requestId"));
  if (status >= 500)
    console.error(
      JSON.stringify({ level: "error", request_id: c.get("requestId"), path: c.req.path, error: String(err) }),
    );
  return c.json(body, status);
});

// Requests, the order messages' queues and the cron (worker/backend/jobs.ts).
export default { fetch: app.fetch, queue, scheduled } satisfies ExportedHandler<Env>;
