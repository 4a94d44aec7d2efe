import type { Lang } from "./env";

/** A message the backend shows a shopper, in both languages; `content-language` picks one. */
export interface Bilingual {
  en: string;
  ar: string;
}

/** Picks the caller's language and fills `{name}` placeholders. */
export function say(lang: Lang, message: Bilingual, params: Record<string, string | number> = {}): string {
  return message[lang].replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}
