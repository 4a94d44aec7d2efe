import { data, type RouterContextProvider } from "react-router";
import type { Envelope } from "./api/client";
import { handleServerError } from "./api/server";
import { shopContext } from "./context";
import { isLocale, type Locale } from "./locales";

/**
 * For the storefront's public loaders: every failure goes through the common handler of spec §8,
 * so a backend 404 (an unknown product, page or service) redirects to /error like everywhere
 * else; anything that did not redirect surfaces with its status and message.
 */
export function failLoad(error: unknown, locale: Locale): never {
  const handled = handleServerError(error, locale);
  throw data(handled.message, { status: handled.status });
}

/**
 * The locale of a request: the `:locale` segment (validated upstream by the page-validation
 * middleware), else the visitor's preference (the unprefixed home page).
 */
export function routeLocale(params: { locale?: string }, context: Readonly<RouterContextProvider>): Locale {
  return isLocale(params.locale) ? params.locale : context.get(shopContext).preferredLocale;
}

/**
 * Deferred data (Hydrogen's critical/deferred split): a read a page shows below its first paint is
 * started with the critical ones but not awaited; the page streams it in when it arrives (`<Await>`).
 * A failure there shows nothing rather than failing the page.
 */
export function deferred<T>(call: Promise<Envelope<T[]>>): Promise<T[]> {
  return call.then((r) => r.data ?? []).catch(() => [] as T[]);
}
