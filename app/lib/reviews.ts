import type { PublicReview, RatingSummary } from "../../contract/reviews";

/**
 * Product reviews' pure rules, shared by the cards, the product page, its structured data and the
 * review form: how stars are drawn from an average, how a rating reads, and how a photo is sized
 * before it is uploaded. No React, no Intl formatter: cards call these for every product of a list.
 */

/** The stars' filled share of their row, in percent: the average rounded to the nearest half star. */
export function starPercent(average: number): number {
  if (!Number.isFinite(average) || average <= 0) return 0;
  const halves = Math.round(Math.min(average, 5) * 2);
  return halves * 10;
}

/**
 * An average as the shop writes it: one decimal ("4.0", "4.5"), the same Latin digits and dot in
 * both languages (Arabic shows Latin digits, as prices do: `ar-SA-u-nu-latn` writes 4.5 so).
 */
export function formatAverage(average: number): string {
  const value = Number.isFinite(average) ? Math.min(Math.max(average, 0), 5) : 0;
  return (Math.round(value * 10) / 10).toFixed(1);
}

/** Whether a product has a rating to show: at least one published review. */
export function hasRating(rating: RatingSummary | null | undefined): rating is RatingSummary {
  return Boolean(rating && rating.count > 0);
}

/** The fields of a published review that its schema.org `Review` item needs. */
export type ReviewForSchema = Pick<PublicReview, "rating" | "body" | "title" | "author_name" | "created_at">;

/** How many published reviews the product page's structured data names, and how much of each text. */
export const SCHEMA_REVIEWS = 3;
const SCHEMA_BODY_MAX = 1000;

/** The first few published reviews, trimmed to what structured data carries. */
export function reviewsForSchema(reviews: readonly ReviewForSchema[]): ReviewForSchema[] {
  return reviews.slice(0, SCHEMA_REVIEWS).map((r) => ({
    rating: r.rating,
    title: r.title,
    author_name: r.author_name,
    created_at: r.created_at,
    body: r.body.length > SCHEMA_BODY_MAX ? `${r.body.slice(0, SCHEMA_BODY_MAX - 1).trimEnd()}…` : r.body,
  }));
}
