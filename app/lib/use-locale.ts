import { createContext, use } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import { translator, type Translate } from "./i18n";
import { DEFAULT_LOCALE, LOCALES, localeOfPath, type Locale } from "./locales";

interface RootData {
  preferredLocale: Locale;
}

/**
 * The locale of the page being shown, from the route: the URL prefix, else the visitor's
 * preference, else en. The root's Layout reads it once per render and hands it down through
 * `LocaleContext`.
 */
export function useRouteLocale(): Locale {
  const { pathname } = useLocation();
  const root = useRouteLoaderData("root") as RootData | undefined;
  return localeOfPath(pathname) ?? root?.preferredLocale ?? DEFAULT_LOCALE;
}

/**
 * The page's locale for everything under the root's Layout (root.tsx). A page asks for it a hundred
 * times or more (every card, price, badge and link); reading the location and the root's data for
 * each was a share of a fresh render's CPU (docs/PERFORMANCE.md, "A fresh render within the CPU
 * budget"), reading a context is one lookup.
 */
export const LocaleContext = createContext<Locale | null>(null);

/** The locale of the page being shown (see `useRouteLocale`). Only under the root's Layout. */
export function useLocale(): Locale {
  const locale = use(LocaleContext);
  // Every page renders on the server first, where a component outside the Layout fails loudly; the
  // browser's bundle leaves the check out (`import.meta.env.SSR` is a build-time constant).
  if (import.meta.env.SSR && locale === null)
    throw new Error("useLocale is used outside the root Layout's LocaleContext");
  return locale as Locale;
}

export function useT(): Translate {
  return translator(useLocale());
}

export function useLocaleInfo() {
  return LOCALES[useLocale()];
}

/** Builds a link under the current locale: `href("/products")` → `/ar/products`. */
export function useLocalePath(): (path: string) => string {
  const locale = useLocale();
  return (path: string) => localePath(locale, path);
}

export function localePath(locale: Locale, path: string): string {
  if (path === "/" || path === "") return `/${locale}`;
  return `/${locale}${path.startsWith("/") ? path : `/${path}`}`;
}
