import type { RatingSummary } from "../../contract/reviews";
import { shopIsoDay } from "../../contract/shop-time";
import type { Api } from "./api/client";
import { listReviews } from "./api/reviews";
import { formatAverage, hasRating, reviewsForSchema, SCHEMA_REVIEWS, type ReviewForSchema } from "./reviews";

/**
 * The first few published reviews of a product, for its page's structured data (schema.org
 * `review`): the most helpful first page of its list, trimmed to what the JSON-LD carries. Read
 * in parallel with the product itself; a backend without reviews, or a failed read, gives none
 * (the page never fails for them).
 */
export async function schemaReviews(api: Api, slug: string): Promise<ReviewForSchema[]> {
  try {
    const page = await listReviews(api, slug, { sort: "helpful", page: 1 });
    return Array.isArray(page.data) ? reviewsForSchema(page.data.slice(0, SCHEMA_REVIEWS)) : [];
  } catch {
    return [];
  }
}

/**
 * schema.org `aggregateRating` and `review` for a product, as Google's review snippet rules ask:
 * only from published reviews, only when there is at least one, the rating on a 1 to 5 scale.
 * Nothing at all for a product without reviews (an empty rating is not allowed).
 */
export function ratingStructuredData(
  rating: RatingSummary | null | undefined,
  reviews: readonly ReviewForSchema[] = [],
): Record<string, unknown> {
  if (!hasRating(rating)) return {};
  return {
    aggregateRating: {
      "@type": "AggregateRating",
      ratingValue: formatAverage(rating.average),
      reviewCount: rating.count,
      bestRating: 5,
      worstRating: 1,
    },
    ...(reviews.length
      ? {
          review: reviews.slice(0, SCHEMA_REVIEWS).map((r) => ({
            "@type": "Review",
            author: { "@type": "Person", name: r.author_name },
            datePublished: shopIsoDay(r.created_at),
            ...(r.title ? { name: r.title } : {}),
            reviewBody: r.body,
            reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5, worstRating: 1 },
          })),
        }
      : {}),
  };
}
