import {
  CONSOLE_QUESTIONS_PER_PAGE,
  QUESTIONS_ANCHOR,
  type ConsoleAnswer,
  type ConsoleQuestion,
  type ConsoleQuestionsPage,
  type QuestionLang,
  type QuestionStatus,
  type QuestionTab,
} from "../../../../contract/questions";
import { publicOrigin } from "../../../../contract/server/public-origin";
import { say } from "../../../../contract/server/i18n";
import type { Env, Lang, StaffCaller } from "../../env";
import { BackendError, notFound } from "../../http";
import { msg } from "../../messages";
import { auditStatement } from "../console/audit-log";
import { flushShopperMessages, shopperMessageStatement } from "../messages/shopper-messages";
import { flagsColumn, flagsOf, screenText, textLang } from "./screen";

/**
 * The console's side of questions and answers (managers and owners): the queue by tab, approving,
 * rejecting or removing a question or an answer with a reason, and answering as staff (published
 * at once: staff are the moderators). Each step writes its audit line in the same batch as the
 * change. When an answer is published (staff's, or a buyer's approved), the asker is told once per
 * answer through the shopper outbox, in the language they asked in.
 */

type Staff = Pick<StaffCaller, "user_id" | "email">;
export type ModerationEnv = Pick<Env, "DB" | "NOTIFICATIONS" | "PUBLIC_ORIGIN" | "ENVIRONMENT">;

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** Which questions each tab holds: the question itself, or one of its answers, in that state. */
const TAB_WHERE: Record<QuestionTab, string> = {
  pending: `(q.status = 'pending' OR EXISTS (SELECT 1 FROM answers a WHERE a.question_id = q.id AND a.status = 'pending'))`,
  published: `q.status = 'published'`,
  rejected: `(q.status = 'rejected' OR EXISTS (SELECT 1 FROM answers a WHERE a.question_id = q.id AND a.status = 'rejected'))`,
};

interface QuestionRow {
  id: number;
  slug: string;
  product_name: string;
  asker: string | null;
  text: string;
  lang: QuestionLang;
  asker_lang: QuestionLang;
  status: QuestionStatus;
  flags: string | null;
  reject_reason: string | null;
  moderated_by: string | null;
  created_at: string;
}

interface AnswerRow {
  id: number;
  question_id: number;
  text: string;
  lang: QuestionLang;
  status: QuestionStatus;
  by_staff: number;
  verified_buyer: number;
  author: string | null;
  flags: string | null;
  reject_reason: string | null;
  moderated_by: string | null;
  created_at: string;
}

const questionSelect = (lang: Lang) =>
  `SELECT q.id, p.slug, p.name_${lang === "ar" ? "ar" : "en"} AS product_name, u.name AS asker, q.text, q.lang,
     q.asker_lang, q.status, q.flags, q.reject_reason, q.moderated_by, q.created_at
   FROM questions q JOIN products p ON p.id = q.product_id LEFT JOIN users u ON u.id = q.user_id`;

const ANSWER_SELECT = `SELECT a.id, a.question_id, a.text, a.lang, a.status, a.by_staff, a.verified_buyer,
     COALESCE(a.staff_email, u.name) AS author, a.flags, a.reject_reason, a.moderated_by, a.created_at
   FROM answers a LEFT JOIN users u ON u.id = a.user_id`;

function present(q: QuestionRow, answers: AnswerRow[]): ConsoleQuestion {
  return {
    id: q.id,
    product: { slug: q.slug, name: q.product_name },
    asker: q.asker,
    text: q.text,
    lang: q.lang,
    asker_lang: q.asker_lang,
    status: q.status,
    flags: flagsOf(q.flags),
    reject_reason: q.reject_reason,
    moderated_by: q.moderated_by,
    created_at: q.created_at,
    answers: answers
      .filter((a) => a.question_id === q.id)
      .map((a): ConsoleAnswer => ({
        id: a.id,
        text: a.text,
        lang: a.lang,
        status: a.status,
        by_staff: a.by_staff === 1,
        verified_buyer: a.verified_buyer === 1,
        author: a.author ?? "",
        flags: flagsOf(a.flags),
        reject_reason: a.reject_reason,
        moderated_by: a.moderated_by,
        created_at: a.created_at,
      })),
  };
}

