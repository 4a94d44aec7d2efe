import { Hono } from "hono";
import type { BackendEnv } from "../../env";

/** /admin/promos: being built (issue 20). */
export const promosRoutes = new Hono<BackendEnv>();
