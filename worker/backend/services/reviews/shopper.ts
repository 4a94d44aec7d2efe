import {
  detectReviewLang,
  REVIEW_AUTHOR_MAX,
  REVIEW_PHOTO_KEY,
  type OwnReview,
  type ReviewableProduct,
  type ReviewEligibility,
  type ReviewInput,
} from "../../../../contract/reviews";
import { say } from "../../../../contract/server/i18n";
import { bumpCatalogueVersion, forgetCatalogueVersion } from "../../cache";
import type { Env, Lang } from "../../env";
import { BackendError, notFound } from "../../http";
import { msg } from "../../messages";
import { col, parseJson } from "../catalogue/summary";
import { loadSettings } from "../shared/settings";
import { checkNewPhotos, forgetPhotos, storePhotos, type NewPhoto } from "./photos";
import { ownReviewOf, publishedState, REVIEW_COLUMNS, type ReviewRow } from "./rows";
import { screenText } from "../shared/screening";

/**
 * A shopper's side of reviews (contract/reviews.ts): writing one (verified buyers only, one per
 * product per account, posting again edits it), and what they may review.
 *
 * Verified buyer: one of the caller's orders holding the product was delivered (`delivered_at`
 * set). Anyone else is refused with a 403 that says so; the refusal reveals nothing about other
 * accounts (it is about the caller's own orders).
 *
 * Publishing (the store's `reviews` settings): under `hold` every review, new or edited, waits
 * for a moderator; under `clean` a review the screening found nothing in is published at once and
 * a flagged one waits; under `all` every review is published at once. An edit goes through the
 * same rule again, so an edited review under `hold` leaves the product page until it is approved.
 * Whatever is published or unpublished moves the product's rating (triggers, migration 0054) and
 * the catalogue version in the same batch, so cached lists and pages show the new stars.
 */

const SAY = {
  productNotFound: msg("reviews.productNotFound"),
  notBuyer: msg("reviews.notBuyer"),
  orderNotFound: msg("reviews.orderNotFound"),
  orderNotDelivered: msg("reviews.orderNotDelivered"),
  anonymous: msg("reviews.anonymous"),
};

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** A shown product by its slug, or the 404. */
async function productBySlug(db: D1Database, lang: Lang, slug: string): Promise<{ id: number; slug: string }> {
  const product = await db
    .prepare("SELECT id, slug FROM products WHERE slug = ? AND active = 1")
    .bind(slug)
    .first<{ id: number; slug: string }>();
  if (!product) throw notFound(say(lang, SAY.productNotFound));
  return product;
}

/** The caller's delivered order that holds the product (their latest), or null. */
export async function buyerOrder(db: D1Database, userId: number, productId: number): Promise<number | null> {
  return db
    .prepare(
      `SELECT o.id FROM orders o JOIN order_items oi ON oi.order_id = o.id
       WHERE o.user_id = ? AND oi.product_id = ? AND o.delivered_at IS NOT NULL
       ORDER BY o.delivered_at DESC LIMIT 1`,
    )
    .bind(userId, productId)
    .first<number>("id");
}

/** The name shown with a review when the author chose none: the account's first name. */
function firstName(name: string | null, lang: Lang): string {
  const first = (name ?? "").trim().split(/\s+/)[0] ?? "";
  return first ? first.slice(0, REVIEW_AUTHOR_MAX) : say(lang, SAY.anonymous);
}

/** The photos an edit keeps: those `keep` names (in their order on the review), or all without `keep`. */
function keptPhotos(existing: { key: string }[], keep: string[] | null): string[] {
  if (keep === null) return existing.map((p) => p.key);
  const wanted = new Set(keep.filter((k) => REVIEW_PHOTO_KEY.test(k)));
  return existing.map((p) => p.key).filter((k) => wanted.has(k));
}

export interface ReviewFiles {
  photos: File[];
  thumbs: File[];
  /** `keep_photos` as the form sent it; null when the form had no such field. */
  keep: string[] | null;
}

