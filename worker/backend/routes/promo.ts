import { Hono } from "hono";
import type { BackendEnv } from "../env";

/** Promo codes: /promo-code/check and /promo-code/remove. */
export const promoRoutes = new Hono<BackendEnv>();
