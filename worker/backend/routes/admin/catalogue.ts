import { Hono } from "hono";
import type { BackendEnv } from "../../env";

/** /admin/catalogue: being built (issue 20). */
export const catalogueRoutes = new Hono<BackendEnv>();
