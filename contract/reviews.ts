// Product reviews and ratings: the wire between the storefront (and the console) and the
// backend. Both sides import it, and it imports neither (test/node/boundaries.test.ts).
// Money-free; times are ISO strings; text is plain text (rendered as text, never as HTML).

/** 1 to 5 stars. */
export type Stars = 1 | 2 | 3 | 4 | 5;
export type ReviewLang = "en" | "ar";
export const REVIEW_SORTS = ["newest", "helpful", "highest", "lowest"] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];
export const REVIEW_STATUSES = ["pending", "published", "rejected"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** At most this many photos on one review; each at most REVIEW_PHOTO_MAX_BYTES, JPEG, PNG or WebP. */
export const REVIEW_PHOTOS_MAX = 4;
export const REVIEW_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const REVIEW_TITLE_MAX = 120;
export const REVIEW_BODY_MAX = 4000;
/** Reviews in one page of a product's list. */
export const REVIEWS_PER_PAGE = 10;

/** A product's published rating, as cards and the product page show it (count 0: no stars). */
export interface RatingSummary {
  /** Published reviews. */
  count: number;
  /** Their mean, rounded to one decimal; 0 when count is 0. */
  average: number;
}

/** The summary with how many published reviews gave each number of stars (index 0 is 1 star). */
export interface RatingDistribution extends RatingSummary {
  stars: [number, number, number, number, number];
}

/** A photo on a review, served from the shop's origin; `thumb` is the display-sized image. */
export interface ReviewPhoto {
  url: string;
  thumb: string;
  width: number;
  height: number;
}

/** The store's public reply to a review. */
export interface ReviewReply {
  text: string;
  created_at: string;
}

/** A published review as any visitor reads it. */
export interface PublicReview {
  id: number;
  rating: Stars;
  title: string;
  body: string;
  lang: ReviewLang;
  author_name: string;
  /** Always true today (only buyers of a delivered order may review); kept for the badge. */
  verified_buyer: boolean;
  helpful_count: number;
  photos: ReviewPhoto[];
  reply: ReviewReply | null;
  created_at: string;
  /** Edited after it was first published. */
  edited: boolean;
}

/**
 * GET /catalogue/products/{slug}/reviews?sort=&stars=&lang=&page= (public; published reviews only).
 * `stars` filters to one number of stars, `lang` to one language; `page` starts at 1.
 */
export interface ReviewsPage {
  summary: RatingDistribution;
  data: PublicReview[];
  meta: { page: number; per_page: number; total: number; last_page: number };
}

/** What a signed-in shopper may do about a product's reviews (GET /client/reviews/eligibility?product=slug). */
export interface ReviewEligibility {
  /** A delivered order of theirs holds the product. */
  can_review: boolean;
  /** Their own review of it, in whatever state, to edit. */
  own: OwnReview | null;
}

/** The author's own review, with its moderation state. */
export interface OwnReview extends Omit<PublicReview, "verified_buyer" | "helpful_count"> {
  product_slug: string;
  status: ReviewStatus;
  /** Why staff rejected it, in the words staff wrote. */
  reject_reason: string | null;
}

/** What a review invitation's link opens: the products of a delivered order the buyer may review. */
export interface ReviewableProduct {
  slug: string;
  name: string;
  image: string | null;
  own: OwnReview | null;
}

/** Backend paths (under the backend base). */
export const REVIEWS_PATHS = {
  /** GET public list: `/catalogue/products/{slug}/reviews` */
  list: (slug: string) => `/catalogue/products/${encodeURIComponent(slug)}/reviews`,
  /** GET ?product=slug → ReviewEligibility (signed in). */
  eligibility: "/client/reviews/eligibility",
  /** GET ?order=number → ReviewableProduct[] (signed in; the order must be theirs and delivered). */
  reviewable: "/client/reviews/reviewable",
  /** POST (multipart: product, rating, title, body, lang?, author_name?, photos[]) creates or replaces the caller's review of the product → OwnReview. */
  write: "/client/reviews",
  /** DELETE a photo of the caller's own review: `/client/reviews/{id}/photos/{index}`. */
  /** POST { } marks a review helpful for the caller (an account or a guest id), once → { helpful_count }. */
  helpful: (id: number) => `/reviews/${id}/helpful`,
  /** POST { reason } reports a review, once per caller → 204. */
  report: (id: number) => `/reviews/${id}/report`,
  /** GET a review photo: `/media/reviews/{key}`; `?w=` asks for the display size. */
  photo: (key: string) => `/media/reviews/${key}`,
} as const;

/** The reasons a shopper may give when reporting a review. */
export const REVIEW_REPORT_REASONS = ["spam", "offensive", "off_topic", "personal_data", "other"] as const;
export type ReviewReportReason = (typeof REVIEW_REPORT_REASONS)[number];

// ---- The console (staff) ----

/** A review in the moderation queue. */
export interface ConsoleReview {
  id: number;
  product: { id: number; slug: string; name_en: string; name_ar: string };
  author: { user_id: number; name: string; email: string | null };
  order_number: string | null;
  rating: Stars;
  title: string;
  body: string;
  lang: ReviewLang;
  status: ReviewStatus;
  /** What the screening rule found in the text (`link`, `email`, `phone`, `word`). */
  flags: string[];
  reject_reason: string | null;
  helpful_count: number;
  /** Open reports, newest first. */
  reports: { reason: ReviewReportReason; created_at: string }[];
  photos: ReviewPhoto[];
  reply: ReviewReply | null;
  created_at: string;
  updated_at: string;
}

/** GET /admin/reviews?status=pending|published|rejected|reported&page= */
export interface ConsoleReviewsPage {
  data: ConsoleReview[];
  counts: { pending: number; reported: number };
  meta: { page: number; per_page: number; total: number; last_page: number };
}

/**
 * Console calls: POST /admin/reviews/{id}/approve, POST /admin/reviews/{id}/reject { reason },
 * PUT /admin/reviews/{id}/reply { text, lang } (empty text removes the reply),
 * POST /admin/reviews/{id}/dismiss-reports. Each is audited.
 */
export const CONSOLE_REVIEWS_PATH = "/admin/reviews";
