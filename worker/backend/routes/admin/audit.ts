import { Hono } from "hono";
import * as v from "valibot";
import type { AuditEntry } from "../../../../contract/console";
import type { BackendEnv } from "../../env";
import { ok } from "../../http";
import { validate } from "../../../lib/validate";
import { contains, listQuerySchema, pageOf } from "../../services/console-list";
import { staffOnly } from "../../services/staff";

/** /admin/audit (owners): every staff action, newest first, filterable by entity and by who. */
export const auditRoutes = new Hono<BackendEnv>();

auditRoutes.use(staffOnly("owner"));

interface AuditRow {
  id: number;
  staff_email: string;
  action: string;
  entity: string;
  entity_id: string | null;
  before_json: string | null;
  after_json: string | null;
  created_at: string;
}

const parse = (json: string | null): unknown => (json === null ? null : JSON.parse(json));

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
    const q = c.req.valid("query");
    const where: string[] = [];
    const binds: unknown[] = [];
    if (q.entity) {
      where.push("entity = ?");
      binds.push(q.entity);
    }
    if (q.entity_id) {
      where.push("entity_id = ?");
      binds.push(q.entity_id);
    }
    if (q.search) {
      where.push(`(${contains("staff_email")} OR ${contains("action")})`);
      binds.push(q.search, q.search);
    }
    const { rows, meta } = await pageOf<AuditRow>(
      c.env.DB,
      "id, staff_email, action, entity, entity_id, before_json, after_json, created_at",
      `FROM audit_log ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`,
      binds,
      q,
      { created_at: "id", action: "action", staff_email: "staff_email" },
    );
    const entries: AuditEntry[] = rows.map((r) => ({
      id: r.id,
      staff_email: r.staff_email,
      action: r.action,
      entity: r.entity,
      entity_id: r.entity_id,
      before: parse(r.before_json),
      after: parse(r.after_json),
      created_at: r.created_at,
    }));
    return ok(c, entries, { meta: { ...meta } });
  },
);
