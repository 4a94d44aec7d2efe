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
 * A list a page can do without (a row of products, the services): its failure shows nothing rather
 * than failing the page. A page either streams it in under `<Await>` (Hydrogen's critical/deferred
 * split: the "Find a product" page's popular row) or awaits it beside its critical read (home:
 * routes/home.tsx says why).
 */
export function optionalList<T>(call: Promise<Envelope<T[]>>): Promise<T[]> {
  return call.then((r) => r.data ?? []).catch(() => [] as T[]);
}
