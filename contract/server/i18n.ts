import type { Context } from "hono";
import type { Locale } from "../locale";

/**
 * The edge's one i18n module: the reference backend and the own server answer shoppers in the
 * request's language (`content-language`, which the storefront's data layer always sends).
 */

/** A message the edge shows a shopper, in both languages; the request's language picks one. */
export interface Bilingual {
  en: string;
  ar: string;
}

/** The language a request asks to be answered in: Arabic when `content-language` says so, else English. */
export function requestLang(c: Context): Locale {
  return c.req.header("content-language")?.toLowerCase().startsWith("ar") ? "ar" : "en";
}

/** Picks the caller's language and fills `{name}` placeholders. */
export function say(lang: Locale, message: Bilingual, params: Record<string, string | number> = {}): string {
  return message[lang].replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}
