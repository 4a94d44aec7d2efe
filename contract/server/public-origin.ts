/**
 * The shop's public origin: where every absolute link the shop hands out points (order messages,
 * the payment gateway's return and callback addresses, canonical URLs). It comes from
 * configuration only, never from a request header: a link in a message the shop sends must not
 * follow whatever `Origin` or `Host` the request that caused it carried.
 *
 * - Production: PUBLIC_ORIGIN is required and must be an absolute https origin. Without it the
 *   worker serves nothing (middleware/public-origin.ts answers 503), as a missing pepper fails
 *   closed rather than falling back to something an attacker can choose.
 * - Development and test: PUBLIC_ORIGIN when set, else the worker's own URL (the request URL the
 *   runtime routed to this worker, never a header).
 */

/** What the rule reads of the bindings (the backend's and the edge's declare both). */
interface OriginEnv {
  PUBLIC_ORIGIN: string;
  ENVIRONMENT: "production" | "development" | "test";
}

const isDevelopment = (env: Pick<OriginEnv, "ENVIRONMENT">) =>
  env.ENVIRONMENT === "development" || env.ENVIRONMENT === "test";

/** Why PUBLIC_ORIGIN cannot be used here: unset in production, or not an origin this environment accepts. */
export type PublicOriginProblem = "missing" | "invalid";

/** PUBLIC_ORIGIN as an origin (`https://shop.example`, no path or trailing slash), null when unset. */
function configured(env: OriginEnv): { origin: string | null; problem: PublicOriginProblem | null } {
  const raw = (env.PUBLIC_ORIGIN ?? "").trim();
  if (!raw) return { origin: null, problem: isDevelopment(env) ? null : "missing" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { origin: null, problem: "invalid" };
  }
  const schemes = isDevelopment(env) ? ["https:", "http:"] : ["https:"];
  const bare = !url.username && !url.password && url.pathname === "/" && !url.search && !url.hash;
  return schemes.includes(url.protocol) && bare
    ? { origin: url.origin, problem: null }
    : { origin: null, problem: "invalid" };
}

/** What is wrong with this environment's PUBLIC_ORIGIN, or null when links can be built. */
export function publicOriginProblem(env: OriginEnv): PublicOriginProblem | null {
  return configured(env).problem;
}

/** What the operator reads in the log for each problem. */
export const PUBLIC_ORIGIN_HINT: Record<PublicOriginProblem, string> = {
  missing:
    'PUBLIC_ORIGIN is not set: set it to the shop\'s https origin (wrangler.toml [vars], e.g. PUBLIC_ORIGIN = "https://shop.example").',
  invalid:
    "PUBLIC_ORIGIN is not an absolute https origin (scheme and host only, e.g. https://shop.example; http only in development and test).",
};

/**
 * The origin the shop's absolute links start with. `ownUrl` is the worker's own URL (a request's
 * URL, or the one an order was placed through), used only in development and test when
 * PUBLIC_ORIGIN is unset. Throws when there is none: a message is then retried, never sent with a
 * link to somewhere else.
 */
export function publicOrigin(env: OriginEnv, ownUrl?: string | null): string {
  const { origin, problem } = configured(env);
  if (origin) return origin;
  if (!problem && ownUrl) return new URL(ownUrl).origin;
  throw new Error(PUBLIC_ORIGIN_HINT[problem ?? "missing"]);
}
