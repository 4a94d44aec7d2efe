import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { csrf } from "hono/csrf";
import { errorBody } from "../../contract/server/errors";
import { allowedOrigin, foreignWrite, foreignWriteAnswer } from "../../contract/server/same-origin";
import type { HonoEnv } from "../env";
import { cartApi } from "./cart";
import { rumApi } from "./rum";
import { userApi } from "./user";

/** The own-server endpoints (spec §7 "Own-server local calls"), on KV. */
export const apiApp = new Hono<HonoEnv>();

// These calls are authenticated by the session cookie, so state changes must come from the shop
// itself: hono's csrf() refuses cross-origin form posts, and the shared check (lib/same-origin.ts)
// refuses any state change the browser marks as another site's, or whose Origin is another site's,
// whatever its type.
apiApp.use(csrf({ origin: (origin, c) => allowedOrigin(origin, c) }));
apiApp.use(async (c, next) => {
  if (foreignWrite(c)) return foreignWriteAnswer(c);
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
