import { parse, serialize } from "cookie";
import type { MiddlewareFunction } from "react-router";
import { isLocale, LOCALE_COOKIE } from "../lib/locales";
import { shopContext } from "../lib/context";

const ONE_YEAR = 60 * 60 * 24 * 365;

/**
 * The `redirect` middleware: remembers the visitor's locale in the `i18n_redirected` cookie, set
 * on the first visit and whenever the visitor moves to the other locale, so `/` opens in it.
 */
export const redirectMiddleware: MiddlewareFunction<Response> = async ({ request, params, context }, next) => {
  const response = await next();
  const locale = isLocale(params.locale) ? params.locale : context.get(shopContext).preferredLocale;
  const current = parse(request.headers.get("cookie") ?? "")[LOCALE_COOKIE];
  if (current !== locale) {
    response.headers.append(
      "set-cookie",
      serialize(LOCALE_COOKIE, locale, { path: "/", maxAge: ONE_YEAR, sameSite: "lax" }),
    );
  }
  return response;
};
