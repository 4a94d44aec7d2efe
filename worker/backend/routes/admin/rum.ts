import { Hono } from "hono";
import type { BackendEnv } from "../../env";
import { ok } from "../../http";
import { fieldData } from "../../../../contract/server/rum-store";
import { staffOnly } from "../../services/console/staff";

/**
 * GET /admin/rum (every staff role, from support up: page speed carries no customer data and no
 * revenue): p75 LCP, INP, CLS, TTFB (and FCP) per page type and locale over the last day, with
 * the sample counts, read from the shop's field-data histogram (contract/server/rum-store.ts).
 */
export const rumRoutes = new Hono<BackendEnv>();

rumRoutes.get("/", staffOnly("support"), async (c) => {
  c.header("cache-control", "no-store");
  return ok(c, await fieldData(c.env.DB));
});
