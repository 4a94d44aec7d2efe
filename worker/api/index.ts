import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { csrf } from "hono/csrf";
import { errorBody } from "../lib/errors";
import type { HonoEnv } from "../env";
import { cartApi } from "./cart";
import { rumApi } from "./rum";
import { userApi } from "./user";

/** The own-server endpoints (spec §7 "Own-server local calls"), on KV. */
export const apiApp = new Hono<HonoEnv>();

/** The shop's own origin: the request's, or PUBLIC_ORIGIN when the shop sits behind another name. */
function allowedOrigin(origin: string, c: Context<HonoEnv>): boolean {
  return (
    origin === new URL(c.req.url).origin || (!!c.env.PUBLIC_ORIGIN && origin === c.env.PUBLIC_ORIGIN.replace(/\/$/, ""))
  );
}

const SAFE_METHOD = /^(GET|HEAD|OPTIONS)$/;

// These calls are authenticated by the session cookie, so state changes must come from the shop
// itself: hono's csrf() refuses cross-origin form posts, and the check below also refuses any
// state change whose Origin is another site or that the browser marks cross-site, whatever its type.
apiApp.use(csrf({ origin: (origin, c) => allowedOrigin(origin, c as Context<HonoEnv>) }));
apiApp.use(async (c, next) => {
  if (!SAFE_METHOD.test(c.req.method)) {
    const origin = c.req.header("origin");
    if (c.req.header("sec-fetch-site") === "cross-site" || (origin !== undefined && !allowedOrigin(origin, c))) {
      return c.json({ message: "Forbidden" }, 403);
    }
  }
  await next();
});
apiApp.use(bodyLimit({ maxSize: 16 * 1024, onError: (c) => c.json({ message: "Payload too large" }, 413) }));

apiApp.route("/", userApi);
apiApp.route("/cart", cartApi);
apiApp.route("/rum", rumApi);

apiApp.notFound((c) => c.json({ message: "Not found" }, 404));

apiApp.onError((err, c) => {
  const { status, body } = errorBody(err, c.get("requestId"));
  if (status >= 500)
    console.error(
      JSON.stringify({ level: "error", request_id: c.get("requestId"), path: c.req.path, error: String(err) }),
    );
  return c.json(body, status);
});
