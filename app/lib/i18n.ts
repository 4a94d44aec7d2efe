import rosetta from "rosetta";
import { DEFAULT_LOCALE, type Locale } from "./locales";

/**
 * The one i18n module. Messages live in locales/{en,ar}.json with the same keys; templates use
 * rosetta's `{{name}}` placeholders. The server registers both locales up front
 * (i18n.server.ts); the browser loads the active one lazily, and the other on switch.
 */
export type Messages = Record<string, unknown>;
type Params = Record<string, string | number>;

const store = rosetta<Messages>();
const loaded = new Set<Locale>();
const pending = new Map<Locale, Promise<void>>();

// The shop's messages without the operator console's, which only console pages load
// (the console's layout brings them; scripts/lib/locale-parts.ts splits locales/*.json at build time).
const loaders: Record<Locale, () => Promise<{ default: Messages }>> = {
  en: () => import("virtual:locale/en/shop"),
  ar: () => import("virtual:locale/ar/shop"),
};

/**
 * On the server, each message once looked up (rosetta splits the dotted key and
 * walks the tree on every call): a page asks for the same few dozen messages hundreds of times, a
 * share of the Worker's CPU per render (docs/PERFORMANCE.md, "A fresh render within the CPU budget").
 * `import.meta.env.SSR` is a build-time constant: the browser's bundle carries none of it.
 */
const looked = new Map<string, string>();

/**
 * The memo's key: the locale, the key and the parameters as given ("{{count}} products" with a
 * count of 12 is one entry). Parameters come from data (counts, names), so the memo is bounded
 * (`translate`).
 */
function memoKey(locale: Locale, key: string, params: Params | undefined): string | undefined {
  let memo = `${locale}\u0000${key}`;
  if (params)
    for (const name in params) {
      const value = String(params[name]);
      // The separator inside a value could make two calls one key: such a call is not memoised.
      if (value.includes("\u0000")) return undefined;
      memo += `\u0000${name}\u0000${value}`;
    }
  return memo;
}

export function registerMessages(locale: Locale, messages: Messages): void {
  store.set(locale, messages);
  loaded.add(locale);
  if (import.meta.env.SSR) looked.clear();
}

export function isLoaded(locale: Locale): boolean {
  return loaded.has(locale);
}

/** Loads a locale's messages once. Logs `Failed locale loading` on failure and never throws. */
export function loadLocale(locale: Locale): Promise<void> {
  if (loaded.has(locale)) return Promise.resolve();
  let p = pending.get(locale);
  if (!p) {
    p = loaders[locale]()
      .then((mod) => registerMessages(locale, mod.default))
      .catch((error: unknown) => {
        console.error("Failed locale loading", locale, error);
        pending.delete(locale);
      });
    pending.set(locale, p);
  }
  return p;
}

/** Translates a dotted key; a missing key warns and falls back to English, then to the key. */
export function translate(locale: Locale, key: string, params?: Params): string {
  const memo = import.meta.env.SSR ? memoKey(locale, key, params) : undefined;
  if (memo !== undefined) {
    const known = looked.get(memo);
    if (known !== undefined) return known;
  }
  const value = loaded.has(locale) ? store.t(key, params, locale) : "";
  if (value) {
    // Keys are the code's own, a few hundred, times the parameters' values: the bound keeps data from growing it.
    if (memo !== undefined) {
      if (looked.size >= 4096) looked.clear();
      looked.set(memo, value);
    }
    return value;
  }
  if (loaded.has(locale)) console.warn(`[i18n] missing message "${key}" for ${locale}`);
  const fallback = locale !== DEFAULT_LOCALE && loaded.has(DEFAULT_LOCALE) ? store.t(key, params, DEFAULT_LOCALE) : "";
  return fallback || key;
}

export type Translate = (key: string, params?: Params) => string;

const translators = new Map<Locale, Translate>();

/** The translate function of a locale: one per locale, so components may ask for it on every render. */
export function translator(locale: Locale): Translate {
  let t = translators.get(locale);
  if (!t) translators.set(locale, (t = (key, params) => translate(locale, key, params)));
  return t;
}

/** Loads a locale for display; when it cannot be loaded, English is loaded as the fallback. */
export async function ensureLocale(locale: Locale): Promise<void> {
  await loadLocale(locale);
  if (!loaded.has(locale) && locale !== DEFAULT_LOCALE) await loadLocale(DEFAULT_LOCALE);
}
