import { Hono } from "hono";
import type { BackendEnv } from "../../env";

/** /admin/inventory: being built (issue 20). */
export const inventoryRoutes = new Hono<BackendEnv>();
