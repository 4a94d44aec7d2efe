// Product reviews and ratings: the wire between the storefront (and the console) and the
// backend. Both sides import it, and it imports neither (test/node/boundaries.test.ts).
// Money-free; times are ISO strings; text is plain text (rendered as text, never as HTML).

import * as v from "valibot";

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
/** The name shown with a review (default: the account's first name). */
export const REVIEW_AUTHOR_MAX = 60;
/** What staff write when they reject a review (the author reads it) and when they reply. */
export const REVIEW_REJECT_REASON_MAX = 500;
export const REVIEW_REPLY_MAX = 2000;
/**
 * Photo sizes in pixels, on the long side. The browser resizes each photo to a display copy of at
 * most REVIEW_DISPLAY_MAX_SIDE and a thumbnail of at most REVIEW_THUMB_MAX_SIDE before upload, and
 * sends both (`photos` and `thumbs`, in the same order). A form without JavaScript sends the photo
 * as the camera made it (`photos` only): the server then takes it as its own thumbnail, so it is
 * refused only past REVIEW_PHOTO_MAX_SIDE a side or REVIEW_PHOTO_MAX_PIXELS in all (a
 * decompression bomb), or past REVIEW_PHOTO_MAX_BYTES.
 */
export const REVIEW_DISPLAY_MAX_SIDE = 1600;
export const REVIEW_THUMB_MAX_SIDE = 320;
export const REVIEW_PHOTO_MAX_SIDE = 8192;
export const REVIEW_PHOTO_MAX_PIXELS = 40_000_000;
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

/**
 * A photo on a review, served from the shop's origin: `url` is the display copy (`width` ×
 * `height`), `thumb` its thumbnail (the display copy itself when the form sent none). `key` names
 * the photo in `keep_photos` when its review is edited.
 */