/** GET /admin/questions?tab=&page=: one page of a tab (the pending one oldest first, as a queue), with every tab's count. */
export async function questionQueue(
  db: D1Database,
  lang: Lang,
  tab: QuestionTab,
  page: number,
): Promise<ConsoleQuestionsPage> {
  const per = CONSOLE_QUESTIONS_PER_PAGE;
  const order = tab === "pending" ? "q.created_at, q.id" : "q.created_at DESC, q.id DESC";
  const ids = `SELECT q.id FROM questions q WHERE ${TAB_WHERE[tab]} ORDER BY ${order} LIMIT ?1 OFFSET ?2`;
  const [counts, questions, answers] = await db.batch([
    db.prepare(
      `SELECT ${(Object.keys(TAB_WHERE) as QuestionTab[])
        .map((t) => `(SELECT COUNT(*) FROM questions q WHERE ${TAB_WHERE[t]}) AS ${t}`)
        .join(", ")}`,
    ),
    db.prepare(`${questionSelect(lang)} WHERE q.id IN (${ids}) ORDER BY ${order}`).bind(per, (page - 1) * per),
    db
      .prepare(`${ANSWER_SELECT} WHERE a.question_id IN (${ids}) ORDER BY a.created_at, a.id`)
      .bind(per, (page - 1) * per),
  ]);
  const tally = counts!.results[0] as Record<QuestionTab, number>;
  const answerRows = answers!.results as unknown as AnswerRow[];
  const total = tally[tab];
  return {
    data: (questions!.results as unknown as QuestionRow[]).map((q) => present(q, answerRows)),
    counts: { pending: tally.pending, published: tally.published, rejected: tally.rejected },
    meta: { page, per_page: per, total, last_page: Math.max(1, Math.ceil(total / per)) },
  };
}

/** One question with all its answers, as the console shows it. */
export async function consoleQuestion(db: D1Database, lang: Lang, id: number): Promise<ConsoleQuestion> {
  const [question, answers] = await db.batch([
    db.prepare(`${questionSelect(lang)} WHERE q.id = ?`).bind(id),
    db.prepare(`${ANSWER_SELECT} WHERE a.question_id = ? ORDER BY a.created_at, a.id`).bind(id),
  ]);
  const row = question!.results[0] as QuestionRow | undefined;
  if (!row) throw notFound();
  return present(row, answers!.results as unknown as AnswerRow[]);
}

const refuse = (lang: Lang, key: Parameters<typeof msg>[0]) => new BackendError(409, say(lang, msg(key)));

async function questionState(db: D1Database, id: number) {
  const row = await db
    .prepare("SELECT id, status, reject_reason, user_id FROM questions WHERE id = ?")
    .bind(id)
    .first<{ id: number; status: QuestionStatus; reject_reason: string | null; user_id: number | null }>();
  if (!row) throw notFound();
  return row;
}

async function answerState(db: D1Database, id: number) {
  const row = await db
    .prepare(
      `SELECT a.id, a.question_id, a.status, a.reject_reason, a.user_id, q.status AS question_status, q.user_id AS asker_id
       FROM answers a JOIN questions q ON q.id = a.question_id WHERE a.id = ?`,
    )
    .bind(id)
    .first<{
      id: number;
      question_id: number;
      status: QuestionStatus;
      reject_reason: string | null;
      user_id: number | null;
      question_status: QuestionStatus;
      asker_id: number | null;
    }>();
  if (!row) throw notFound();
  return row;
}

/** A short quote of the asker's own question for their message (the page holds the whole). */
function excerpt(text: string, max = 140): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The `question_answered` message to the asker for one published answer: by email to the account's
 * email, by SMS when it has only a phone, in the language they asked in, with a link to the
 * product page's questions. None when the asker's account is gone or has no address. The answer's
 * text is not in it: the link shows it, and the shop's messages carry no link it did not build.
 */
