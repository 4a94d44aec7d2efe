import { Hono } from "hono";
import * as v from "valibot";
import { LIMITS } from "../../../contract/limits";
import type { BackendEnv } from "../env";
import { ok } from "../http";
import { authenticate } from "../identity";
import { validate } from "../../../contract/server/validate";
import { promiseAnswer } from "../services/orders/delivery-promise";

/**
 * GET /delivery/promise?city= (contract/delivery-promise.ts `DeliveryPromiseAnswer`). It changes
 * with the clock (the cut-off, the next working day) and the shopper, so it is never kept: no edge
 * cache, `no-store`, and the service worker has no rule for /backend/delivery (scripts/build-sw.ts).
 */
export const deliveryRoutes = new Hono<BackendEnv>();

deliveryRoutes.get(
  "/promise",
  validate("query", (m) =>
    v.object({
      city: v.optional(
        v.pipe(v.string(m.invalid("city")), v.trim(), v.maxLength(LIMITS.city, m.maxLength("city", LIMITS.city))),
      ),
    }),
  ),
  async (c) => {
    const { city } = c.req.valid("query");
    const answer = await promiseAnswer(c.env, await authenticate(c), city, c.get("lang"));
    c.header("cache-control", "no-store");
    return ok(c, answer);
  },
);
