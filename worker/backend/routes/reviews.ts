import { Hono, type Context } from "hono";
import * as v from "valibot";
import {
  REVIEW_SORTS,
  REVIEWS_PATHS,
  reviewInput,
  reviewReportInput,
  type ReviewInput,
  type ReviewsPage,
} from "../../../contract/reviews";
import { say } from "../../../contract/server/i18n";
import { inputMessages } from "../../../contract/server/input-messages";
import {
  fieldErrors,
  invalidInput,
  readInput,
  typedJson,
  validate,
  wrongBodyType,
} from "../../../contract/server/validate";
import { edgeCache } from "../cache";
import type { BackendEnv, Lang } from "../env";
import { BackendError, notFound, ok } from "../http";
import { authenticate, knownGuest, requireUser } from "../identity";
import { msg } from "../messages";
import { filesOf } from "../services/reviews/photos";
import { productReviews } from "../services/reviews/public";
import {
  deleteOwnPhoto,
  reviewableProducts,
  reviewEligibility,
  writeReview,
  type ReviewFiles,
} from "../services/reviews/shopper";
import { reportReview, voteHelpful, type Voter } from "../services/reviews/votes";
import { enforceLimits, requestNetwork } from "../services/shared/rate-limit";
import { queryInt } from "../validate";

/**
 * Product reviews (contract/reviews.ts): the public list of a product's published reviews, a
 * verified buyer's write (services/reviews/shopper.ts), what a shopper may review, and helpful
 * votes and reports. Rate limits (docs/SECURITY.md): writes (a review, a photo deleted) count 20
 * a minute per account (SHOP_LIMITER: room to review every product of an order from its
 * invitation) and 600 a minute per network (NETWORK_LIMITER: thousands of phones share a carrier's
 * address); votes and reports 20 a minute per account or guest and 600 per network. Each is counted
 * before the body is read. Only a verified buyer writes at all, one review per product received.
 */
export const reviewsRoutes = new Hono<BackendEnv>();

const SAY = {
  tooMany: msg("reviews.tooMany"),
  productNotFound: msg("reviews.productNotFound"),
  published: msg("reviews.published"),
  pending: msg("reviews.pending"),
  voted: msg("reviews.voted"),
};

const slugParam = v.object({
  slug: v.pipe(v.string(), v.maxLength(120), v.regex(/^[a-z0-9-]+$/, "Must be a slug.")),
});

// Public and cached like the catalogue's product answers: under the catalogue version, which
// every publish, unpublish, edit of a published review and reply moves (services/reviews).
reviewsRoutes.get(
  "/catalogue/products/:slug/reviews",
  edgeCache("short"),
  validate("param", () => slugParam),
  validate("query", () =>
    v.object({
      sort: v.optional(v.picklist(REVIEW_SORTS, `Must be one of: ${REVIEW_SORTS.join(", ")}.`), "newest"),
      stars: v.optional(
        v.pipe(
          v.picklist(["1", "2", "3", "4", "5", ""], "Must be a number of stars from 1 to 5."),
          v.transform((s) => (s === "" ? undefined : (Number(s) as 1 | 2 | 3 | 4 | 5))),
        ),
      ),
      lang: v.optional(
        v.pipe(
          v.picklist(["en", "ar", ""], "Must be en or ar."),
          v.transform((s) => (s === "" ? undefined : s)),
        ),
      ),
      page: queryInt(1, 10_000, 1),
    }),
  ),
  async (c) => {
    const page = await productReviews(c.env.DB, c.req.valid("param").slug, c.req.valid("query"));
    if (!page) throw notFound(say(c.get("lang"), SAY.productNotFound));
    // The page's summary and meta beside `data`, as a product list's meta is (contract ReviewsPage).
    return c.json(page satisfies ReviewsPage);
  },
);

// ---- The signed-in shopper ----

/** The write form's fields: multipart (the storefront's form, with photos) or JSON (no photos). */
async function readReviewForm(c: Context<BackendEnv>, lang: Lang): Promise<{ fields: unknown; files: ReviewFiles }> {
  const type = c.req.header("content-type") ?? "";
  if (/^multipart\/form-data\b/i.test(type)) {
    const form = await c.req.formData().catch(() => null);
    if (!form) throw invalidInput(lang, { body: [say(lang, msg("reviews.badForm"))] });
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === "string" ? value : undefined;
    };
    const fields = Object.fromEntries(
      ["product", "rating", "title", "body", "lang", "author_name"].map((name) => [name, text(name)]),
    );
    const keep = form.has("keep_photos")
      ? form
          .getAll("keep_photos")
          .flatMap((k) => (typeof k === "string" ? k.split(",") : []))
          .map((k) => k.trim())
          .filter(Boolean)
      : null;
    return { fields, files: { photos: filesOf(form, "photos"), thumbs: filesOf(form, "thumbs"), keep } };
  }
  if (!typedJson(type)) throw wrongBodyType(lang, "multipart/form-data or application/json");
  const body = await c.req.json<unknown>().catch(() => null);
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalidInput(lang, { body: [say(lang, msg("reviews.badForm"))] });
  const keep = (body as { keep_photos?: unknown }).keep_photos;
  return {
    fields: body,
    files: {
      photos: [],
      thumbs: [],
      keep: Array.isArray(keep) ? keep.filter((k): k is string => typeof k === "string") : null,
    },
  };
}

