import {
  REVIEWS_PATHS,
  type OwnReview,
  type ReviewableProduct,
  type ReviewEligibility,
  type ReviewReportReason,
  type ReviewSort,
  type ReviewsPage,
} from "../../../contract/reviews";
import { buildHeaders, type Api } from "./client";
import { ApiError } from "./errors";

/**
 * Product reviews as shoppers read and write them (contract/reviews.ts). Reads and the small
 * JSON writes go through the shared client; the review itself is multipart (its photos), sent
 * here with the client's headers so nothing else in the shop builds a backend request.
 */

export interface ReviewsQuery {
  sort?: ReviewSort;
  stars?: number;
  lang?: "en" | "ar";
  page?: number;
}

/** GET /catalogue/products/{slug}/reviews: a page of a product's published reviews, with its distribution. */
export function listReviews(api: Api, slug: string, query: ReviewsQuery = {}, signal?: AbortSignal) {
  // The page's summary and meta sit beside `data`, as a product list's meta does.
  return api.get<ReviewsPage["data"]>(REVIEWS_PATHS.list(slug), {
    query: { sort: query.sort, stars: query.stars, lang: query.lang, page: query.page },
    signal,
  }) as Promise<ReviewsPage>;
}

/** GET /client/reviews/eligibility?product=: whether the signed-in shopper may review it, and their own review. */
export function reviewEligibility(api: Api, slug: string, signal?: AbortSignal) {
  return api.get<ReviewEligibility>(REVIEWS_PATHS.eligibility, { query: { product: slug }, signal });
}

/** GET /client/reviews/reviewable?order=: the products of the shopper's delivered order they may review. */
export function reviewableProducts(api: Api, order: string, signal?: AbortSignal) {
  return api.get<ReviewableProduct[]>(REVIEWS_PATHS.reviewable, { query: { order }, signal });
}

/** POST /reviews/{id}/helpful: the caller found it helpful (once); answers the new count. */
export function markReviewHelpful(api: Api, id: number) {
  return api.post<{ helpful_count: number }>(REVIEWS_PATHS.helpful(id));
}

/** POST /reviews/{id}/report: the caller reports it, with a reason (once). */
export function reportReview(api: Api, id: number, reason: ReviewReportReason) {
  return api.post<null>(REVIEWS_PATHS.report(id), { reason });
}

/** What the review form sends: the text fields, and each photo's display copy with its thumbnail. */
export interface ReviewSubmission {
  product: string;
  rating: number;
  title: string;
  body: string;
  author_name: string;
  lang?: "en" | "ar";
  photos: { display: Blob; thumb: Blob; name: string }[];
  /**
   * Editing: the keys of the review's photos to keep (the rest go); absent on a new review. An
   * empty list keeps none.
   */
  keep_photos?: string[];
}

/** The multipart body the backend takes: `photos` and `thumbs` repeated, in the same order. */
export function reviewFormData(review: ReviewSubmission): FormData {
  const form = new FormData();
  form.set("product", review.product);
  form.set("rating", String(review.rating));
  form.set("title", review.title);
  form.set("body", review.body);
  form.set("author_name", review.author_name);
  if (review.lang) form.set("lang", review.lang);
  for (const photo of review.photos) form.append("photos", photo.display, photo.name);
  for (const photo of review.photos) form.append("thumbs", photo.thumb, photo.name);
  // The field present with no key keeps no photo; absent, the backend would keep them all.
  if (review.keep_photos) {
    if (review.keep_photos.length === 0) form.append("keep_photos", "");
    for (const key of review.keep_photos) form.append("keep_photos", key);
  }
  return form;
}

/**
 * POST /client/reviews (multipart): creates or replaces the caller's review of the product.
 * `base` is where the browser reaches the backend (the root loader's backendBase). A refusal is the
 * same ApiError as any call's (a 422 names its fields).
 */
export async function writeReview(api: Api, base: string, review: ReviewSubmission): Promise<{ data: OwnReview }> {
  // No content-type: the browser writes the multipart boundary itself.
  const headers = buildHeaders(api.identity);
  let res: Response;
  try {
    res = await fetch(`${base.replace(/\/$/, "")}${REVIEWS_PATHS.write}`, {
      method: "POST",
      headers,
      body: reviewFormData(review),
    });
  } catch (cause) {
    throw new ApiError(0, "", {}, cause);
  }
  const json = (await res.json().catch(() => ({}))) as {
    data?: OwnReview;
    message?: string;
    errors?: Record<string, string[]>;
  };
  if (!res.ok || !json.data) throw new ApiError(res.status, json.message ?? "", json.errors ?? {}, json);
  return { data: json.data };
}
