import {
  CONSOLE_REVIEWS_PER_PAGE,
  type ConsoleReview,
  type ConsoleReviewFilter,
  type ConsoleReviewsPage,
  type ReviewLang,
  type ReviewReportReason,
} from "../../../../contract/reviews";
import { say } from "../../../../contract/server/i18n";
import { bumpCatalogueVersion, forgetCatalogueVersion } from "../../cache";
import type { Env, Lang, StaffCaller } from "../../env";
import { BackendError, notFound } from "../../http";
import { msg } from "../../messages";
import { auditStatement } from "../console/audit-log";
import { seesContactData } from "../console/staff";
import { flushShopperMessages } from "../messages/shopper-messages";
import { decisionStatements } from "./notices";
import { flagsOf, photosOf, publishedState, REVIEW_COLUMNS, type ReviewRow } from "./rows";

/**
 * The console's moderation of reviews (managers and owners; support reads the queue without the
 * authors' email addresses): the queue by state or with open reports, approve, reject with a
 * reason the author is told (a `review_decision` message in the language they wrote in), the
 * store's public reply, and dismissing reports. Each step runs in one batch with its audit line,
 * and a step that changes what shoppers see (a publish, an unpublish, a reply on a published
 * review) moves the catalogue version in that batch too; the product's rating follows through the
 * triggers of migration 0054.
 */

type Staff = Pick<StaffCaller, "user_id" | "email" | "role">;

const SAY = { notFound: msg("reviews.notFound"), alreadyRejected: msg("reviews.moderation.alreadyRejected") };

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

interface ConsoleRow extends ReviewRow {
  product_slug: string;
  name_en: string;
  name_ar: string;
  user_name: string;
  user_email: string | null;
  order_number: string | null;
  reports: string;
}

const CONSOLE_SELECT = `SELECT ${REVIEW_COLUMNS}, p.slug AS product_slug, p.name_en, p.name_ar,
  u.name AS user_name, u.email AS user_email, o.number AS order_number,
  (SELECT json_group_array(json_object('reason', reason, 'created_at', created_at))
   FROM (SELECT reason, created_at FROM review_reports WHERE review_id = r.id AND resolved_at IS NULL ORDER BY created_at DESC)) AS reports
  FROM reviews r JOIN products p ON p.id = r.product_id JOIN users u ON u.id = r.user_id
  LEFT JOIN orders o ON o.id = r.order_id`;

