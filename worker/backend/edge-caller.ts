import type { MiddlewareHandler } from "hono";
import { EDGE_SECRET_HEADER, VISITOR_IP_HEADER } from "../../contract/edge-caller";
import { foreignWrite, foreignWriteAnswer } from "../../contract/server/same-origin";
import type { BackendEnv } from "./env";
import { networkKey } from "../../contract/server/network";
import { sameSecret } from "./services/payments/providers/hmac";

/**
 * Who is calling, before any route runs (contract/edge-caller.ts): the shop's edge, when the call
 * carries EDGE_SECRET (compared in constant time), whose word on the visitor's address is then
 * taken for the per-network limits; anyone else is counted under its own address. Then the
 * cross-site check (lib/same-origin.ts): a state change another site's page made the browser send
 * is refused here, before it is read. The edge checked the calls it forwards itself, against the
 * shop's own origin, which a backend on another host does not share.
 */
export function edgeCaller(): MiddlewareHandler<BackendEnv> {
  return async (c, next) => {
    const secret = c.env.EDGE_SECRET;
    const sent = c.req.header(EDGE_SECRET_HEADER);
    const fromEdge = !!secret && sent !== undefined && (await sameSecret(sent, secret));
    if (fromEdge) {
      const visitor = c.req.header(VISITOR_IP_HEADER)?.trim();
      if (visitor) c.set("visitorNetwork", networkKey(visitor));
    } else if (foreignWrite(c)) {
      return foreignWriteAnswer(c);
    }
    await next();
  };
}