async function askerMessage(
  env: ModerationEnv,
  questionId: number,
  /** Names the answer in the message's key: `answer-{id}`, or a staff answer's own name. */
  answerKey: string,
  ownUrl: string,
): Promise<D1PreparedStatement[]> {
  const row = await env.DB.prepare(
    `SELECT q.text, q.asker_lang, p.slug, p.name_en, p.name_ar, u.name, u.email, u.phone
     FROM questions q JOIN products p ON p.id = q.product_id JOIN users u ON u.id = q.user_id WHERE q.id = ?`,
  )
    .bind(questionId)
    .first<{
      text: string;
      asker_lang: Lang;
      slug: string;
      name_en: string;
      name_ar: string;
      name: string;
      email: string | null;
      phone: string | null;
    }>();
  if (!row || (!row.email && !row.phone)) return [];
  const lang = row.asker_lang;
  const channel = row.email ? "email" : "sms";
  const url = `${publicOrigin(env, ownUrl)}/${lang}/product-details/${encodeURIComponent(row.slug)}#${QUESTIONS_ANCHOR}`;
  return [
    shopperMessageStatement(env.DB, {
      key: `question_answered:${answerKey}:${channel}`,
      topic: "question_answered",
      channel,
      recipient: (row.email ?? row.phone)!,
      lang,
      params: {
        name: row.name,
        product: lang === "ar" ? row.name_ar : row.name_en,
        question: excerpt(row.text),
        productUrl: url,
      },
      siteOrigin: ownUrl,
    }),
  ];
}

/** POST /admin/questions/{id}/approve: a pending (or rejected) question is published. */
export async function approveQuestion(
  env: ModerationEnv,
  staff: Staff,
  lang: Lang,
  id: number,
): Promise<ConsoleQuestion> {
  const db = env.DB;
  const before = await questionState(db, id);
  if (before.status === "published") throw refuse(lang, "questions.console.alreadyPublished");
  await db.batch([
    db
      .prepare(
        `UPDATE questions SET status = 'published', reject_reason = NULL, moderated_at = ${NOW}, moderated_by = ?,
           updated_at = ${NOW} WHERE id = ? AND status = ?`,
      )
      .bind(staff.email, id, before.status),
    auditStatement(
      db,
      staff,
      "question.approve",
      "question",
      id,
      { status: before.status },
      { status: "published" },
      { onlyIfChanged: true },
    ),
  ]);
  return consoleQuestion(db, lang, id);
}

/**
 * POST /admin/questions/{id}/reject (a pending one) and /remove (a published one): the question
 * leaves (or never reaches) the product page, with the reason kept for staff; its answers go with it.
 */
export async function rejectQuestion(
  env: ModerationEnv,
  staff: Staff,
  lang: Lang,
  id: number,
  reason: string,
  action: "reject" | "remove",
): Promise<ConsoleQuestion> {
  const db = env.DB;
  const before = await questionState(db, id);
  const from: QuestionStatus = action === "reject" ? "pending" : "published";
  if (before.status !== from)
    throw refuse(lang, action === "reject" ? "questions.console.notPending" : "questions.console.notPublished");
  await db.batch([
    db
      .prepare(
        `UPDATE questions SET status = 'rejected', reject_reason = ?, moderated_at = ${NOW}, moderated_by = ?,
           updated_at = ${NOW} WHERE id = ? AND status = ?`,
      )
      .bind(reason, staff.email, id, from),
    auditStatement(
      db,
      staff,
      `question.${action}`,
      "question",
      id,
      { status: from },
      { status: "rejected", reject_reason: reason },
      { onlyIfChanged: true },
    ),
  ]);
  return consoleQuestion(db, lang, id);
}

/**
 * POST /admin/questions/{id}/answers { text }: staff's answer, published at once; a pending
 * question is published with it (answering is approving). The asker is told.
 */
