import { Hono } from "hono";
import * as v from "valibot";
import { STAFF_ROLES } from "../../../../contract/console";
import { emailField } from "../../../../contract/inputs";
import { LIMITS } from "../../../../contract/limits";
import type { BackendEnv } from "../../env";
import { notFound, ok } from "../../http";
import { validate } from "../../../../contract/server/validate";
import { enforceLimits } from "../../services/shared/rate-limit";
import { currentStaff } from "../../services/console/staff";
import {
  inviteStaff,
  listInvitations,
  resendInvitation,
  revokeInvitation,
  type InvitationEnv,
} from "../../services/console/staff-invitations";
import { accountsEnv } from "../auth";

/**
 * /admin/staff/invitations (owners): invite an email to the staff with a role, resend the link
 * (a new one; the old one dies), revoke it. Mounted inside the staff routes, whose owner-only
 * guard covers it. Every write is audited (services/console/staff-invitations.ts).
 */
export const staffInvitationRoutes = new Hono<BackendEnv>();

const invitationEnv = (c: Parameters<typeof accountsEnv>[0]): InvitationEnv => ({
  ...accountsEnv(c),
  PUBLIC_ORIGIN: c.env.PUBLIC_ORIGIN,
});

/** Each invitation or resend emails an address the owner typed: counted per owner, like codes sent. */
const countSend = (c: Parameters<typeof accountsEnv>[0]) =>
  enforceLimits(c, "OTP_LIMITER", [`staff-invite:user:${currentStaff(c).user_id}`]);

function invitationId(raw: string | undefined): number {
  return raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : 0;
}

staffInvitationRoutes.get("/", async (c) => ok(c, await listInvitations(c.env.DB)));

/** POST /admin/staff/invitations {email, role, name?, lang?}: `lang` is the email's, the console's by default. */
staffInvitationRoutes.post(
  "/",
  validate("json", (m) =>
    v.object({
      email: emailField(m),
      role: v.picklist(STAFF_ROLES, m.invalid("role")),
      name: v.optional(
        v.pipe(v.string(m.invalid("name")), v.trim(), v.maxLength(LIMITS.name, m.maxLength("name", LIMITS.name))),
        "",
      ),
      lang: v.optional(v.picklist(["en", "ar"] as const, m.invalid("lang"))),
    }),
  ),
  async (c) => {
    await countSend(c);
    const input = c.req.valid("json");
    const lang = c.get("lang");
    const invitation = await inviteStaff(
      invitationEnv(c),
      c.req.url,
      currentStaff(c),
      { ...input, lang: input.lang ?? lang },
      lang,
    );
    return ok(c, invitation, { status: 201 });
  },
);

/** POST /admin/staff/invitations/:id/resend: a new link, seven days from now. */
staffInvitationRoutes.post("/:id/resend", async (c) => {
  const id = invitationId(c.req.param("id"));
  if (!id) throw notFound();
  await countSend(c);
  return ok(c, await resendInvitation(invitationEnv(c), c.req.url, currentStaff(c), id, c.get("lang")));
});

/** DELETE /admin/staff/invitations/:id: revoked; its link opens nothing. */
staffInvitationRoutes.delete("/:id", async (c) => {
  const id = invitationId(c.req.param("id"));
  if (!id) throw notFound();
  await revokeInvitation(c.env.DB, currentStaff(c), id, c.get("lang"));
  return ok(c, null);
});
