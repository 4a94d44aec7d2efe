import { Hono } from "hono";
import * as v from "valibot";
import { CUSTOMER_SORTS } from "../../../../contract/console-customers";
import type { BackendEnv } from "../../env";
import { notFound, ok } from "../../http";
import { validate } from "../../../lib/validate";
import { listQuerySchema } from "../../services/console-list";
import { customerDetail, listCustomers } from "../../services/console-customers";
import { currentStaff, staffOnly } from "../../services/staff";

/**
 * /admin/customers: every staff role reads; support gets contact data masked, decided on the
 * server (services/console-customers.ts says how support's search is narrowed to match).
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

customersRoutes.get("/:id", async (c) => {
  const raw = c.req.param("id");
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw notFound();
  return ok(c, await customerDetail(c.env.DB, currentStaff(c), Number(raw)));
});
