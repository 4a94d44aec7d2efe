// Questions and answers on product pages: the wire between the storefront (and the console) and
// the backend. Both sides import it, and it imports neither (test/node/boundaries.test.ts).
// Times are ISO strings; text is plain text, rendered as text (never as HTML).
import * as v from "valibot";
import type { InputMessages } from "./inputs";

export type QuestionLang = "en" | "ar";
export const QUESTION_STATUSES = ["pending", "published", "rejected"] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

/** A question is 10 to 1000 characters once trimmed. */
export const QUESTION_TEXT_MIN = 10;
export const QUESTION_TEXT_MAX = 1000;
/** An answer may be short ("Yes, it does."), never empty; at most 1000 characters. */
export const ANSWER_TEXT_MIN = 2;
export const ANSWER_TEXT_MAX = 1000;
/** Why staff rejected or removed something, as the console's dialog takes it. */
export const REJECT_REASON_MAX = 500;
/** Questions in one page of a product's list. */
export const QUESTIONS_PER_PAGE = 10;
/** Questions in one page of the console's queue. */
export const CONSOLE_QUESTIONS_PER_PAGE = 20;

/** A published answer as any visitor reads it. */
export interface PublicAnswer {
  id: number;
  text: string;
  /** The language the text is written in (its direction on the page). */
  lang: QuestionLang;
  /** Written by the store's staff: marked "Store". */
  by_staff: boolean;
  /** Written by a buyer of a delivered order of the product: marked "Verified buyer". */
  verified_buyer: boolean;
  created_at: string;
}

/** A published question with its published answers (oldest answer first). */
export interface PublicQuestion {
  id: number;
  text: string;
  lang: QuestionLang;
  created_at: string;
  answers: PublicAnswer[];
}

/**
 * GET /catalogue/products/{slug}/questions?page= (public; published questions only, newest first).
 * `buyers_answer`: the store lets buyers of the product answer (the storefront offers them the form).
 */
export interface QuestionsPage {
  data: PublicQuestion[];
  meta: { page: number; per_page: number; total: number; last_page: number };
  buyers_answer: boolean;
}

/** GET /client/questions/eligibility?product=slug (signed in): whether the caller may answer its questions. */
export interface QuestionEligibility {
  /** The store lets buyers answer and a delivered order of the caller's holds the product. */
  can_answer: boolean;
}

/** What asking or answering answers: the new row, pending until staff approve it. */
export interface SubmittedText {
  id: number;
  status: QuestionStatus;
}

/** Backend paths (under the backend base). */
export const QUESTIONS_PATHS = {
  /** GET public list: `/catalogue/products/{slug}/questions?page=` → QuestionsPage. */
  list: (slug: string) => `/catalogue/products/${encodeURIComponent(slug)}/questions`,
  /** POST { product, text } (signed in) → SubmittedText, 201. */
  ask: "/client/questions",
  /** POST { text } (signed in, a buyer, when the store allows it) → SubmittedText, 201. */
  answer: (id: number) => `/client/questions/${id}/answers`,
  /** GET ?product=slug → QuestionEligibility (signed in). */
  eligibility: "/client/questions/eligibility",
} as const;

/** Where a question's product page shows its questions (the anchor a message's link opens). */
export const QUESTIONS_ANCHOR = "questions";

const SLUG = /^[a-z0-9][a-z0-9-]{0,119}$/;

/** A text the writer must fill: trimmed, `min` to `max` characters, worded as `field`. */
function text(m: InputMessages, field: "question" | "answer" | "reason", min: number, max: number) {
  return v.pipe(
    v.optional(v.string(m.required(field)), ""),
    v.trim(),
    v.nonEmpty(m.required(field)),
    v.minLength(min, m.minLength(field, min)),
    v.maxLength(max, m.maxLength(field, max)),
  );
}

/** POST /client/questions. */
export function questionInput(m: InputMessages) {
  return v.object({
    product: v.pipe(v.optional(v.string(m.required("product")), ""), v.trim(), v.regex(SLUG, m.invalid("product"))),
    text: text(m, "question", QUESTION_TEXT_MIN, QUESTION_TEXT_MAX),
  });
}

/** POST /client/questions/{id}/answers, and the staff's answer in the console. */
export function answerInput(m: InputMessages) {
  return v.object({ text: text(m, "answer", ANSWER_TEXT_MIN, ANSWER_TEXT_MAX) });
}

/** The console's reject and remove: why, in the moderator's words. */
export function rejectInput(m: InputMessages) {
  return v.object({ reason: text(m, "reason", 1, REJECT_REASON_MAX) });
}

// ---- The console (managers and owners) ----

/** The console's tabs: what waits for a decision, what is published, what was rejected or removed. */
export const QUESTION_TABS = ["pending", "published", "rejected"] as const;
export type QuestionTab = (typeof QUESTION_TABS)[number];

/** What the screening found in a text, for the moderator (services/questions/screen.ts). */
export type ScreeningFlag = "link" | "email" | "phone";

/** An answer as the console shows it, whatever its state. */
export interface ConsoleAnswer {
  id: number;
  text: string;
  lang: QuestionLang;
  status: QuestionStatus;
  by_staff: boolean;
  verified_buyer: boolean;
  /** Who wrote it: the staff member's email, or the buyer's account name. */
  author: string;
  flags: ScreeningFlag[];
  reject_reason: string | null;
  moderated_by: string | null;
  created_at: string;
}

/** A question with all its answers, as the console's queue lists it. */
export interface ConsoleQuestion {
  id: number;
  product: { slug: string; name: string };
  /** The asking account's name; null once the account is gone. */
  asker: string | null;
  text: string;
  lang: QuestionLang;
  /** The language the asker used the shop in: the answer's message goes out in it. */
  asker_lang: QuestionLang;
  status: QuestionStatus;
  flags: ScreeningFlag[];
  reject_reason: string | null;
  moderated_by: string | null;
  created_at: string;
  answers: ConsoleAnswer[];
}

/**
 * GET /admin/questions?tab=pending|published|rejected&page= (managers and owners). A question is
 * in `pending` while it or one of its answers waits; in `published` once published; in
 * `rejected` when it, or one of its answers, was rejected or removed. `counts` are per tab.
 */
export interface ConsoleQuestionsPage {
  data: ConsoleQuestion[];
  counts: Record<QuestionTab, number>;
  meta: { page: number; per_page: number; total: number; last_page: number };
}

/**
 * Console calls, each audited: POST /admin/questions/{id}/approve, /reject { reason },
 * /remove { reason } (a published one), /answers { text } (staff's answer, published at once);
 * POST /admin/answers/{id}/approve, /reject { reason }, /remove { reason }.
 */
export const CONSOLE_QUESTIONS_PATH = "/admin/questions";
export const CONSOLE_ANSWERS_PATH = "/admin/answers";
