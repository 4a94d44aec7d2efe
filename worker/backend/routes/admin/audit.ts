import { Hono } from "hono";
import * as v from "valibot";
import type { BackendEnv } from "../../env";
import { ok } from "../../http";
import { validate } from "../../../../contract/server/validate";
import { listAuditLog } from "../../services/console/audit-log";
import { listQuerySchema } from "../../services/console/list";
import { staffOnly } from "../../services/console/staff";

/** /admin/audit (owners): every staff action, newest first, filterable by entity and by who. */
export const auditRoutes = new Hono<BackendEnv>();

auditRoutes.use(staffOnly("owner"));

auditRoutes.get(
  "/",
  validate("query", () =>
    v.object({
      ...listQuerySchema(["created_at", "action", "staff_email"]),
      entity: v.optional(v.pipe(v.string(), v.maxLength(40))),
      entity_id: v.optional(v.pipe(v.string(), v.maxLength(64))),
      search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(120))),
    }),
  ),
  async (c) => {
    const { rows, meta } = await listAuditLog(c.env.DB, c.get("lang"), c.req.valid("query"));
    return ok(c, rows, { meta: { ...meta } });
  },
);
