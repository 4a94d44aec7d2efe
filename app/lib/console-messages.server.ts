import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import type { Locale } from "./locales";

/**
 * The operator console's messages (`console.*` of locales/*.json) for the console's layout to hand
 * the browser with its data: the shop's own message files leave them out
 * (scripts/lib/locale-parts.ts), so shoppers never download them.
 */
export function consoleMessages(locale: Locale): { console: unknown } {
  return { console: (locale === "ar" ? ar : en).console };
}
