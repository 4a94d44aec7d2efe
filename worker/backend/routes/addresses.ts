import { Hono } from "hono";
import type { BackendEnv } from "../env";

/** Addresses of the signed-in user: /client/addresses CRUD. */
export const addressesRoutes = new Hono<BackendEnv>();
