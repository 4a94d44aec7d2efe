import { Hono } from "hono";
import type { BackendEnv } from "../../env";
import { ok } from "../../http";
import { dashboard } from "../../services/console/dashboard";
import { currentStaff, staffOnly } from "../../services/console/staff";

/**
 * GET /admin/dashboard (every staff role; revenue for managers and owners only). Mounted at
 * /admin/ beside the catalogue and inventory, so the guard sits on the route itself: a `use` here
 * would guard every path under /admin/.
 */
export const dashboardRoutes = new Hono<BackendEnv>();

dashboardRoutes.get("/dashboard", staffOnly("support"), async (c) =>
  ok(c, await dashboard(c.env.DB, currentStaff(c), c.get("lang"))),
);
