import { Hono } from "hono";
import type { HonoEnv } from "../env";
import { readSession } from "./session";

/** The own-server endpoints (spec §7 "Own-server local calls"), on KV. */
export const apiApp = new Hono<HonoEnv>();

apiApp.get("/get-user", async (c) => {
  const session = await readSession(c);
  if (!session) return c.json({ message: "User not authenticated" }, 401);
  return c.json({ data: session.user });
});

apiApp.notFound((c) => c.json({ message: "Not found" }, 404));
