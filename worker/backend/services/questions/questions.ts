import {
  QUESTIONS_PER_PAGE,
  type PublicAnswer,
  type PublicQuestion,
  type QuestionEligibility,
  type QuestionLang,
  type QuestionsPage,
  type SubmittedText,
} from "../../../../contract/questions";
import type { Env, Lang } from "../../env";
import { BackendError, notFound } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { INVALID_INPUT, inputMessages } from "../../../../contract/server/input-messages";
import { loadSettings } from "../shared/settings";
import { msg } from "../../messages";
import { flagsColumn, screenText, textLang } from "./screen";

/**
 * Questions and answers on product pages, the shopper's side: the published list any visitor
 * reads, asking (signed in) and answering (a buyer of a delivered order of the product, when the
 * store allows it). Everything a shopper writes lands pending; staff publish it in the console
 * (moderation.ts). Text is stored exactly as written (trimmed): it is rendered as text.
 */

/** A product's questions live only while it is on sale: an unknown or hidden product has none. */
async function productId(db: D1Database, slug: string): Promise<number | null> {
  const row = await db
    .prepare("SELECT id FROM products WHERE slug = ? AND active = 1")
    .bind(slug)
    .first<{ id: number }>();
  return row?.id ?? null;
}

interface QuestionRow {
  id: number;
  text: string;
  lang: QuestionLang;
  created_at: string;
}

interface AnswerRow {
  id: number;
  question_id: number;
  text: string;
  lang: QuestionLang;
  by_staff: number;
  verified_buyer: number;
  created_at: string;
}

/** GET /catalogue/products/{slug}/questions: one page of published questions, newest first, with their published answers. */
export async function publishedQuestions(
  env: Pick<Env, "DB"> & Partial<Env>,
  lang: Lang,
  slug: string,
  page: number,
): Promise<QuestionsPage> {
  const db = env.DB;
  const product = await productId(db, slug);
  if (product === null) throw notFound(say(lang, msg("catalogue.productNotFound")));
  const offset = (page - 1) * QUESTIONS_PER_PAGE;
  const pageOf = `SELECT id FROM questions WHERE product_id = ?1 AND status = 'published'
    ORDER BY created_at DESC, id DESC LIMIT ?2 OFFSET ?3`;
  const [total, questions, answers] = await db.batch([
    db.prepare("SELECT COUNT(*) AS n FROM questions WHERE product_id = ? AND status = 'published'").bind(product),
    db
      .prepare(
        `SELECT id, text, lang, created_at FROM questions WHERE product_id = ?1 AND status = 'published'
         ORDER BY created_at DESC, id DESC LIMIT ?2 OFFSET ?3`,
      )
      .bind(product, QUESTIONS_PER_PAGE, offset),
    db
      .prepare(
        `SELECT id, question_id, text, lang, by_staff, verified_buyer, created_at FROM answers
         WHERE status = 'published' AND question_id IN (${pageOf}) ORDER BY created_at, id`,
      )
      .bind(product, QUESTIONS_PER_PAGE, offset),
  ]);
  const count = (total!.results[0] as { n: number }).n;
  const byQuestion = new Map<number, PublicAnswer[]>();
  for (const a of answers!.results as unknown as AnswerRow[]) {
    const list = byQuestion.get(a.question_id) ?? [];
    list.push({
      id: a.id,
      text: a.text,
      lang: a.lang,
      by_staff: a.by_staff === 1,
      verified_buyer: a.verified_buyer === 1,
      created_at: a.created_at,
    });
    byQuestion.set(a.question_id, list);
  }
  const data: PublicQuestion[] = (questions!.results as unknown as QuestionRow[]).map((q) => ({
    id: q.id,
    text: q.text,
    lang: q.lang,
    created_at: q.created_at,
    answers: byQuestion.get(q.id) ?? [],
  }));
  const settings = await loadSettings(env);
  return {
    data,
    meta: {
      page,
      per_page: QUESTIONS_PER_PAGE,
      total: count,
      last_page: Math.max(1, Math.ceil(count / QUESTIONS_PER_PAGE)),
    },
    buyers_answer: settings.questions.buyers_answer,
  };
}

/**
 * How many of an account's questions, and of its answers, may wait for moderation at once: past
 * it the shopper waits for staff before writing more (a slow flood the per-minute limits let through).
 */
