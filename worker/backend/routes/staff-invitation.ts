import { Hono, type Context } from "hono";
import * as v from "valibot";
import type { BackendEnv } from "../env";
import { ok } from "../http";
import { requireUser } from "../identity";
import { readInput } from "../../../contract/server/validate";
import { enforceLimits, requestNetwork } from "../services/shared/rate-limit";
import { acceptInvitation, lookupInvitation } from "../services/console/staff-invitations";

/**
 * /client/staff-invitation: the invitee's side of a staff invitation (the accept page). The token
 * travels in the body, never in a path or query that logs keep. Counted per network (and per
 * account for accepting), like sign-ins: a token is 256 random bits, but guessing costs anyway.
 */
export const staffInvitationRoutes = new Hono<BackendEnv>();

const tokenSchema = () => v.object({ token: v.pipe(v.string(), v.maxLength(128)) });

const count = (c: Context<BackendEnv>, keys: string[]) =>
  enforceLimits(c, "AUTH_LIMITER", [`staff-invitation:ip:${requestNetwork(c)}`, ...keys]);

/** POST /client/staff-invitation {token}: what the link holder may know (contract InvitationLookup). */
staffInvitationRoutes.post("/", async (c) => {
  await count(c, []);
  const { token } = await readInput(c, "json", tokenSchema);
  return ok(c, await lookupInvitation(c.env.DB, token));
});

/** POST /client/staff-invitation/accept {token}: the signed-in account takes the seat. */
staffInvitationRoutes.post("/accept", async (c) => {
  const userId = await requireUser(c);
  await count(c, [`staff-invitation:user:${userId}`]);
  const { token } = await readInput(c, "json", tokenSchema);
  return ok(c, await acceptInvitation(c.env.DB, userId, token, c.get("lang")));
});
