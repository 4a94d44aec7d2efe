import type { MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import type { HonoEnv } from "../env";

/**
 * LOOKUP_URL (spec §7's separate lookup base URL) when it is an absolute http(s) URL, without its
 * trailing slash; null when unset or not one (the browser's lookups then use the backend base).
 */
export function lookupBase(env: { LOOKUP_URL?: string }): string | null {
  const raw = env.LOOKUP_URL?.trim();
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href.replace(/\/+$/, "") : null;
  } catch {
    return null;
  }
}

const cspFor = new Map<string, MiddlewareHandler<HonoEnv>>();

/**
 * Security headers on every response, the lookup origin allowed to `connect-src` when
 * LOOKUP_URL names one (one middleware per distinct value, made once). A response that set its
 * own Content-Security-Policy keeps it: those are stricter than the pages' (an uploaded image or
 * the generated art, `default-src 'none'`), and the pages' policy would let scripts run in them.
 */
export const securityHeaders = (): MiddlewareHandler<HonoEnv> => async (c, next) => {
  const lookup = lookupBase(c.env);
  const origin = lookup ? new URL(lookup).origin : "";
  let handler = cspFor.get(origin);
  if (!handler) cspFor.set(origin, (handler = headersWith(origin ? [origin] : [])));
  let own: string | null = null;
  await handler(c, async () => {
    await next();
    own = c.res.headers.get("content-security-policy");
  });
  if (own) c.res.headers.set("content-security-policy", own);
};

/**
 * Turnstile's origin, allowed what its widget needs and nothing more: its script (for browsers
 * without 'strict-dynamic') and its challenge frame (contract/challenge.ts). The widget loads only
 * when the backend asked a busy network for a challenge.
 */
const TURNSTILE_ORIGIN = "https://challenges.cloudflare.com";

/**
 * Security headers on every response. Scripts run only with the per-request nonce (plus what
 * those scripts load, through 'strict-dynamic'); no 'unsafe-inline' for scripts.
 */
const headersWith = (connectOrigins: string[]): MiddlewareHandler<HonoEnv> =>
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: [NONCE, "'strict-dynamic'", TURNSTILE_ORIGIN],
      // Inline styles: sonner injects its stylesheet and React sets style attributes.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", ...connectOrigins],
      // Frames fall back to default-src 'self' otherwise; Turnstile draws its challenge in one.
      frameSrc: ["'self'", TURNSTILE_ORIGIN],
      manifestSrc: ["'self'"],
      workerSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    strictTransportSecurity: "max-age=63072000; includeSubDomains",
    referrerPolicy: "strict-origin-when-cross-origin",
    xFrameOptions: "DENY",
    xContentTypeOptions: "nosniff",
    crossOriginOpenerPolicy: "same-origin",
    crossOriginResourcePolicy: "same-origin",
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
