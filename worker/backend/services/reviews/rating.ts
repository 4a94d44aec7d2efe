import type { RatingSummary } from "../../../../contract/reviews";

/** The mean to one decimal, 0 without reviews (contract/reviews.ts RatingSummary). */
export const averageOf = (count: number, sum: number) => (count > 0 ? Math.round((sum / count) * 10) / 10 : 0);

/**
 * A product's kept rating (products.rating_count and rating_sum, which migration 0054's triggers
 * keep exact) as cards and the product page show it; null without published reviews.
 */
export const ratingOf = (count: number | undefined, sum: number | undefined): RatingSummary | null =>
  count ? { count, average: averageOf(count, sum ?? 0) } : null;
