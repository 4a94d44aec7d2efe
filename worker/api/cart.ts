import { Hono } from "hono";
import type { HonoEnv } from "../env";

/** Guest ids and the add-product proxy: /api/cart/generate-guest-id, /api/cart/add-product. */
export const cartApi = new Hono<HonoEnv>();
