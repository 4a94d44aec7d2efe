import { Hono } from "hono";
import type { HonoEnv } from "./env";
import { BUILD_ID, BUILD_TIME } from "../contract/edge";

/** The update check (spec §7 technical calls): the current build id and its metadata. */
export const buildsApp = new Hono<HonoEnv>();

buildsApp.use(async (c, next) => {
  await next();
  c.header("cache-control", "no-cache, no-store, must-revalidate");
});

buildsApp.get("/latest.json", (c) => c.json({ id: BUILD_ID, timestamp: BUILD_TIME }));

buildsApp.get("/meta/:file", (c) => {
  const file = c.req.param("file");
  if (file !== `${BUILD_ID}.json`) return c.json({ message: "Not found" }, 404);
  return c.json({
    id: BUILD_ID,
    timestamp: BUILD_TIME,
    matcher: { static: {}, wildcard: {}, dynamic: {} },
    prerendered: [],
  });
});
