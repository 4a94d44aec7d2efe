/**
 * Arabic-aware text folding for search (DESIGN §6). People type "ايفون", "آيفون" or "أيفون",
 * with or without tashkeel, with Latin or Arabic-Indic digits; all of them must meet the same
 * indexed text. The same fold runs over the indexed text (at seed time) and over every query.
 *
 * Pure functions with no imports: the seed scripts (Node) and the Worker both use this file.
 */

// Alef wasla and any alef the decomposition below leaves behind.
const ALEF_FORMS = /[\u0622\u0623\u0625\u0671\u0672\u0673\u0675]/g;
// Tashkeel, Quranic annotation marks, superscript alef, and tatweel (kashida).
const MARKS = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06DC\u06DF-\u06E8\u06EA-\u06ED\u0640]/g;
// Any remaining combining mark (Latin accents after decomposition, hamza above/below...).
const COMBINING = /\p{M}/gu;

const SINGLE: Record<string, string> = {
  "\u0629": "\u0647", // taa marbuta → haa
  "\u0649": "\u064A", // alef maqsura → yaa
  "\u06CC": "\u064A", // Farsi yeh → yaa
  "\u06A9": "\u0643", // keheh → kaf
  "\u0624": "\u0648", // waw with hamza → waw
  "\u0626": "\u064A", // yaa with hamza → yaa
};

function foldDigit(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code >= 0x0660 && code <= 0x0669) return String(code - 0x0660);
  if (code >= 0x06f0 && code <= 0x06f9) return String(code - 0x06f0);
  return ch;
}

/**
 * Folds text for matching: alef forms (أ إ آ ٱ → ا), taa marbuta (ة → ه), alef maqsura (ى → ي),
 * tashkeel and tatweel removed, Arabic-Indic and Eastern Arabic-Indic digits → Latin, lowercase.
 * Compatibility forms (presentation forms, full-width letters) are unified first.
 */
export function foldArabic(text: string): string {
  return text
    .normalize("NFKC")
    .replace(MARKS, "")
    .replace(ALEF_FORMS, "\u0627")
    .normalize("NFD")
    .replace(COMBINING, "")
    .replace(/[\u0629\u0649\u06CC\u06A9\u0624\u0626]/g, (ch) => SINGLE[ch] ?? ch)
    .replace(/[\u0660-\u0669\u06F0-\u06F9]/g, foldDigit)
    .toLowerCase()
    .normalize("NFC");
}

/** The words of a folded text, split the way FTS5's unicode61 tokenizer splits (letters and digits). */
export function searchTokens(text: string): string[] {
  return foldArabic(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

export const MAX_QUERY_TOKENS = 8;
