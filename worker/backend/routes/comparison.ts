import { Hono } from "hono";
import { comparisonInput } from "../../../contract/comparison";
import { readInput } from "../../../contract/server/validate";
import type { BackendEnv } from "../env";
import { ok } from "../http";
import { requireUser } from "../identity";
import { readComparison, saveComparison } from "../services/accounts/comparison";

/** The signed-in shopper's comparison pick: GET and PUT /client/comparison (contract/comparison.ts). */
export const comparisonRoutes = new Hono<BackendEnv>();

comparisonRoutes.get("/", async (c) => ok(c, await readComparison(c.env.DB, await requireUser(c))));

comparisonRoutes.put("/", async (c) => {
  const userId = await requireUser(c);
  const pick = await readInput(c, "json", comparisonInput);
  return ok(c, await saveComparison(c.env.DB, userId, pick));
});
