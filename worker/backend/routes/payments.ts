import { Hono } from "hono";
import type { BackendEnv } from "../env";

/** Payments: start, status, the provider's hosted page and webhook. */
export const paymentsRoutes = new Hono<BackendEnv>();