export interface ReviewPhoto {
  key: string;
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
  /**
   * POST (multipart/form-data: product, rating, title, body, lang?, author_name?, photos[],
   * thumbs[], keep_photos[]) creates or replaces the caller's review of the product → OwnReview
   * (201 new, 200 edited). Photos on an edit: when the form carries `keep_photos` (even one empty
   * value), the review keeps exactly the photos it names by key, then the new ones; without the
   * field every photo it had stays and the new ones are added. At most REVIEW_PHOTOS_MAX in all.
   * 403 unless a delivered order of the caller's holds the product; 422 with field errors.
   */
  write: "/client/reviews",
  /**
   * DELETE a photo of the caller's own review: `/client/reviews/{id}/photos/{index}` (0 is the
   * first) → OwnReview. Its state stays as it was (nothing new to screen).
   */
  /** POST { } marks a review helpful for the caller (an account or a guest id), once → { helpful_count }. */
  helpful: (id: number) => `/reviews/${id}/helpful`,
  /** POST { reason } reports a review, once per caller → 204. */
  report: (id: number) => `/reviews/${id}/report`,
  /** GET a review photo or thumbnail (each its own key): `/media/reviews/{key}`. */
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

// ---- Inputs: one schema per input, for the forms and the backend alike (contract/inputs.ts) ----

/** The review fields whose refusals the caller words (contract/inputs.ts InputField names them). */
type ReviewField =
  "product" | "rating" | "title" | "body" | "review_lang" | "author_name" | "report_reason" | "reason" | "reply";

/**
 * The wording of the schemas' refusals: contract/inputs.ts's InputMessages fits it (the backend's
 * in the request's language, the forms' with their labels). Named here so this file imports no
 * other part of the contract.
 */
export interface ReviewMessages {
  required(field: ReviewField): string;
  maxLength(field: ReviewField, max: number): string;
  invalid(field: ReviewField): string;
}

/** A review photo's key: the first 128 bits of its SHA-256, and its type. */
export const REVIEW_PHOTO_KEY = /^[a-f0-9]{32}\.(jpg|png|webp)$/;

/** Arabic letters: a review written with them and no language chosen is Arabic. */
const ARABIC_LETTERS = /[\u0621-\u064A\u0671-\u06D3]/;

/** The language of a review's text when the author did not choose one: Arabic letters make it Arabic. */
export function detectReviewLang(text: string): ReviewLang {
  return ARABIC_LETTERS.test(text) ? "ar" : "en";
}

const text = (m: ReviewMessages, field: "title" | "body" | "reason", max: number) =>
  v.pipe(
    v.optional(v.string(m.required(field)), ""),
    v.trim(),
    v.nonEmpty(m.required(field)),
    v.maxLength(max, m.maxLength(field, max)),
  );

/**
 * The text fields of a review as the write form sends them (multipart values are text; a JSON
 * caller may send the rating as a number). Photos are files, checked by the server apart.
 */
export function reviewInput(m: ReviewMessages) {
  return v.object({
    product: v.pipe(
      v.optional(v.string(m.required("product")), ""),
      v.trim(),
      v.nonEmpty(m.required("product")),
      v.maxLength(120, m.invalid("product")),
      v.regex(/^[a-z0-9-]+$/, m.invalid("product")),
    ),
    rating: v.pipe(
      v.optional(v.union([v.string(), v.number()], m.invalid("rating")), ""),
      v.transform((r) => (typeof r === "number" ? r : r.trim() === "" ? NaN : Number(r))),
      v.check((r) => !Number.isNaN(r), m.required("rating")),
      v.check((r) => Number.isInteger(r) && r >= 1 && r <= 5, m.invalid("rating")),
      v.transform((r) => r as Stars),
    ),
    title: text(m, "title", REVIEW_TITLE_MAX),
    body: text(m, "body", REVIEW_BODY_MAX),
    // Left empty: detected from the text (detectReviewLang).
    lang: v.optional(
      v.pipe(
        v.string(m.invalid("review_lang")),
        v.trim(),
        v.check((s) => s === "" || s === "en" || s === "ar", m.invalid("review_lang")),
        v.transform((s) => (s === "" ? undefined : (s as ReviewLang))),
      ),
    ),
    // Left empty: the account's first name.
    author_name: v.optional(
      v.pipe(
        v.string(m.invalid("author_name")),
        v.trim(),
        v.maxLength(REVIEW_AUTHOR_MAX, m.maxLength("author_name", REVIEW_AUTHOR_MAX)),
        v.transform((s) => (s === "" ? undefined : s)),
      ),
    ),
  });
}
export type ReviewInput = v.InferOutput<ReturnType<typeof reviewInput>>;

/** POST /reviews/{id}/report. */
export function reviewReportInput(m: ReviewMessages) {
  return v.object({
    reason: v.picklist(REVIEW_REPORT_REASONS, m.invalid("report_reason")),
  });
}

/** POST /admin/reviews/{id}/reject: the reason the author is told. */
export function reviewRejectInput(m: ReviewMessages) {
  return v.object({ reason: text(m, "reason", REVIEW_REJECT_REASON_MAX) });
}

/** PUT /admin/reviews/{id}/reply: the store's public answer; empty text removes it. */
export function reviewReplyInput(m: ReviewMessages) {
  return v.object({
    text: v.pipe(
      v.optional(v.string(m.invalid("reply")), ""),
      v.trim(),
      v.maxLength(REVIEW_REPLY_MAX, m.maxLength("reply", REVIEW_REPLY_MAX)),
    ),
    lang: v.picklist(["en", "ar"], m.invalid("review_lang")),
  });
}

/** What the console's queue shows: one status, or the reviews with open reports. */
export const CONSOLE_REVIEW_FILTERS = [...REVIEW_STATUSES, "reported"] as const;
export type ConsoleReviewFilter = (typeof CONSOLE_REVIEW_FILTERS)[number];
/** Reviews in one page of the console's queue. */
export const CONSOLE_REVIEWS_PER_PAGE = 20;
