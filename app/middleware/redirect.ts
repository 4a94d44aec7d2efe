import { parse, serialize } from "cookie";
import type { MiddlewareFunction } from "react-router";
import { isLocale, LOCALE_COOKIE, type Locale } from "../lib/locales";
import { shopContext } from "../lib/context";

const ONE_YEAR = 60 * 60 * 24 * 365;

/**
 * The locale cookie to set for a visitor now on a page in `locale`, or null when the cookie
 * already says so: set on the first visit and whenever the visitor moves to the other locale.
 * Shared by the redirect middleware and the Worker's page cache, which answers before it runs.
 */
export function localeCookie(cookieHeader: string | null, locale: Locale): string | null {
  const current = parse(cookieHeader ?? "")[LOCALE_COOKIE];
  return current === locale ? null : serialize(LOCALE_COOKIE, locale, { path: "/", maxAge: ONE_YEAR, sameSite: "lax" });
}

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
