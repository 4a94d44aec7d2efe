import type { Api } from "./api/client";
import { listReviews } from "./api/reviews";
import { reviewsForSchema, SCHEMA_REVIEWS, type ReviewForSchema } from "./reviews";

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
