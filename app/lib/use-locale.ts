import { useMemo } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import { translator, type Translate } from "./i18n";
import { DEFAULT_LOCALE, LOCALES, localeOfPath, type Locale } from "./locales";

interface RootData {
  preferredLocale: Locale;
}

/** The locale of the page being shown: the URL prefix, else the visitor's preference, else en. */
export function useLocale(): Locale {
  const { pathname } = useLocation();
  const root = useRouteLoaderData("root") as RootData | undefined;
  return localeOfPath(pathname) ?? root?.preferredLocale ?? DEFAULT_LOCALE;
}

export function useT(): Translate {
  const locale = useLocale();
  return useMemo(() => translator(locale), [locale]);
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
