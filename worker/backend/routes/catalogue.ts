import { Hono } from "hono";
import type { BackendEnv } from "../env";

/** Catalogue: categories, brands, products, search suggestions. */
export const catalogueRoutes = new Hono<BackendEnv>();
