import type { Context } from "hono";

/** What the check reads of a request: the own server's, the backend's or the edge's context alike. */
interface Caller {
  req: { method: string; url: string; header(name: string): string | undefined };
  env: { PUBLIC_ORIGIN: string } | undefined;
}

/**
 * Where a state change may come from, for every part of the shop a browser calls with something
 * it attaches by itself (the own server's session cookie under /api; Cloudflare Access's cookie,
 * which Access turns into a console identity, under /backend). One check, so both refuse alike.
 */

const SAFE_METHOD = /^(GET|HEAD|OPTIONS)$/;

/** The shop's own origin: the request's, or PUBLIC_ORIGIN when the shop sits behind another name. */
export function allowedOrigin(origin: string, c: Caller): boolean {
  const publicOrigin = c.env?.PUBLIC_ORIGIN;
  return origin === new URL(c.req.url).origin || (!!publicOrigin && origin === publicOrigin.replace(/\/$/, ""));
}

/**
 * Whether a state change comes from another site. The browser's own word first: `Sec-Fetch-Site`
 * (no page can set it) of `cross-site`, or `same-site` (a sibling subdomain, which SameSite=Lax
 * cookies still go with), is refused; `same-origin` passes whatever `Origin` says, since a page
 * under `Referrer-Policy: no-referrer` (the sandbox's card page) posts its forms with `Origin: null`.
 * A browser that sends no `Sec-Fetch-Site` is judged by `Origin`. A call with neither is not a
 * browser's (a payment gateway's webhook, the storefront's own server-side calls, a tool): what
 * authenticates it is nothing a browser attaches by itself.
 */
export function foreignWrite(c: Caller): boolean {
  if (SAFE_METHOD.test(c.req.method)) return false;
  const site = c.req.header("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") return true;
  if (site === "same-origin") return false;
  const origin = c.req.header("origin");
  return origin !== undefined && !allowedOrigin(origin, c);
}

/** The answer to a refused cross-site state change. */
export const foreignWriteAnswer = (c: Context) => c.json({ message: "Forbidden" }, 403);
