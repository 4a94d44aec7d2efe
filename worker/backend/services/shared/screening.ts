import type { ReviewsSettings } from "../../../../contract/settings";
import { foldArabic } from "../catalogue/arabic";

/**
 * The screening of what shoppers write for others to read (a review's title and body, a question
 * or an answer) before it is published. A finding never refuses the text; it goes to its `flags`,
 * which the console shows. Reviews screen by the store's `reviews` settings, and under their
 * `clean` rule a flagged review waits for a moderator; questions and answers always wait, so they
 * screen for everything but the word list.
 *
 * - `link`: a scheme (`https://`, `ftp://`), `www.`, a domain followed by a path, or a domain under
 *   a common or Saudi top-level domain (`shop.sa`, `deals.com`), so "1.5 kg" and "i.e." are not.
 * - `email`: anything shaped like an address, `@` included.
 * - `phone`: Saudi mobiles (05…, +966 5…, 00966 5…), Saudi landlines (01…) and unified numbers
 *   (9200…), any `+` or `00` international number, and any other run of 10 to 15 digits; digits in
 *   either set (Arabic-Indic too, and full-width), with spaces, dashes, dots or brackets between them.
 * - `word`: a word or phrase of the operator's list, matched whole, ignoring case, tashkeel and the
 *   forms of Arabic letters (the search's folding).
 */

export type ScreenFlag = "link" | "email" | "phone" | "word";

export type ScreenRules = Pick<ReviewsSettings, "screen_links" | "screen_contacts" | "blocked_words">;

const SCHEME = /\b[a-z][a-z0-9+.-]*:\/\/\S/i;
const WWW = /\bwww\.[a-z0-9-]/i;
const DOMAIN_PATH = /\b[a-z0-9-]+\.[a-z]{2,}\/\S/i;
const TLDS =
  "com|net|org|info|biz|io|co|me|ly|sa|ae|kw|qa|bh|om|eg|uk|us|app|dev|shop|store|online|site|link|xyz|top|club|vip|live|tv|gg|to";
const DOMAIN = new RegExp(`\\b[a-z0-9][a-z0-9-]*(?:\\.[a-z0-9-]+)*\\.(?:${TLDS})\\b(?!\\.[a-z0-9])`, "i");
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]{2,}/;

/** Digit runs once separators between digits are taken out: "050 123 4567" is one run. */
function digitRuns(text: string): string[] {
  const joined = text.replace(/(\d)[\s\-.()\u00a0]{1,2}(?=[\d(])/g, "$1").replace(/\((\d)/g, "$1");
  return [...joined.matchAll(/(\+|00)?\d+/g)].map((m) => m[0]);
}

function looksLikePhone(run: string): boolean {
  const international = run.startsWith("+") || run.startsWith("00");
  const digits = run.replace(/^\+|^00/, "");
  if (international) return digits.length >= 8 && digits.length <= 15;
  if (/^(?:966)?0?5\d{8}$/.test(digits)) return true;
  if (/^01\d{7}$/.test(digits)) return true;
  if (/^9200\d{5}$/.test(digits)) return true;
  return digits.length >= 10 && digits.length <= 15;
}

/** The words of a folded text, single-spaced and padded, so a phrase matches only whole words. */
const wordsOf = (text: string) => ` ${(foldArabic(text).match(/[\p{L}\p{N}]+/gu) ?? []).join(" ")} `;

/** What the screening finds in a text, in a fixed order; empty when it is clean. */
export function screenText(text: string, rules: ScreenRules): ScreenFlag[] {
  // NFKC folding turns full-width letters and digits, and Arabic-Indic digits, into plain ones.
  const folded = foldArabic(text);
  const flags: ScreenFlag[] = [];
  const email = EMAIL.test(folded);
  if (rules.screen_links) {
    // An address's domain is not a link of its own.
    const withoutEmails = folded.replace(new RegExp(EMAIL.source, "g"), " ");
    if (
      SCHEME.test(withoutEmails) ||
      WWW.test(withoutEmails) ||
      DOMAIN_PATH.test(withoutEmails) ||
      DOMAIN.test(withoutEmails)
    )
      flags.push("link");
  }
  if (rules.screen_contacts) {
    if (email) flags.push("email");
    if (digitRuns(folded).some(looksLikePhone)) flags.push("phone");
  }
  if (rules.blocked_words.length) {
    const words = wordsOf(text);
    if (rules.blocked_words.some((w) => wordsOf(w).trim() !== "" && words.includes(wordsOf(w)))) flags.push("word");
  }
  return flags;
}
