import { Hono } from "hono";
import type { BackendEnv } from "../env";

/** Content: pages, services, home, contact. */
export const contentRoutes = new Hono<BackendEnv>();
