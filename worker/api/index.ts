import { Hono } from "hono";
import type { HonoEnv } from "../env";
import { cartApi } from "./cart";
import { userApi } from "./user";

/** The own-server endpoints (spec §7 "Own-server local calls"), on KV. */
export const apiApp = new Hono<HonoEnv>();

apiApp.route("/", userApi);
apiApp.route("/cart", cartApi);

apiApp.notFound((c) => c.json({ message: "Not found" }, 404));
