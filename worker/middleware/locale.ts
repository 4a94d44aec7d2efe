import { languageDetector } from "hono/language";

/**
 * The visitor's preferred locale for unprefixed paths such as `/`: the `i18n_redirected` cookie,
 * else Accept-Language, else en. Prefixed paths carry their own locale.
 */
export const localeDetector = () =>
  languageDetector({
    supportedLanguages: ["en", "ar"],
    fallbackLanguage: "en",
    order: ["cookie", "header"],
    lookupCookie: "i18n_redirected",
    caches: false,
  });
