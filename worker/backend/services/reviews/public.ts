import {
  REVIEWS_PER_PAGE,
  type RatingDistribution,
  type ReviewLang,
  type ReviewSort,
  type ReviewsPage,
  type Stars,
} from "../../../../contract/reviews";
import { averageOf } from "./rating";
import { publicReview, REVIEW_COLUMNS, type ReviewRow } from "./rows";

/**
 * A product's published reviews as any visitor reads them (GET /catalogue/products/{slug}/reviews):
 * the summary of all of them (count, average, how many gave each number of stars), then one page
 * sorted and filtered as asked. One round trip; the answer is cached like the catalogue's under
 * the catalogue version, which every publish, unpublish and reply moves (routes/reviews.ts).
 */

export interface ReviewsQuery {
  sort: ReviewSort;
  stars?: Stars;
  lang?: ReviewLang;
  page: number;
}

const ORDER: Record<ReviewSort, string> = {
  newest: "r.created_at DESC, r.id DESC",
  helpful: "r.helpful_count DESC, r.created_at DESC, r.id DESC",
  highest: "r.rating DESC, r.created_at DESC, r.id DESC",
  lowest: "r.rating ASC, r.created_at DESC, r.id DESC",
};

/** A product's published reviews, or null when no shown product has the slug. */
export async function productReviews(db: D1Database, slug: string, query: ReviewsQuery): Promise<ReviewsPage | null> {
  const product = "(SELECT id FROM products WHERE slug = ?1 AND active = 1)";
  const where = [`r.product_id = ${product}`, "r.status = 'published'"];
  const binds: unknown[] = [slug];
  if (query.stars) {
    binds.push(query.stars);
    where.push(`r.rating = ?${binds.length}`);
  }
  if (query.lang) {
    binds.push(query.lang);
    where.push(`r.lang = ?${binds.length}`);
  }
  const offset = (query.page - 1) * REVIEWS_PER_PAGE;
  const [found, distribution, page, filtered] = await db.batch([
    db.prepare("SELECT id FROM products WHERE slug = ? AND active = 1").bind(slug),
    db
      .prepare(
        `SELECT rating, COUNT(*) AS n FROM reviews WHERE product_id = ${product} AND status = 'published' GROUP BY rating`,
      )
      .bind(slug),
    db
      .prepare(
        `SELECT ${REVIEW_COLUMNS} FROM reviews r WHERE ${where.join(" AND ")}
         ORDER BY ${ORDER[query.sort]} LIMIT ${REVIEWS_PER_PAGE} OFFSET ${offset}`,
      )
      .bind(...binds),
    db.prepare(`SELECT COUNT(*) AS n FROM reviews r WHERE ${where.join(" AND ")}`).bind(...binds),
  ]);
  if (!found.results.length) return null;
  const stars: RatingDistribution["stars"] = [0, 0, 0, 0, 0];
  for (const row of distribution.results as { rating: number; n: number }[]) stars[row.rating - 1] = row.n;
  const count = stars.reduce((a, b) => a + b, 0);
  const sum = stars.reduce((a, n, i) => a + n * (i + 1), 0);
  const total = (filtered.results[0] as { n: number } | undefined)?.n ?? 0;
  return {
    summary: { count, average: averageOf(count, sum), stars },
    data: (page.results as ReviewRow[]).map(publicReview),
    meta: {
      page: query.page,
      per_page: REVIEWS_PER_PAGE,
      total,
      last_page: Math.max(1, Math.ceil(total / REVIEWS_PER_PAGE)),
    },
  };
}