function consoleReview(r: ConsoleRow, staff: Staff): ConsoleReview {
  return {
    id: r.id,
    product: { id: r.product_id, slug: r.product_slug, name_en: r.name_en, name_ar: r.name_ar },
    author: { user_id: r.user_id, name: r.user_name, email: seesContactData(staff) ? r.user_email : null },
    order_number: r.order_number,
    rating: r.rating,
    title: r.title,
    body: r.body,
    lang: r.lang,
    status: r.status,
    flags: flagsOf(r),
    reject_reason: r.reject_reason,
    helpful_count: r.helpful_count,
    reports: JSON.parse(r.reports) as { reason: ReviewReportReason; created_at: string }[],
    photos: photosOf(r),
    reply: r.reply_text ? { text: r.reply_text, created_at: r.replied_at ?? r.updated_at } : null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

const WHERE: Record<ConsoleReviewFilter, string> = {
  pending: "r.status = 'pending'",
  published: "r.status = 'published'",
  rejected: "r.status = 'rejected'",
  reported: "r.report_count > 0",
};
// The queue oldest first (who waited longest); the rest newest first.
const ORDER: Record<ConsoleReviewFilter, string> = {
  pending: "r.created_at ASC, r.id ASC",
  reported: "r.report_count DESC, r.created_at DESC, r.id DESC",
  published: "r.created_at DESC, r.id DESC",
  rejected: "r.updated_at DESC, r.id DESC",
};

/** GET /admin/reviews?status=&page=. */
export async function listConsoleReviews(
  db: D1Database,
  staff: Staff,
  filter: ConsoleReviewFilter,
  page: number,
): Promise<ConsoleReviewsPage> {
  const per = CONSOLE_REVIEWS_PER_PAGE;
  const [rows, total, counts] = await db.batch([
    db
      .prepare(`${CONSOLE_SELECT} WHERE ${WHERE[filter]} ORDER BY ${ORDER[filter]} LIMIT ? OFFSET ?`)
      .bind(per, (page - 1) * per),
    db.prepare(`SELECT COUNT(*) AS n FROM reviews r WHERE ${WHERE[filter]}`),
    db.prepare(
      `SELECT (SELECT COUNT(*) FROM reviews WHERE status = 'pending') AS pending,
              (SELECT COUNT(*) FROM reviews WHERE report_count > 0) AS reported`,
    ),
  ]);
  const n = (total.results[0] as { n: number } | undefined)?.n ?? 0;
  const c = counts.results[0] as { pending: number; reported: number };
  return {
    data: (rows.results as ConsoleRow[]).map((r) => consoleReview(r, staff)),
    counts: { pending: c.pending, reported: c.reported },
    meta: { page, per_page: per, total: n, last_page: Math.max(1, Math.ceil(n / per)) },
  };
}

async function consoleRow(db: D1Database, lang: Lang, id: number): Promise<ConsoleRow> {
  const row = await db.prepare(`${CONSOLE_SELECT} WHERE r.id = ?`).bind(id).first<ConsoleRow>();
  if (!row) throw notFound(say(lang, SAY.notFound));
  return row;
}

/** What an audit line shows of a review: its state and the words staff wrote about it. */
const audited = (r: Pick<ReviewRow, "status" | "reject_reason" | "reply_text" | "report_count">) => ({
  review_status: r.status,
  reject_reason: r.reject_reason,
  reply: r.reply_text,
  open_reports: r.report_count,
});

/** Runs a moderation step's statements, then answers the review as it is now. */
async function commit(
  db: D1Database,
  staff: Staff,
  lang: Lang,
  id: number,
  statements: D1PreparedStatement[],
  visible: boolean,
): Promise<ConsoleReview> {
  await db.batch([...statements, ...(visible ? [bumpCatalogueVersion(db)] : [])]);
  if (visible) forgetCatalogueVersion();
  return consoleReview(await consoleRow(db, lang, id), staff);
}

/** POST /admin/reviews/{id}/approve: published (from pending, or rejected after a second look). */
export async function approveReview(db: D1Database, staff: Staff, lang: Lang, id: number): Promise<ConsoleReview> {
  const before = await consoleRow(db, lang, id);
  if (before.status === "published") return consoleReview(before, staff);
  return commit(
    db,
    staff,
    lang,
    id,
    [
      db
        .prepare(
          `UPDATE reviews SET status = 'published', reject_reason = NULL, moderated_at = ${NOW}, moderated_by = ?2,
             published_at = COALESCE(published_at, ${NOW}), updated_at = ${NOW}
           WHERE id = ?1 AND status = ?3`,
        )
        .bind(id, staff.email, before.status),
      auditStatement(
        db,
        staff,
        "review.approve",
        "review",
        id,
        audited(before),
        { ...audited(before), review_status: "published", reject_reason: null },
        { onlyIfChanged: true },
      ),
    ],
    true,
  );
}

/**
 * POST /admin/reviews/{id}/reject { reason }: off the product page (its rating follows), the open
 * reports dealt with, and the author told why in the language they wrote in. A review already
 * rejected stays as it is (409): the author was told once.
 */
export async function rejectReview(
  env: Pick<Env, "DB" | "NOTIFICATIONS" | "PUBLIC_ORIGIN" | "ENVIRONMENT">,
  staff: Staff,
  lang: Lang,
  id: number,
  reason: string,
): Promise<ConsoleReview> {
  const db = env.DB;
  const before = await consoleRow(db, lang, id);
  if (before.status === "rejected") throw new BackendError(409, say(lang, SAY.alreadyRejected));
  const notices = await decisionStatements(env, before, reason);
  const review = await commit(
    db,
    staff,
    lang,
    id,
    [
      db
        .prepare(
          `UPDATE reviews SET status = 'rejected', reject_reason = ?2, moderated_at = ${NOW}, moderated_by = ?3,
             report_count = 0, updated_at = ${NOW}
           WHERE id = ?1 AND status = ?4`,
        )
        .bind(id, reason, staff.email, before.status),
      auditStatement(
        db,
        staff,
        "review.reject",
        "review",
        id,
        audited(before),
        { ...audited(before), review_status: "rejected", reject_reason: reason, open_reports: 0 },
        { onlyIfChanged: true },
      ),
      db.prepare(`UPDATE review_reports SET resolved_at = ${NOW} WHERE review_id = ? AND resolved_at IS NULL`).bind(id),
      ...notices,
    ],
    publishedState(before.status, "rejected"),
  );
  await flushShopperMessages(env);
  return review;
}

/** PUT /admin/reviews/{id}/reply { text, lang }: the store's public reply; empty text removes it. */
export async function replyToReview(
  db: D1Database,
  staff: Staff,
  lang: Lang,
  id: number,
  reply: { text: string; lang: ReviewLang },
): Promise<ConsoleReview> {
  const before = await consoleRow(db, lang, id);
  const text = reply.text === "" ? null : reply.text;
  return commit(
    db,
    staff,
    lang,
    id,
    [
      db
        .prepare(
          `UPDATE reviews SET reply_text = ?2, reply_lang = CASE WHEN ?2 IS NULL THEN NULL ELSE ?3 END,
             replied_at = CASE WHEN ?2 IS NULL THEN NULL ELSE ${NOW} END, replied_by = CASE WHEN ?2 IS NULL THEN NULL ELSE ?4 END,
             updated_at = ${NOW}
           WHERE id = ?1`,
        )
        .bind(id, text, reply.lang, staff.email),
      auditStatement(db, staff, "review.reply", "review", id, audited(before), { ...audited(before), reply: text }),
    ],
    before.status === "published",
  );
}

/** POST /admin/reviews/{id}/dismiss-reports: the reports are dealt with; the review stays as it is. */
export async function dismissReports(db: D1Database, staff: Staff, lang: Lang, id: number): Promise<ConsoleReview> {
  const before = await consoleRow(db, lang, id);
  return commit(
    db,
    staff,
    lang,
    id,
    [
      db.prepare(`UPDATE review_reports SET resolved_at = ${NOW} WHERE review_id = ? AND resolved_at IS NULL`).bind(id),
      auditStatement(
        db,
        staff,
        "review.dismiss_reports",
        "review",
        id,
        audited(before),
        { ...audited(before), open_reports: 0 },
        { onlyIfChanged: true },
      ),
      db.prepare("UPDATE reviews SET report_count = 0 WHERE id = ?").bind(id),
    ],
    false,
  );
}