export async function answerAsStaff(
  env: ModerationEnv,
  staff: Staff,
  lang: Lang,
  id: number,
  text: string,
  ownUrl: string,
): Promise<ConsoleQuestion> {
  const db = env.DB;
  const before = await questionState(db, id);
  if (before.status === "rejected") throw refuse(lang, "questions.console.answerRejected");
  // The answer's id is known only inside the batch: its message is keyed by a name of its own,
  // made once here, so the answer, the question, the audit line and the message are one write.
  const messageKey = `staff-${crypto.randomUUID()}`;
  await db.batch([
    db
      .prepare(
        `INSERT INTO answers (question_id, staff_email, by_staff, verified_buyer, text, lang, status, flags,
           moderated_at, moderated_by)
         VALUES (?, ?, 1, 0, ?, ?, 'published', ?, ${NOW}, ?)`,
      )
      .bind(id, staff.email, text, textLang(text), flagsColumn(screenText(text)), staff.email),
    db
      .prepare(
        `UPDATE questions SET status = 'published', moderated_at = ${NOW}, moderated_by = ?, updated_at = ${NOW}
         WHERE id = ? AND status = 'pending'`,
      )
      .bind(staff.email, id),
    auditStatement(
      db,
      staff,
      "question.answer",
      "question",
      id,
      { status: before.status },
      { status: "published", answer: text },
    ),
    ...(await askerMessage(env, id, messageKey, ownUrl)),
  ]);
  await flushShopperMessages(env);
  return consoleQuestion(db, lang, id);
}

/** POST /admin/answers/{id}/approve: a buyer's pending (or rejected) answer is published, and the asker told. */
export async function approveAnswer(
  env: ModerationEnv,
  staff: Staff,
  lang: Lang,
  id: number,
  ownUrl: string,
): Promise<ConsoleQuestion> {
  const db = env.DB;
  const before = await answerState(db, id);
  if (before.status === "published") throw refuse(lang, "questions.console.alreadyPublished");
  if (before.question_status !== "published") throw refuse(lang, "questions.console.questionNotPublished");
  // The asker answering their own question is not told of it.
  const tell = before.asker_id !== null && before.asker_id !== before.user_id;
  await db.batch([
    db
      .prepare(
        `UPDATE answers SET status = 'published', reject_reason = NULL, moderated_at = ${NOW}, moderated_by = ?,
           updated_at = ${NOW} WHERE id = ? AND status = ?`,
      )
      .bind(staff.email, id, before.status),
    auditStatement(
      db,
      staff,
      "answer.approve",
      "answer",
      id,
      { status: before.status },
      { status: "published" },
      { onlyIfChanged: true },
    ),
    ...(tell ? await askerMessage(env, before.question_id, `answer-${id}`, ownUrl) : []),
  ]);
  if (tell) await flushShopperMessages(env);
  return consoleQuestion(db, lang, before.question_id);
}

/** POST /admin/answers/{id}/reject (a pending one) and /remove (a published one), with the reason. */
export async function rejectAnswer(
  env: ModerationEnv,
  staff: Staff,
  lang: Lang,
  id: number,
  reason: string,
  action: "reject" | "remove",
): Promise<ConsoleQuestion> {
  const db = env.DB;
  const before = await answerState(db, id);
  const from: QuestionStatus = action === "reject" ? "pending" : "published";
  if (before.status !== from)
    throw refuse(lang, action === "reject" ? "questions.console.notPending" : "questions.console.notPublished");
  await db.batch([
    db
      .prepare(
        `UPDATE answers SET status = 'rejected', reject_reason = ?, moderated_at = ${NOW}, moderated_by = ?,
           updated_at = ${NOW} WHERE id = ? AND status = ?`,
      )
      .bind(reason, staff.email, id, from),
    auditStatement(
      db,
      staff,
      `answer.${action}`,
      "answer",
      id,
      { status: from },
      { status: "rejected", reject_reason: reason },
      { onlyIfChanged: true },
    ),
  ]);
  return consoleQuestion(db, lang, before.question_id);
}
