import { Hono } from "hono";
import * as v from "valibot";
import { CUSTOMER_SORTS } from "../../../../contract/console-customers";
import type { BackendEnv } from "../../env";
import { notFound, ok } from "../../http";
import { validate } from "../../../../contract/server/validate";
import { listQuerySchema } from "../../services/console/list";
import { customerDetail, customerSubject, listCustomers } from "../../services/console/customers";
import { addNote } from "../../services/console/staff-notes";
import { staffNoteInput } from "../../../../contract/console-orders";
import { currentStaff, staffOnly } from "../../services/console/staff";

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