export const PENDING_PER_ACCOUNT = 10;

async function refuseFlood(db: D1Database, lang: Lang, userId: number, table: "questions" | "answers"): Promise<void> {
  const row = await db
    .prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ? AND status = 'pending'`)
    .bind(userId)
    .first<{ n: number }>();
  if ((row?.n ?? 0) >= PENDING_PER_ACCOUNT)
    throw new BackendError(
      429,
      say(lang, msg(table === "questions" ? "questions.tooManyPendingQuestions" : "questions.tooManyPendingAnswers"), {
        count: PENDING_PER_ACCOUNT,
      }),
    );
}

/**
 * POST /client/questions: a signed-in shopper's question, pending until staff publish it (or answer
 * it). `lang` is the request's language, the one they use the shop in: kept as the question's
 * `asker_lang`, the answer's message is written in it.
 */
export async function askQuestion(
  db: D1Database,
  lang: Lang,
  userId: number,
  input: { product: string; text: string },
): Promise<SubmittedText> {
  const product = await productId(db, input.product);
  if (product === null)
    throw new BackendError(422, say(lang, INVALID_INPUT), { product: [inputMessages(lang).invalid("product")] });
  await refuseFlood(db, lang, userId, "questions");
  const row = await db
    .prepare(
      `INSERT INTO questions (product_id, user_id, text, lang, asker_lang, flags) VALUES (?, ?, ?, ?, ?, ?)
       RETURNING id, status`,
    )
    .bind(product, userId, input.text, textLang(input.text), lang, flagsColumn(screenText(input.text)))
    .first<SubmittedText>();
  return row!;
}

/** Whether a delivered order of the account's holds the product. */
async function boughtAndReceived(db: D1Database, userId: number, productId: number): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT 1 AS yes FROM orders o JOIN order_items oi ON oi.order_id = o.id
       WHERE o.user_id = ? AND o.status = 'delivered' AND oi.product_id = ? LIMIT 1`,
    )
    .bind(userId, productId)
    .first<{ yes: number }>();
  return row !== null;
}

/** GET /client/questions/eligibility?product=slug. */
export async function answerEligibility(
  env: Pick<Env, "DB"> & Partial<Env>,
  lang: Lang,
  userId: number,
  slug: string,
): Promise<QuestionEligibility> {
  const product = await productId(env.DB, slug);
  if (product === null) throw notFound(say(lang, msg("catalogue.productNotFound")));
  const { questions } = await loadSettings(env);
  return { can_answer: questions.buyers_answer && (await boughtAndReceived(env.DB, userId, product)) };
}

/**
 * POST /client/questions/{id}/answers: a buyer's answer to a published question, pending until
 * staff approve it. Only when the store lets buyers answer, and only from an account with a
 * delivered order of the product (else 403); an unknown or unpublished question is a 404.
 */
export async function answerAsBuyer(
  env: Pick<Env, "DB"> & Partial<Env>,
  lang: Lang,
  userId: number,
  questionId: number,
  input: { text: string },
): Promise<SubmittedText> {
  const db = env.DB;
  const question = await db
    .prepare(
      `SELECT q.id, q.product_id FROM questions q JOIN products p ON p.id = q.product_id
       WHERE q.id = ? AND q.status = 'published' AND p.active = 1`,
    )
    .bind(questionId)
    .first<{ id: number; product_id: number }>();
  if (!question) throw notFound(say(lang, msg("questions.notFound")));
  const { questions } = await loadSettings(env);
  if (!questions.buyers_answer) throw new BackendError(403, say(lang, msg("questions.onlyStoreAnswers")));
  if (!(await boughtAndReceived(db, userId, question.product_id)))
    throw new BackendError(403, say(lang, msg("questions.onlyBuyersAnswer")));
  await refuseFlood(db, lang, userId, "answers");
  const row = await db
    .prepare(
      `INSERT INTO answers (question_id, user_id, by_staff, verified_buyer, text, lang, flags)
       VALUES (?, ?, 0, 1, ?, ?, ?) ON CONFLICT (question_id, user_id) DO NOTHING RETURNING id, status`,
    )
    .bind(question.id, userId, input.text, textLang(input.text), flagsColumn(screenText(input.text)))
    .first<SubmittedText>();
  if (!row) throw new BackendError(409, say(lang, msg("questions.alreadyAnswered")));
  return row;
}