const schemas = new Map<Lang, ReturnType<typeof reviewInput>>();
const reviewSchema = (lang: Lang) => {
  let schema = schemas.get(lang);
  if (!schema) schemas.set(lang, (schema = reviewInput(inputMessages(lang))));
  return schema;
};

reviewsRoutes.post(REVIEWS_PATHS.write, async (c) => {
  const lang = c.get("lang");
  const userId = await requireUser(c);
  await enforceLimits(c, "SHOP_LIMITER", [`review-write:user:${userId}`], SAY.tooMany);
  await enforceLimits(c, "NETWORK_LIMITER", [`review-write:ip:${requestNetwork(c)}`], SAY.tooMany);
  const { fields, files } = await readReviewForm(c, lang);
  const parsed = v.safeParse(reviewSchema(lang), fields, { abortPipeEarly: true });
  if (!parsed.success) throw invalidInput(lang, fieldErrors(parsed.issues));
  const input: ReviewInput = parsed.output;
  const { review, created } = await writeReview(c.env, lang, userId, input, files);
  return ok(c, review, {
    status: created ? 201 : 200,
    message: say(lang, review.status === "published" ? SAY.published : SAY.pending),
  });
});

const productQuery = v.object({
  product: v.pipe(v.string("Must be a product's slug."), v.maxLength(120), v.regex(/^[a-z0-9-]+$/, "Must be a slug.")),
});

reviewsRoutes.get(
  `${REVIEWS_PATHS.eligibility}`,
  validate("query", () => productQuery),
  async (c) => {
    const userId = await requireUser(c);
    return ok(c, await reviewEligibility(c.env.DB, c.get("lang"), userId, c.req.valid("query").product));
  },
);

reviewsRoutes.get(
  REVIEWS_PATHS.reviewable,
  validate("query", () =>
    v.object({
      order: v.pipe(
        v.string("Must be an order number."),
        v.trim(),
        v.regex(/^[A-Za-z0-9-]{1,40}$/, "Must be an order number."),
      ),
    }),
  ),
  async (c) => {
    const userId = await requireUser(c);
    return ok(c, await reviewableProducts(c.env.DB, c.get("lang"), userId, c.req.valid("query").order.toUpperCase()));
  },
);

reviewsRoutes.delete(`${REVIEWS_PATHS.write}/:id/photos/:index`, async (c) => {
  const userId = await requireUser(c);
  await enforceLimits(c, "SHOP_LIMITER", [`review-write:user:${userId}`], SAY.tooMany);
  const index = c.req.param("index");
  if (!/^\d{1,2}$/.test(index)) throw notFound();
  return ok(c, await deleteOwnPhoto(c.env, c.get("lang"), userId, reviewId(c.req.param("id")), Number(index)));
});

// ---- Votes and reports (an account, or a guest id the shop minted) ----

/** Who votes: the signed-in account, else a known guest; anyone else gets 401. */
async function voterOf(c: Context<BackendEnv>): Promise<Voter> {
  const userId = await authenticate(c);
  if (userId !== null) return { key: `user:${userId}`, userId };
  const guest = await knownGuest(c);
  if (guest) return { key: `guest:${guest}`, userId: null };
  throw new BackendError(401, "Unauthenticated.");
}

function reviewId(raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) throw notFound();
  return Number(raw);
}

async function countVote(c: Context<BackendEnv>, voter: Voter): Promise<void> {
  await enforceLimits(c, "SHOP_LIMITER", [`review-vote:${voter.key}`], SAY.tooMany);
  await enforceLimits(c, "NETWORK_LIMITER", [`review-vote:ip:${requestNetwork(c)}`], SAY.tooMany);
}

reviewsRoutes.post("/reviews/:id/helpful", async (c) => {
  const id = reviewId(c.req.param("id"));
  const voter = await voterOf(c);
  await countVote(c, voter);
  const helpful = await voteHelpful(c.env.DB, c.get("lang"), id, voter);
  return ok(c, { helpful_count: helpful }, { message: say(c.get("lang"), SAY.voted) });
});

reviewsRoutes.post("/reviews/:id/report", async (c) => {
  const id = reviewId(c.req.param("id"));
  const voter = await voterOf(c);
  await countVote(c, voter);
  const { reason } = await readInput(c, "json", reviewReportInput);
  await reportReview(c.env.DB, c.get("lang"), id, voter, reason);
  return c.body(null, 204);
});
