import { Hono } from "hono";
import type { BackendEnv } from "../../env";

/** /admin/customers: being built (issue 20). */
export const customersRoutes = new Hono<BackendEnv>();
