// The shop's two locales as both the edge (worker/) and the storefront (app/) name them: the
// codes, the cookie that remembers the visitor's choice, and the locale of a path. No
// dependencies, so the storefront's first-load chunk pays nothing for it.

export type Locale = "en" | "ar";
export const DEFAULT_LOCALE: Locale = "en";
export const LOCALE_COOKIE = "i18n_redirected";
/** The shop's clock: its days, and the times in its pages and messages (UTC+3, no daylight saving). */
export const SHOP_TIME_ZONE = "Asia/Riyadh";

/** The shop's two locales (spec §3 "Locales"): how each is written and laid out. */
export const LOCALES = {
  en: { code: "en", tag: "en-US", dir: "ltr", name: "English" },
  ar: { code: "ar", tag: "ar-SA", dir: "rtl", name: "العربية" },
} as const satisfies Record<Locale, { code: Locale; tag: string; dir: "ltr" | "rtl"; name: string }>;

export function isLocale(value: unknown): value is Locale {
  return value === "en" || value === "ar";
}

/** The locale a path is under (`/ar/products` → ar), or undefined for unprefixed paths. */
export function localeOfPath(pathname: string): Locale | undefined {
  const first = pathname.split("/")[1];
  return isLocale(first) ? first : undefined;
}
