import { Hono } from "hono";
import * as v from "valibot";
import { CUSTOMER_SORTS } from "../../../../contract/console-customers";
import type { BackendEnv } from "../../env";
import { BackendError, notFound, ok } from "../../http";
import { validate } from "../../../../contract/server/validate";
import { listQuerySchema } from "../../services/console/list";
import { customerDetail, customerSubject, listCustomers } from "../../services/console/customers";
import { addNote } from "../../services/console/staff-notes";
import { staffNoteInput } from "../../../../contract/console-orders";
import { currentStaff, staffOnly } from "../../services/console/staff";
import { auditStatement } from "../../services/console/audit-log";
import { eraseAccount, exportAccount, refuseErasure } from "../../services/pdpl/pdpl";
import { consoleErasureInput } from "../../../../contract/pdpl";
import { exportAnswer } from "../pdpl";
import { msg } from "../../messages";
import { say } from "../../../../contract/server/i18n";
import type { Context } from "hono";

/**
 * /admin/customers: every staff role reads; support gets contact data masked, decided on the
 * server (services/console/customers.ts says how support's search is narrowed to match).
 */
export const customersRoutes = new Hono<BackendEnv>();

customersRoutes.use(staffOnly("support"));

customersRoutes.get(
  "/",
  validate("query", () =>
    v.object({
      ...listQuerySchema(CUSTOMER_SORTS),
      search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(120))),
    }),
  ),
  async (c) => {
    const { rows, meta } = await listCustomers(c.env.DB, currentStaff(c), c.req.valid("query"));
    return ok(c, rows, { meta: { ...meta } });
  },
);

customersRoutes.get("/:id", async (c) => ok(c, await customerDetail(c.env.DB, currentStaff(c), c.req.param("id"))));

/** POST /admin/customers/{id}/notes {body}: an internal note; every staff role may add one (services/console/staff-notes.ts). */
customersRoutes.post(
  "/:id/notes",
  validate("json", (m) => staffNoteInput(m)),
  async (c) => {
    const id = c.req.param("id");
    const subject = await customerSubject(c.env.DB, id);
    if (!subject) throw notFound();
    await addNote(c.env.DB, currentStaff(c), subject, c.req.valid("json").body, { entity: "customer", id });
    return ok(c, await customerDetail(c.env.DB, currentStaff(c), id));
  },
);

/** An account's id from the path, or a 422 for a guest (a guest's data lives on their orders). */
async function accountOf(c: Context<BackendEnv>): Promise<number> {
  const id = c.req.param("id") ?? "";
  const subject = await customerSubject(c.env.DB, id);
  if (!subject) throw notFound();
  if (!subject.startsWith("user:")) throw new BackendError(422, say(c.get("lang"), msg("pdpl.guest")));
  const userId = Number(subject.slice("user:".length));
  const exists = await c.env.DB.prepare("SELECT 1 AS one FROM users WHERE id = ?").bind(userId).first("one");
  if (!exists) throw notFound();
  return userId;
}

/**
 * GET /admin/customers/{id}/export: the customer's data file (the same as their own download),
 * for a request that reached staff. Managers and owners only (support sees contact data masked);
 * audited before the file goes out.
 */
customersRoutes.get("/:id/export", staffOnly("manager"), async (c) => {
  const userId = await accountOf(c);
  const data = await exportAccount(c.env, userId);
  await auditStatement(c.env.DB, currentStaff(c), "customer.export", "customer", userId, null, null).run();
  return exportAnswer(data);
});

/**
 * POST /admin/customers/{id}/erase {reason}: erases the account on the customer's request, as
 * their own deletion does (services/pdpl/pdpl.ts), with the reason in the erasure log and the
 * audit log. Managers and owners only.
 */
customersRoutes.post(
  "/:id/erase",
  staffOnly("manager"),
  validate("json", (m) => consoleErasureInput(m)),
  async (c) => {
    const userId = await accountOf(c);
    const staff = currentStaff(c);
    const { reason } = c.req.valid("json");
    await refuseErasure(c.env.DB, userId, c.get("lang"));
    await eraseAccount(c.env, userId, { by: "staff", staffUserId: staff.user_id, reason });
    await auditStatement(c.env.DB, staff, "customer.erase", "customer", userId, null, { reason }).run();
    return ok(c, { erased: true }, { message: say(c.get("lang"), msg("pdpl.erasedByStaff")) });
  },
);
