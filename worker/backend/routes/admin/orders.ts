import { Hono } from "hono";
import type { BackendEnv } from "../../env";

/** /admin/orders: being built (issue 20). */
export const ordersRoutes = new Hono<BackendEnv>();
