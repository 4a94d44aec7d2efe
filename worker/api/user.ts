import { Hono } from "hono";
import type { HonoEnv } from "../env";
import { readSession } from "./session";

/** The stored user: GET /api/get-user, POST /api/add-user, and logout. */
export const userApi = new Hono<HonoEnv>();

userApi.get("/get-user", async (c) => {
  const session = await readSession(c);
  if (!session) return c.json({ message: "User not authenticated" }, 401);
  return c.json({ data: session.user });
});
