import { redirect, type MiddlewareFunction } from "react-router";
import { shopContext } from "../lib/context";
import { isLocale } from "../lib/locales";

/**
 * The `auth` middleware (spec §6). On guarded pages an anonymous visitor is sent to
 * `/{locale}/auth/login?redirect={path}`; on the login page a signed-in visitor goes to the profile.
 */
export const authMiddleware: MiddlewareFunction<Response> = async ({ url, params, context }, next) => {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const session = await context.get(shopContext).getSession();
  const onLogin = url.pathname.replace(/\/$/, "").endsWith("/auth/login");
  if (onLogin) {
    if (session) throw redirect(safeRedirect(url.searchParams.get("redirect"), locale) ?? `/${locale}/profile`);
    return next();
  }
  if (!session) {
    throw redirect(`/${locale}/auth/login?redirect=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return next();
};

/** Only same-site paths under a locale are followed after login; anything else is dropped. */
export function safeRedirect(target: string | null | undefined, locale: string): string | null {
  if (!target || !target.startsWith("/") || target.startsWith("//") || target.includes("\\")) return null;
  return /^\/(en|ar)(\/|$|\?)/.test(target) ? target : `/${locale}`;
}
