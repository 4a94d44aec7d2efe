import type { QuestionLang, ScreeningFlag } from "../../../../contract/questions";
import { screenText as screenShared, type ScreenRules } from "../shared/screening";

/**
 * What a moderator should look at twice in a shopper's question or answer: a link, an email
 * address or a phone number (someone steering buyers elsewhere, or giving away their own or
 * another's contact), found by the screening reviews use (services/shared/screening.ts). It only
 * flags: every question and answer waits for staff, who decide.
 */
const EVERYTHING: ScreenRules = { screen_links: true, screen_contacts: true, blocked_words: [] };

/** The flags of a text, each at most once, in a fixed order. */
export const screenText = (text: string): ScreeningFlag[] =>
  screenShared(text, EVERYTHING).filter((f): f is ScreeningFlag => f !== "word");

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
