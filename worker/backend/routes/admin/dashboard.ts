import { Hono } from "hono";
import type { BackendEnv } from "../../env";

/** /admin/dashboard: being built (issue 20). */
export const dashboardRoutes = new Hono<BackendEnv>();
