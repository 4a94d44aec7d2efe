import { Hono } from "hono";
import * as v from "valibot";
import type { BackendEnv } from "../../env";
import { BackendError, ok } from "../../http";
import { bearerToken } from "../../identity";
import { say } from "../../../../contract/server/i18n";
import { validate } from "../../../../contract/server/validate";
import { enforceLimits, requestNetwork } from "../../services/shared/rate-limit";
import {
  closeConsoleSession,
  currentStaff,
  openConsoleSession,
  presentMe,
  sendStaffCode,
  staffOnly,
} from "../../services/console/staff";
import { accountsEnv } from "../auth";
import { msg } from "../../messages";

/**
 * /admin/session: the console's second step. A staff member signed in to the shop asks for a code
 * (sent to their email), enters it, and that sign-in becomes a console session; DELETE closes it.
 */
export const sessionRoutes = new Hono<BackendEnv>();

const pending = staffOnly("support", { elevated: false });

/** GET /admin/session: who is at the console, and whether the code is still due. */
sessionRoutes.get("/", pending, (c) => ok(c, presentMe(currentStaff(c))));

/** POST /admin/session/code: sends the code (once a minute, five an hour). */
sessionRoutes.post("/code", pending, async (c) => {
  const staff = currentStaff(c);
  await enforceLimits(c, "OTP_LIMITER", [`staff-code:ip:${requestNetwork(c)}`, `staff-code:user:${staff.user_id}`]);
  const sent = await sendStaffCode(accountsEnv(c), staff, c.get("lang"));
  return ok(
    c,
    { sent },
    {
      message: sent
        ? say(c.get("lang"), msg("console.session.codeSent"))
        : say(c.get("lang"), msg("console.session.codeJustSent")),
    },
  );
});

/** POST /admin/session {code}: opens the console session of this sign-in. */
sessionRoutes.post(
  "/",
  pending,
  validate("json", (m) =>
    v.object({
      code: v.pipe(
        v.string(m.required("staff_code")),
        v.trim(),
        v.nonEmpty(m.required("staff_code")),
        v.regex(/^\d{6}$/, m.invalid("staff_code")),
      ),
    }),
  ),
  async (c) => {
    const staff = currentStaff(c);
    const token = bearerToken(c);
    if (!token) throw new BackendError(404, "Not found");
    const network = requestNetwork(c);
    await enforceLimits(c, "AUTH_LIMITER", [`staff-session:ip:${network}`, `staff-session:user:${staff.user_id}`]);
    const end = await openConsoleSession(
      accountsEnv(c),
      token,
      staff,
      c.req.valid("json").code,
      network,
      c.get("lang"),
    );
    if (end === false) {
      throw new BackendError(422, say(c.get("lang"), msg("console.session.codeInvalid")), {
        code: [say(c.get("lang"), msg("console.session.codeWrongOrExpired"))],
      });
    }
    return ok(c, presentMe({ ...staff, elevated: true, via: "code", expiresAt: end }));
  },
);

/** DELETE /admin/session: closes the console session; the shop sign-in stays. */
sessionRoutes.delete("/", pending, async (c) => {
  const token = bearerToken(c);
  if (token) await closeConsoleSession(c.env.DB, token);
  return ok(c, null);
});