/** Creates or edits the caller's review of a product; answers it, and whether it is new. */
export async function writeReview(
  env: Pick<Env, "DB" | "MEDIA"> & Partial<Env>,
  lang: Lang,
  userId: number,
  input: ReviewInput,
  files: ReviewFiles,
): Promise<{ review: OwnReview; created: boolean }> {
  const db = env.DB;
  const product = await productBySlug(db, lang, input.product);
  const orderId = await buyerOrder(db, userId, product.id);
  if (orderId === null) throw new BackendError(403, say(lang, SAY.notBuyer));

  const [existingRows, photoRows, user] = await db.batch([
    db
      .prepare(`SELECT ${REVIEW_COLUMNS} FROM reviews r WHERE r.product_id = ? AND r.user_id = ?`)
      .bind(product.id, userId),
    db
      .prepare(
        `SELECT p.key, p.thumb_key FROM review_photos p JOIN reviews r ON r.id = p.review_id
         WHERE r.product_id = ? AND r.user_id = ? ORDER BY p.position, p.id`,
      )
      .bind(product.id, userId),
    db.prepare("SELECT name FROM users WHERE id = ?").bind(userId),
  ]);
  const existing = (existingRows.results[0] as ReviewRow | undefined) ?? null;
  const oldPhotos = photoRows.results as { key: string; thumb_key: string | null }[];
  const kept = keptPhotos(oldPhotos, files.keep);
  const fresh: NewPhoto[] = await checkNewPhotos(lang, files.photos, files.thumbs, kept.length);

  const rules = (await loadSettings(env)).reviews;
  const flags = screenText(`${input.title}\n${input.body}`, rules);
  const publish = rules.publish === "all" || (rules.publish === "clean" && flags.length === 0);
  const status = publish ? "published" : "pending";
  const reviewLang = input.lang ?? detectReviewLang(`${input.title} ${input.body}`);
  const authorName =
    input.author_name ?? firstName((user.results[0] as { name: string } | undefined)?.name ?? null, lang);

  // The bytes first: a row never names an object R2 does not hold.
  await storePhotos(env.MEDIA, fresh);

  const owner = "(SELECT id FROM reviews WHERE product_id = ?1 AND user_id = ?2)";
  const visible = publishedState(existing?.status ?? null, status);
  await db.batch([
    db
      .prepare(
        `INSERT INTO reviews (product_id, user_id, order_id, rating, title, body, lang, author_name, status, flags, published_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, CASE WHEN ?9 = 'published' THEN ${NOW} END)
         ON CONFLICT (product_id, user_id) DO UPDATE SET
           order_id = excluded.order_id, rating = excluded.rating, title = excluded.title, body = excluded.body,
           lang = excluded.lang, author_name = excluded.author_name, status = excluded.status, flags = excluded.flags,
           reject_reason = NULL, moderated_at = NULL, moderated_by = NULL,
           published_at = COALESCE(reviews.published_at, excluded.published_at),
           edited_at = CASE WHEN reviews.published_at IS NOT NULL THEN ${NOW} ELSE reviews.edited_at END,
           updated_at = ${NOW}`,
      )
      .bind(
        product.id,
        userId,
        orderId,
        input.rating,
        input.title,
        input.body,
        reviewLang,
        authorName,
        status,
        flags.length ? JSON.stringify(flags) : null,
      ),
    // Kept photos stay in their order; the rest go, and the new ones follow them.
    db
      .prepare(`DELETE FROM review_photos WHERE review_id = ${owner} AND key NOT IN (SELECT value FROM json_each(?3))`)
      .bind(product.id, userId, JSON.stringify(kept)),
    ...kept.map((key, position) =>
      db
        .prepare(`UPDATE review_photos SET position = ?4 WHERE review_id = ${owner} AND key = ?3`)
        .bind(product.id, userId, key, position),
    ),
    ...fresh.map((p, i) =>
      db
        .prepare(
          `INSERT OR IGNORE INTO review_photos (review_id, key, content_type, width, height, position, thumb_key)
           VALUES (${owner}, ?3, ?4, ?5, ?6, ?7, ?8)`,
        )
        .bind(
          product.id,
          userId,
          p.photo.key,
          p.photo.facts.type,
          p.photo.facts.width,
          p.photo.facts.height,
          kept.length + i,
          p.thumb && p.thumb.key !== p.photo.key ? p.thumb.key : null,
        ),
    ),
    ...(visible ? [bumpCatalogueVersion(db)] : []),
  ]);
  if (visible) forgetCatalogueVersion();
  const dropped = oldPhotos.filter((p) => !kept.includes(p.key)).flatMap((p) => [p.key, p.thumb_key ?? p.key]);
  await forgetPhotos(db, env.MEDIA, dropped);
  const review = await ownReviewOf(db, product.id, userId);
  if (!review) throw new Error("the review just written is gone");
  return { review, created: existing === null };
}

