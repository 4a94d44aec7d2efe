import type { MiddlewareFunction } from "react-router";
import { localeCookie } from "../../contract/edge";
import { shopContext } from "../lib/context";
import { isLocale } from "../lib/locales";

/**
 * The `redirect` middleware: remembers the visitor's locale in the `i18n_redirected` cookie
 * (see `localeCookie`), so `/` opens in it.
 */
export const redirectMiddleware: MiddlewareFunction<Response> = async ({ request, params, context }, next) => {
  const response = await next();
  const locale = isLocale(params.locale) ? params.locale : context.get(shopContext).preferredLocale;
  const cookie = localeCookie(request.headers.get("cookie"), locale);
  if (cookie) response.headers.append("set-cookie", cookie);
  return response;
};
