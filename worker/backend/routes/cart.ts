import { Hono } from "hono";
import type { BackendEnv } from "../env";

/** Cart: GET /cart, add-product, remove-product, update-quantity. */
export const cartRoutes = new Hono<BackendEnv>();