/** GET /client/reviews/eligibility?product=: whether the caller may review it, and their review. */
export async function reviewEligibility(
  db: D1Database,
  lang: Lang,
  userId: number,
  slug: string,
): Promise<ReviewEligibility> {
  const product = await productBySlug(db, lang, slug);
  const [order, own] = await Promise.all([buyerOrder(db, userId, product.id), ownReviewOf(db, product.id, userId)]);
  return { can_review: order !== null, own };
}

/**
 * GET /client/reviews/reviewable?order=: the products of the caller's delivered order, each with
 * their review if they wrote one. Another's order (or an unknown number) is a 404, as order pages
 * answer; the caller's order not yet delivered is a 403 that says so.
 */
export async function reviewableProducts(
  db: D1Database,
  lang: Lang,
  userId: number,
  number: string,
): Promise<ReviewableProduct[]> {
  const order = await db
    .prepare("SELECT id, delivered_at FROM orders WHERE number = ? AND user_id = ?")
    .bind(number, userId)
    .first<{ id: number; delivered_at: string | null }>();
  if (!order) throw notFound(say(lang, SAY.orderNotFound));
  if (!order.delivered_at) throw new BackendError(403, say(lang, SAY.orderNotDelivered));
  const { results } = await db
    .prepare(
      `SELECT p.id, p.slug, p.${col("name", lang)} AS name, p.images FROM products p
       WHERE p.active = 1 AND p.id IN (SELECT product_id FROM order_items WHERE order_id = ?1)
       ORDER BY (SELECT MIN(id) FROM order_items WHERE order_id = ?1 AND product_id = p.id)`,
    )
    .bind(order.id)
    .all<{ id: number; slug: string; name: string; images: string }>();
  const own = await Promise.all(results.map((p) => ownReviewOf(db, p.id, userId)));
  return results.map((p, i) => ({
    slug: p.slug,
    name: p.name,
    image:
      parseJson<string[]>(p.images, []).find((x) => typeof x === "string") ?? `/backend/media/products/${p.slug}.svg`,
    own: own[i] ?? null,
  }));
}

/**
 * DELETE /client/reviews/{id}/photos/{index}: takes one photo off the caller's own review (another
 * account's review, or no such photo, is a 404). The review keeps its state: nothing new was said.
 */
export async function deleteOwnPhoto(
  env: Pick<Env, "DB" | "MEDIA">,
  lang: Lang,
  userId: number,
  reviewId: number,
  index: number,
): Promise<OwnReview> {
  const db = env.DB;
  const review = await db
    .prepare("SELECT product_id, status FROM reviews WHERE id = ? AND user_id = ?")
    .bind(reviewId, userId)
    .first<{ product_id: number; status: OwnReview["status"] }>();
  const photo = review
    ? await db
        .prepare(
          "SELECT id, key, thumb_key FROM review_photos WHERE review_id = ? ORDER BY position, id LIMIT 1 OFFSET ?",
        )
        .bind(reviewId, index)
        .first<{ id: number; key: string; thumb_key: string | null }>()
    : null;
  if (!review || !photo) throw notFound(say(lang, msg("reviews.notFound")));
  const visible = review.status === "published";
  await db.batch([
    // The others keep their positions: the order is by position, gaps and all.
    db.prepare("DELETE FROM review_photos WHERE id = ?").bind(photo.id),
    db.prepare(`UPDATE reviews SET updated_at = ${NOW} WHERE id = ?`).bind(reviewId),
    ...(visible ? [bumpCatalogueVersion(db)] : []),
  ]);
  if (visible) forgetCatalogueVersion();
  await forgetPhotos(db, env.MEDIA, [photo.key, photo.thumb_key ?? photo.key]);
  const own = await ownReviewOf(db, review.product_id, userId);
  if (!own) throw notFound(say(lang, msg("reviews.notFound")));
  return own;
}
