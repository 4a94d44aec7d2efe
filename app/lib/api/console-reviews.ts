import {
  CONSOLE_REVIEWS_PATH,
  type ConsoleReview,
  type ConsoleReviewsPage,
  type ReviewLang,
} from "../../../contract/reviews";
import type { Api } from "./client";

/** The console's review moderation (contract/reviews.ts): the queue by tab, and what staff do to a review. */

export const REVIEW_TABS = ["pending", "reported", "published", "rejected"] as const;
export type ReviewTab = (typeof REVIEW_TABS)[number];

/** GET /admin/reviews?status=&page=: one tab of the queue, with the pending and reported counts. */
export function listConsoleReviews(api: Api, status: ReviewTab, page?: number) {
  // The counts and meta sit beside `data`, as every console list's meta does.
  return api.get<ConsoleReview[]>(CONSOLE_REVIEWS_PATH, { query: { status, page } }) as Promise<ConsoleReviewsPage>;
}

/** POST /admin/reviews/{id}/approve: publishes it. */
export function approveReview(api: Api, id: number) {
  return api.post<ConsoleReview>(`${CONSOLE_REVIEWS_PATH}/${id}/approve`);
}

/** POST /admin/reviews/{id}/reject { reason }: the reason is what the author is told. */
export function rejectReview(api: Api, id: number, reason: string) {
  return api.post<ConsoleReview>(`${CONSOLE_REVIEWS_PATH}/${id}/reject`, { reason });
}

/** PUT /admin/reviews/{id}/reply { text, lang }: the store's public reply; empty text removes it. */
export function replyToReview(api: Api, id: number, text: string, lang: ReviewLang) {
  return api.put<ConsoleReview>(`${CONSOLE_REVIEWS_PATH}/${id}/reply`, { text, lang });
}

/** POST /admin/reviews/{id}/dismiss-reports: the reports are dealt with; the review stays as it is. */
export function dismissReviewReports(api: Api, id: number) {
  return api.post<ConsoleReview>(`${CONSOLE_REVIEWS_PATH}/${id}/dismiss-reports`);
}
