import { Hono } from "hono";
import * as v from "valibot";
import { CONSOLE_REVIEW_FILTERS, reviewRejectInput, reviewReplyInput } from "../../../../contract/reviews";
import { say } from "../../../../contract/server/i18n";
import { validate } from "../../../../contract/server/validate";
import type { BackendEnv } from "../../env";
import { notFound, ok } from "../../http";
import { msg } from "../../messages";
import { currentStaff, staffOnly } from "../../services/console/staff";
import {
  approveReview,
  dismissReports,
  listConsoleReviews,
  rejectReview,
  replyToReview,
} from "../../services/reviews/moderation";
import { queryInt } from "../../validate";

/**
 * /admin/reviews: the moderation of product reviews (services/reviews/moderation.ts). Support
 * reads the queue (without authors' email addresses, as with customers); managers and owners
 * approve, reject, reply and dismiss reports, as they edit the catalogue. Each step is audited.
 */
export const reviewsRoutes = new Hono<BackendEnv>();

const SAY = {
  approved: msg("reviews.moderation.approved"),
  rejected: msg("reviews.moderation.rejected"),
  replied: msg("reviews.moderation.replied"),
  replyRemoved: msg("reviews.moderation.replyRemoved"),
  dismissed: msg("reviews.moderation.dismissed"),
};

/** A review's id from the path (plain `:id`, checked here: console-access walks every route). */
function reviewId(raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) throw notFound();
  return Number(raw);
}

reviewsRoutes.get(
  "/",
  staffOnly("support"),
  validate("query", () =>
    v.object({
      status: v.optional(
        v.picklist(CONSOLE_REVIEW_FILTERS, `Status is one of: ${CONSOLE_REVIEW_FILTERS.join(", ")}.`),
        "pending",
      ),
      page: queryInt(1, 100_000, 1),
    }),
  ),
  async (c) => {
    const { status, page } = c.req.valid("query");
    // The counts and meta beside `data`, as the contract's ConsoleReviewsPage has them.
    return c.json(await listConsoleReviews(c.env.DB, currentStaff(c), status, page));
  },
);

reviewsRoutes.post("/:id/approve", staffOnly("manager"), async (c) => {
  const lang = c.get("lang");
  const review = await approveReview(c.env.DB, currentStaff(c), lang, reviewId(c.req.param("id")));
  return ok(c, review, { message: say(lang, SAY.approved) });
});

reviewsRoutes.post(
  "/:id/reject",
  staffOnly("manager"),
  validate("json", (m) => reviewRejectInput(m)),
  async (c) => {
    const lang = c.get("lang");
    const id = reviewId(c.req.param("id"));
    const review = await rejectReview(c.env, currentStaff(c), lang, id, c.req.valid("json").reason);
    return ok(c, review, { message: say(lang, SAY.rejected) });
  },
);

reviewsRoutes.put(
  "/:id/reply",
  staffOnly("manager"),
  validate("json", (m) => reviewReplyInput(m)),
  async (c) => {
    const lang = c.get("lang");
    const reply = c.req.valid("json");
    const review = await replyToReview(c.env.DB, currentStaff(c), lang, reviewId(c.req.param("id")), reply);
    return ok(c, review, { message: say(lang, reply.text ? SAY.replied : SAY.replyRemoved) });
  },
);

reviewsRoutes.post("/:id/dismiss-reports", staffOnly("manager"), async (c) => {
  const lang = c.get("lang");
  const review = await dismissReports(c.env.DB, currentStaff(c), lang, reviewId(c.req.param("id")));
  return ok(c, review, { message: say(lang, SAY.dismissed) });
});
