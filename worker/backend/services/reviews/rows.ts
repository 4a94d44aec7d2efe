import type {
  OwnReview,
  PublicReview,
  ReviewLang,
  ReviewReply,
  ReviewStatus,
  Stars,
} from "../../../../contract/reviews";
import { parseJson } from "../catalogue/summary";
import { presentPhoto, type PhotoRow } from "./photos";

/** A review as every read selects it (alias `r`), its photos as one JSON list in their order. */
export const REVIEW_COLUMNS = `r.id, r.product_id, r.user_id, r.order_id, r.rating, r.title, r.body, r.lang, r.author_name,
  r.status, r.reject_reason, r.flags, r.helpful_count, r.report_count, r.reply_text, r.reply_lang, r.replied_at,
  r.created_at, r.updated_at, r.published_at, r.edited_at,
  (SELECT json_group_array(json_object('key', key, 'thumb_key', thumb_key, 'width', width, 'height', height))
   FROM (SELECT key, thumb_key, width, height FROM review_photos WHERE review_id = r.id ORDER BY position, id)) AS photos`;

export interface ReviewRow {
  id: number;
  product_id: number;
  user_id: number;
  order_id: number | null;
  rating: Stars;
  title: string;
  body: string;
  lang: ReviewLang;
  author_name: string;
  status: ReviewStatus;
  reject_reason: string | null;
  flags: string | null;
  helpful_count: number;
  report_count: number;
  reply_text: string | null;
  reply_lang: ReviewLang | null;
  replied_at: string | null;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  edited_at: string | null;
  photos: string;
}

/** Whether a change from `before` to `after` touches what shoppers see (a published review either side). */
export const publishedState = (before: ReviewStatus | null, after: ReviewStatus | null): boolean =>
  before === "published" || after === "published";

const replyOf = (r: ReviewRow): ReviewReply | null =>
  r.reply_text ? { text: r.reply_text, created_at: r.replied_at ?? r.updated_at } : null;

export const photosOf = (r: Pick<ReviewRow, "photos">) => parseJson<PhotoRow[]>(r.photos, []).map(presentPhoto);

export const flagsOf = (r: Pick<ReviewRow, "flags">) => (r.flags ? parseJson<string[]>(r.flags, []) : []);

/** A published review as any visitor reads it. */
export function publicReview(r: ReviewRow): PublicReview {
  return {
    id: r.id,
    rating: r.rating,
    title: r.title,
    body: r.body,
    lang: r.lang,
    author_name: r.author_name,
    verified_buyer: true,
    helpful_count: r.helpful_count,
    photos: photosOf(r),
    reply: replyOf(r),
    created_at: r.created_at,
    edited: r.edited_at !== null,
  };
}

/** The author's own review, with its state. */
export function ownReview(r: ReviewRow, productSlug: string): OwnReview {
  return {
    id: r.id,
    rating: r.rating,
    title: r.title,
    body: r.body,
    lang: r.lang,
    author_name: r.author_name,
    photos: photosOf(r),
    reply: replyOf(r),
    created_at: r.created_at,
    edited: r.edited_at !== null,
    product_slug: productSlug,
    status: r.status,
    reject_reason: r.reject_reason,
  };
}

/** The caller's review of a product, or null. */
export async function ownReviewOf(db: D1Database, productId: number, userId: number): Promise<OwnReview | null> {
  const row = await db
    .prepare(
      `SELECT ${REVIEW_COLUMNS}, p.slug AS product_slug FROM reviews r JOIN products p ON p.id = r.product_id
       WHERE r.product_id = ? AND r.user_id = ?`,
    )
    .bind(productId, userId)
    .first<ReviewRow & { product_slug: string }>();
  return row ? ownReview(row, row.product_slug) : null;
}
