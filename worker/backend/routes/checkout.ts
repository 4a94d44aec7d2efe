import { Hono } from "hono";
import type { BackendEnv } from "../env";

/** Checkout: /checkout/options and POST /checkout. */
export const checkoutRoutes = new Hono<BackendEnv>();
