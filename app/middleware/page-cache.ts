import type { MiddlewareFunction } from "react-router";
import { PAGE_CACHEABLE_HEADER } from "../../contract/edge";
import { shopContext } from "../lib/context";

/**
 * The `page cache` opt-in: a public page (catalogue, content) that renders the same for every
 * anonymous visitor exports this middleware. It marks the page's whole 200 HTML or `.data`
 * answer to an anonymous GET as cacheable; the Worker's page cache (worker/page-cache.ts) keeps
 * marked answers for a few seconds and serves them before React Router runs. Pages that are not
 * marked (cart, checkout, accounts, forms) are never kept.
 */
export const pageCacheMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const response = await next();
  if (request.method !== "GET" || response.status !== 200) return response;
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("text/html") && !type.startsWith("text/x-script")) return response;
  if ((await context.get(shopContext).getSession()) !== null) return response;
  response.headers.set(PAGE_CACHEABLE_HEADER, "1");
  return response;
};
