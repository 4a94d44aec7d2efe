import { Hono } from "hono";
import type { BackendEnv } from "../env";

/** Orders: list, one by number, and tracking. */
export const ordersRoutes = new Hono<BackendEnv>();
