import type { QuestionLang, ScreeningFlag } from "../../../../contract/questions";

/**
 * What a moderator should look at twice in a shopper's question or answer: a link, an email
 * address or a phone number (someone steering buyers elsewhere, or giving away their own or
 * another's contact). It only flags: staff decide, and nothing is refused for it. Pure functions
 * of the text (with the language it is written in), kept apart so the reviews' screening can share them.
 */

// Arabic-Indic and Persian digits count as the digits they are.
const latin = (text: string) =>
  text
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - 0x06f0));

const EMAIL = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[a-z]{2,}/i;
// A scheme, `www.`, or a host name under a common top-level domain ("example.com", "shop.sa/x");
// a version or a size ("v1.5", "2.4GHz") is no host.
const LINK =
  /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|net|org|info|biz|io|co|me|ly|app|shop|store|online|site|link|sa|ae|eg|kw|qa|bh|om|uk|us)\b/i;
// Eight digits or more, possibly grouped by single spaces, dots, dashes or brackets, starting as a
// number is dialled here: +, 0 (00966…, 05…, 011…), 5 (a mobile without its 0) or 9 (966…). So
// "128 256 512" (sizes) or a model number is no phone.
const PHONE = /(?:\+\s?\d|\b[059])(?:[\s().-]?\d){7,}/;

/** The flags of a text, each at most once, in a fixed order. */
export function screenText(text: string): ScreeningFlag[] {
  const plain = latin(text);
  const flags: ScreeningFlag[] = [];
  const email = EMAIL.test(plain);
  if (LINK.test(email ? plain.replace(new RegExp(EMAIL, "gi"), " ") : plain)) flags.push("link");
  if (email) flags.push("email");
  if (PHONE.test(plain)) flags.push("phone");
  return flags;
}

/** The flags as the tables keep them: a JSON array, or null when the text is clean. */
export const flagsColumn = (flags: ScreeningFlag[]): string | null => (flags.length ? JSON.stringify(flags) : null);

/** The flags a row keeps, read back (an unknown entry is dropped). */
export function flagsOf(column: string | null): ScreeningFlag[] {
  if (!column) return [];
  try {
    const parsed: unknown = JSON.parse(column);
    return Array.isArray(parsed)
      ? parsed.filter((f): f is ScreeningFlag => f === "link" || f === "email" || f === "phone")
      : [];
  } catch {
    return [];
  }
}

// Arabic letters (not its digits or punctuation): a text with any is read right to left.
const ARABIC_LETTER =
  /[\u0620-\u064A\u066E-\u06D3\u06D5\u06EE\u06EF\u06FA-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFC]/;

/** The language a text is written in: Arabic as soon as it holds an Arabic letter, else English. */
export const textLang = (text: string): QuestionLang => (ARABIC_LETTER.test(text) ? "ar" : "en");
