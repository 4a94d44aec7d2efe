/**
 * The phone helpers that need no numbering metadata: strict-mode text, phone-style keys, the
 * country search's text folding and type-ahead. Kept apart from libphonenumber-js so forms that
 * only filter keys do not load the metadata (it loads with the phone input itself).
 */

/**
 * Spec §9: the default fallback country is `us` (libphonenumber spells codes upper case): what a
 * phone input told nothing starts with.
 */
export const DEFAULT_COUNTRY = "US" as const;

/**
 * The shop's own country, which every form of the shop tells its phone field to start with: the
 * shop sells and delivers in Saudi Arabia (contract/delivery.ts), so that is where its shoppers'
 * numbers are.
 */
export const SHOP_COUNTRY = "SA" as const;

/** Spec §9: the country search is debounced 100 ms and the type-ahead buffer resets after 1 s. */
export const COUNTRY_SEARCH_DEBOUNCE_MS = 100;
export const TYPE_AHEAD_RESET_MS = 1000;

/** Arabic-Indic (٠-٩) and extended Arabic-Indic (۰-۹) digits become Latin digits. */
export function toLatinDigits(value: string): string {
  return value.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String((d.charCodeAt(0) & 0xf) % 10));
}

/** Strict mode: only digits and one leading plus survive; everything else is dropped. */
export function sanitizePhoneInput(raw: string): string {
  const latin = toLatinDigits(raw).trimStart();
  const plus = latin.startsWith("+") ? "+" : "";
  return plus + latin.replace(/\D/g, "");
}

/**
 * The keys a phone-style field lets through (spec §5): digits (Latin and Arabic-Indic, which the
 * field reads as Latin), plus, Backspace and Delete. Every other key is blocked (forms.ts
 * `phoneKeyDown`, which also lets Tab leave the field).
 */
export function isPhoneKey(key: string): boolean {
  return /^[0-9\u0660-\u0669\u06F0-\u06F9+]$/.test(key) || key === "Backspace" || key === "Delete";
}

export function normalizeSearch(value: string): string {
  return toLatinDigits(value)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f\u064B-\u0655\u0670]/g, "")
    .replace(/[إأآا]/g, "ا")
    .replace(/ة/g, "ه")
    .replace(/ى/g, "ي")
    .toLowerCase()
    .trim();
}

/**
 * Type-ahead over a list, as native selects do: characters typed within `resetMs` of each other
 * build one search string; after a pause the buffer starts again.
 */
export function createTypeAhead(resetMs = TYPE_AHEAD_RESET_MS) {
  let buffer = "";
  let last = -Infinity;
  return {
    /** Adds a typed character and answers the buffer to search with. */
    push(char: string, now: number): string {
      buffer = now - last > resetMs ? char : buffer + char;
      last = now;
      return buffer;
    },
    current(now: number): string {
      return now - last > resetMs ? "" : buffer;
    },
  };
}
