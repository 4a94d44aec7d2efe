import { say, type Bilingual } from "../../../contract/server/i18n";
import type { Locale as Lang } from "../../../contract/locale";
import ar from "./ar.json";
import en from "./en.json";

/**
 * The backend's message catalogue: every answer, refusal and label the backend writes for a
 * shopper or a staff member, and the texts of the messages it sends, in en.json and ar.json beside
 * this file. The backend keeps its own words rather than reading the storefront's locale files, so
 * either side can be replaced without the other.
 *
 * - Keys are nested by area (accounts, orders, payments, console, settings, content, mail...),
 *   camelCase; a key names what the message says, not where it is shown.
 * - `{name}` placeholders are filled by `say(lang, msg(key), { name })` or `msg(key, { name })`.
 *   The `mail` area writes them `{{name}}`, as the console shows them to the owner who rewords the
 *   order messages (services/messages/mail.ts fills them).
 * - `msg` takes a key typed from en.json, so a misspelt key fails the typecheck.
 * - test/node/backend-messages.test.ts holds both files to the same keys and placeholders, no
 *   empty text, every key used by the backend, and no bilingual text written inline in its code.
 */

/** Every dotted path to a text in the catalogue, e.g. `"orders.promo.usedUp"`. */
type Paths<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Paths<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** The catalogue's shape (en.json's; ar.json holds the same keys). */
export type Catalogue = typeof en;

export type MessageKey = Paths<Catalogue>;

const CATALOGUE: Record<Lang, unknown> = { en, ar };

function lookup(lang: Lang, key: string): string {
  const text = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], CATALOGUE[lang]);
  // Unreachable for a typed key while the parity test holds; a loud failure beats a blank answer.
  if (typeof text !== "string") throw new Error(`No ${lang} message ${key}`);
  return text;
}

/** A message in both languages; `params` fill its `{name}` placeholders in both. */
export function msg(key: MessageKey, params?: Record<string, string | number>): Bilingual {
  const message = { en: lookup("en", key), ar: lookup("ar", key) };
  return params ? { en: say("en", message, params), ar: say("ar", message, params) } : message;
}
