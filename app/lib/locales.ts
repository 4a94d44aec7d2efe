import { isLocale, type Locale } from "../../contract/locale.ts";

export { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, LOCALES, localeOfPath, type Locale } from "../../contract/locale.ts";

export function otherLocale(locale: Locale): Locale {
  return locale === "en" ? "ar" : "en";
}

/** The same path under another locale: `/en/products?x` → `/ar/products?x`; `/` → `/ar`. */
export function switchLocalePath(pathname: string, to: Locale): string {
  const parts = pathname.split("/");
  if (isLocale(parts[1])) {
    parts[1] = to;
    return parts.join("/");
  }
  return pathname === "/" ? `/${to}` : `/${to}${pathname}`;
}

/** Picks en or ar from an Accept-Language header, by quality. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.find((p) => p.trim().startsWith("q="));
      return { lang: tag.trim().toLowerCase().split("-")[0], q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .sort((a, b) => b.q - a.q);
  return ranked.find((r) => isLocale(r.lang) && r.q > 0)?.lang as Locale | undefined;
}
