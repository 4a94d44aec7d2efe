import { Hono } from "hono";
import type { BackendEnv } from "../env";

/** Accounts: the /client/auth/* calls of spec §7. */
export const authRoutes = new Hono<BackendEnv>();
