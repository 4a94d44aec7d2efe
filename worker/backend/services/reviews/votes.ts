import type { ReviewReportReason } from "../../../../contract/reviews";
import { say } from "../../../../contract/server/i18n";
import type { Lang } from "../../env";
import { BackendError, notFound } from "../../http";
import { msg } from "../../messages";

/**
 * Shoppers' "helpful" votes and reports on published reviews. The caller is an account or a
 * guest id the shop minted (`voter`: `user:{id}` or `guest:{uuid}`), and each counts once per
 * review (the tables' primary keys): a second vote or report changes nothing and is not an error,
 * so a double click or a retry is harmless. The author may not vote for their own review. Counts
 * are recounted from the rows in the same batch, so they stay exact under any number of callers.
 */

export type Voter = { key: string; userId: number | null };

const SAY = { notFound: msg("reviews.notFound"), ownVote: msg("reviews.ownVote") };

/** A published review's id and author, or the 404 (a pending or rejected one is not there to vote on). */
async function publishedReview(db: D1Database, lang: Lang, id: number): Promise<{ user_id: number }> {
  const review = await db
    .prepare("SELECT user_id FROM reviews WHERE id = ? AND status = 'published'")
    .bind(id)
    .first<{ user_id: number }>();
  if (!review) throw notFound(say(lang, SAY.notFound));
  return review;
}

/** Marks a review helpful for the caller, once; answers its count. */
export async function voteHelpful(db: D1Database, lang: Lang, id: number, voter: Voter): Promise<number> {
  const review = await publishedReview(db, lang, id);
  if (voter.userId !== null && voter.userId === review.user_id) throw new BackendError(403, say(lang, SAY.ownVote));
  const [, , counted] = await db.batch([
    db.prepare("INSERT OR IGNORE INTO review_votes (review_id, voter) VALUES (?, ?)").bind(id, voter.key),
    db
      .prepare(
        "UPDATE reviews SET helpful_count = (SELECT COUNT(*) FROM review_votes WHERE review_id = ?1) WHERE id = ?1",
      )
      .bind(id),
    db.prepare("SELECT helpful_count FROM reviews WHERE id = ?").bind(id),
  ]);
  return (counted.results[0] as { helpful_count: number } | undefined)?.helpful_count ?? 0;
}

/** Reports a review for the caller, once: it joins the console's "reported" queue. */
export async function reportReview(
  db: D1Database,
  lang: Lang,
  id: number,
  voter: Voter,
  reason: ReviewReportReason,
): Promise<void> {
  await publishedReview(db, lang, id);
  await db.batch([
    db
      .prepare("INSERT OR IGNORE INTO review_reports (review_id, reporter, reason) VALUES (?, ?, ?)")
      .bind(id, voter.key, reason),
    db
      .prepare(
        "UPDATE reviews SET report_count = (SELECT COUNT(*) FROM review_reports WHERE review_id = ?1 AND resolved_at IS NULL) WHERE id = ?1",
      )
      .bind(id),
  ]);
}
