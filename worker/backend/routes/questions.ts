import { Hono, type Context } from "hono";
import * as v from "valibot";
import { answerInput, questionInput } from "../../../contract/questions";
import { say } from "../../../contract/server/i18n";
import { readInput } from "../../../contract/server/validate";
import type { BackendEnv } from "../env";
import { notFound, ok } from "../http";
import { requireUser } from "../identity";
import { msg } from "../messages";
import { answerAsBuyer, answerEligibility, askQuestion, publishedQuestions } from "../services/questions/questions";
import { enforceLimits, requestNetwork } from "../services/shared/rate-limit";

/**
 * Questions and answers on product pages (contract/questions.ts): the public list, and for a
 * signed-in shopper asking, answering (a buyer, when the store allows it) and whether they may
 * answer. Asks and answers are counted per account (CONTACT_LIMITER: 5 a minute) and per network
 * (SHOP_LIMITER: 20 a minute) before anything is read, and an account may have at most
 * PENDING_PER_ACCOUNT of each waiting for moderation (services/questions/questions.ts).
 */
export const questionsRoutes = new Hono<BackendEnv>();

const SLUG = /^[a-z0-9][a-z0-9-]{0,119}$/;
const TOO_MANY = msg("questions.tooMany");

/** A question's id from the path: anything else is the same 404 as an unknown question. */
function questionId(c: Context<BackendEnv>): number {
  const raw = c.req.param("id") ?? "";
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw notFound(say(c.get("lang"), msg("questions.notFound")));
  return Number(raw);
}

/** Counts a write per account and per network; 429 with Retry-After past either limit. */
async function countWrite(c: Context<BackendEnv>, action: "question" | "answer", userId: number): Promise<void> {
  await enforceLimits(c, "CONTACT_LIMITER", [`${action}:user:${userId}`], TOO_MANY);
  await enforceLimits(c, "SHOP_LIMITER", [`${action}:ip:${requestNetwork(c)}`], TOO_MANY);
}

const pageQuery = v.object({
  page: v.optional(
    v.pipe(v.string(), v.regex(/^[1-9]\d{0,4}$/, "Page is a whole number from 1."), v.transform(Number)),
    "1",
  ),
});

/** GET /catalogue/products/{slug}/questions?page=: published questions, newest first (QuestionsPage). */
questionsRoutes.get("/catalogue/products/:slug/questions", async (c) => {
  const lang = c.get("lang");
  const slug = c.req.param("slug");
  if (!SLUG.test(slug)) throw notFound(say(lang, msg("catalogue.productNotFound")));
  const { page } = await readInput(c, "query", () => pageQuery);
  return ok(c, await publishedQuestions(c.env, lang, slug, page));
});

/** GET /client/questions/eligibility?product=slug: whether the caller may answer the product's questions. */
questionsRoutes.get("/client/questions/eligibility", async (c) => {
  const userId = await requireUser(c);
  const { product } = await readInput(c, "query", (m) =>
    v.object({ product: v.pipe(v.string(m.required("product")), v.regex(SLUG, m.invalid("product"))) }),
  );
  return ok(c, await answerEligibility(c.env, c.get("lang"), userId, product));
});

/** POST /client/questions { product, text }: pending until staff publish or answer it. */
questionsRoutes.post("/client/questions", async (c) => {
  const userId = await requireUser(c);
  await countWrite(c, "question", userId);
  const input = await readInput(c, "json", questionInput);
  const lang = c.get("lang");
  const asked = await askQuestion(c.env.DB, lang, userId, input);
  return ok(c, asked, { status: 201, message: say(lang, msg("questions.asked")) });
});

/** POST /client/questions/{id}/answers { text }: a buyer's answer, pending until staff approve it. */
questionsRoutes.post("/client/questions/:id/answers", async (c) => {
  const userId = await requireUser(c);
  await countWrite(c, "answer", userId);
  const id = questionId(c);
  const input = await readInput(c, "json", answerInput);
  const lang = c.get("lang");
  const answered = await answerAsBuyer(c.env, lang, userId, id, input);
  return ok(c, answered, { status: 201, message: say(lang, msg("questions.answered")) });
});
