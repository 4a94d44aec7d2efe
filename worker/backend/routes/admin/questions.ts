import { Hono, type Context } from "hono";
import * as v from "valibot";
import { answerInput, QUESTION_TABS, rejectInput } from "../../../../contract/questions";
import { say } from "../../../../contract/server/i18n";
import { validate } from "../../../../contract/server/validate";
import type { BackendEnv } from "../../env";
import { notFound, ok } from "../../http";
import { msg } from "../../messages";
import { currentStaff, staffOnly } from "../../services/console/staff";
import {
  answerAsStaff,
  approveAnswer,
  approveQuestion,
  questionQueue,
  rejectAnswer,
  rejectQuestion,
} from "../../services/questions/moderation";

/**
 * /admin/questions and /admin/answers (managers and owners, who moderate as they edit the
 * catalogue): the queue by tab, approve, reject or remove with a reason, and staff's own answer.
 * Each step is audited (services/questions/moderation.ts) and answers the question as the console
 * shows it.
 */
export const questionsRoutes = new Hono<BackendEnv>();

for (const path of ["/questions", "/answers"])
  questionsRoutes.use(path, staffOnly("manager")).use(`${path}/*`, staffOnly("manager"));

/** A row's id from the path (plain `:id`, checked here): anything else is a 404. */
function rowId(c: Context<BackendEnv>): number {
  const raw = c.req.param("id") ?? "";
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw notFound();
  return Number(raw);
}

const reasonSchema = validate("json", rejectInput);
const answerSchema = validate("json", answerInput);

questionsRoutes.get(
  "/questions",
  validate("query", () =>
    v.object({
      tab: v.optional(v.picklist(QUESTION_TABS, `Tab is one of: ${QUESTION_TABS.join(", ")}.`), "pending"),
      page: v.optional(
        v.pipe(v.string(), v.regex(/^[1-9]\d{0,4}$/, "Page is a whole number from 1."), v.transform(Number)),
        "1",
      ),
    }),
  ),
  async (c) => {
    const { tab, page } = c.req.valid("query");
    return ok(c, await questionQueue(c.env.DB, c.get("lang"), tab, page));
  },
);

const done = (c: Context<BackendEnv>, key: Parameters<typeof msg>[0]) => ({ message: say(c.get("lang"), msg(key)) });

questionsRoutes.post("/questions/:id/approve", async (c) =>
  ok(c, await approveQuestion(c.env, currentStaff(c), c.get("lang"), rowId(c)), done(c, "questions.console.approved")),
);

for (const action of ["reject", "remove"] as const) {
  questionsRoutes.post(`/questions/:id/${action}`, reasonSchema, async (c) =>
    ok(
      c,
      await rejectQuestion(c.env, currentStaff(c), c.get("lang"), rowId(c), c.req.valid("json").reason, action),
      done(c, action === "reject" ? "questions.console.rejected" : "questions.console.removed"),
    ),
  );
  questionsRoutes.post(`/answers/:id/${action}`, reasonSchema, async (c) =>
    ok(
      c,
      await rejectAnswer(c.env, currentStaff(c), c.get("lang"), rowId(c), c.req.valid("json").reason, action),
      done(c, action === "reject" ? "questions.console.rejected" : "questions.console.removed"),
    ),
  );
}

questionsRoutes.post("/questions/:id/answers", answerSchema, async (c) =>
  ok(c, await answerAsStaff(c.env, currentStaff(c), c.get("lang"), rowId(c), c.req.valid("json").text, c.req.url), {
    status: 201,
    ...done(c, "questions.console.answeredAsStaff"),
  }),
);

questionsRoutes.post("/answers/:id/approve", async (c) =>
  ok(
    c,
    await approveAnswer(c.env, currentStaff(c), c.get("lang"), rowId(c), c.req.url),
    done(c, "questions.console.approved"),
  ),
);
