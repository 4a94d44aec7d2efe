import type { AuditEntry, AuditRecord } from "../../../../contract/console";
import type { Lang, StaffCaller } from "../../env";
import { contains, pageOf, type ListQuery } from "./list";

/**
 * The audit log as owners read it: each line with the record it is about named the way staff name
 * it (an order's number, a product's name, a promo code, an email; a return by its order) and the
 * console page that shows it, so the log links to its records and shows no technical ids.
 */

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

export interface AuditFilters {
  entity?: string;
  entity_id?: string;
  search?: string;
}

const parse = (json: string | null): unknown => (json === null ? null : JSON.parse(json));

/** A field of a line's record as it was written (after, else before): a name survives a deletion. */
function written(before: unknown, after: unknown, ...fields: string[]): string | null {
  for (const side of [after, before]) {
    if (!side || typeof side !== "object") continue;
    for (const field of fields) {
      const value = (side as Record<string, unknown>)[field];
      if (typeof value === "string" && value) return value;
    }
  }
  return null;
}

/** A record named by a column of its own table, in the reader's language (`name_ar`, `title_en`…). */
function named(table: string, column: string, page: AuditRecord["page"]) {
  return (lang: Lang) => ({
    sql: `SELECT CAST(id AS TEXT) AS k, ${column}_${lang} AS name, NULL AS ref FROM ${table}`,
    page,
  });
}

/** Where each kind of record is named now, by the ids of one page of lines (one query per kind). */
const NAMES: Record<string, (lang: Lang) => { sql: string; page: AuditRecord["page"] }> = {
  product: named("products", "name", "product"),
  category: named("categories", "name", "category"),
  brand: named("brands", "name", "brand"),
  service: named("services", "name", "service"),
  page: named("pages", "title", "page"),
  promo_code: () => ({
    sql: "SELECT CAST(id AS TEXT) AS k, code AS name, NULL AS ref FROM promo_codes",
    page: "promo_code",
  }),
  staff: () => ({ sql: "SELECT CAST(id AS TEXT) AS k, email AS name, NULL AS ref FROM users", page: "staff" }),
  // Open invitations are listed on the staff page, under the team.
  staff_invitation: () => ({
    sql: "SELECT CAST(id AS TEXT) AS k, email AS name, NULL AS ref FROM staff_invitations",
    page: "staff",
  }),
  // A return is named and opened by its order: its own id means nothing to staff.
  return: () => ({
    sql: "SELECT r.id AS k, o.number AS name, o.number AS ref FROM returns r JOIN orders o ON o.id = r.order_id",
    page: "order",
  }),
  // A review is named by its product, in the reader's language; the moderation page lists it.
  review: (lang) => ({
    sql: `SELECT CAST(r.id AS TEXT) AS k, p.name_${lang === "ar" ? "ar" : "en"} AS name, NULL AS ref FROM reviews r JOIN products p ON p.id = r.product_id`,
    page: null,
  }),
};
const KEY_COLUMN: Record<string, string> = { return: "r.id", review: "CAST(r.id AS TEXT)" };

/** What each line is about, named now where the record still exists, else as the line wrote it. */
async function recordsOf(db: D1Database, lang: Lang, rows: AuditRow[]): Promise<AuditRecord[]> {
  const kinds = [...new Set(rows.filter((r) => r.entity_id && NAMES[r.entity]).map((r) => r.entity))];
  const found = new Map<string, { name: string | null; ref: string | null }>();
  if (kinds.length) {
    const results = await db.batch(
      kinds.map((kind) => {
        const ids = [...new Set(rows.filter((r) => r.entity === kind && r.entity_id).map((r) => r.entity_id!))];
        const column = KEY_COLUMN[kind] ?? "CAST(id AS TEXT)";
        return db
          .prepare(`${NAMES[kind]!(lang).sql} WHERE ${column} IN (${ids.map(() => "?").join(",")})`)
          .bind(...ids);
      }),
    );
    results.forEach((result, i) => {
      for (const r of result.results as { k: string; name: string | null; ref: string | null }[])
        found.set(`${kinds[i]}:${r.k}`, { name: r.name, ref: r.ref });
    });
  }
  return rows.map((r) => {
    const before = parse(r.before_json);
    const after = parse(r.after_json);
    const now = r.entity_id ? found.get(`${r.entity}:${r.entity_id}`) : undefined;
    const names = NAMES[r.entity];
    switch (r.entity) {
      case "order":
        return { name: r.entity_id, page: r.entity_id ? "order" : null, key: r.entity_id };
      case "return":
        return { name: now?.name ?? null, page: now?.ref ? "order" : null, key: now?.ref ?? null };
      case "media":
        return { name: r.entity_id?.split("/").pop() ?? null, page: null, key: null };
      default: {
        const name =
          now?.name ??
          written(
            before,
            after,
            lang === "ar" ? "name_ar" : "name_en",
            lang === "ar" ? "title_ar" : "title_en",
            "code",
            "email",
          );
        // A deleted record has no page to open; staff have one list, not a page each.
        const exists = now !== undefined;
        const page = r.entity in NAMES && exists ? names(lang).page : null;
        return { name, page, key: page && page !== "staff" ? r.entity_id : null };
      }
    }
  });
}

/** One page of the audit log, newest first, filterable by record and by who or what. */
export async function listAuditLog(
  db: D1Database,
  lang: Lang,
  query: ListQuery & AuditFilters,
): Promise<{ rows: AuditEntry[]; meta: Awaited<ReturnType<typeof pageOf>>["meta"] }> {
  const where: string[] = [];
  const binds: unknown[] = [];
  if (query.entity) {
    where.push("entity = ?");
    binds.push(query.entity);
  }
  if (query.entity_id) {
    where.push("entity_id = ?");
    binds.push(query.entity_id);
  }
  if (query.search) {
    where.push(`(${contains("staff_email")} OR ${contains("action")})`);
    binds.push(query.search, query.search);
  }
  const { rows, meta } = await pageOf<AuditRow>(
    db,
    "id, staff_email, action, entity, entity_id, before_json, after_json, created_at",
    `FROM audit_log ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`,
    binds,
    query,
    { created_at: "id", action: "action", staff_email: "staff_email" },
  );
  const records = await recordsOf(db, lang, rows);
  return {
    rows: rows.map((r, i) => ({
      id: r.id,
      staff_email: r.staff_email,
      action: r.action,
      entity: r.entity,
      entity_id: r.entity_id,
      before: parse(r.before_json),
      after: parse(r.after_json),
      created_at: r.created_at,
      record: records[i]!,
    })),
    meta,
  };
}

/**
 * The audit line of a staff action, to run in the same batch as the change itself, so a change is
 * never without its line and a line never without its change. `before`/`after` are the record as
 * the console shows it (null for a creation or a deletion).
 */
export function auditStatement(
  db: D1Database,
  staff: Pick<StaffCaller, "user_id" | "email">,
  action: string,
  entity: string,
  entityId: string | number | null,
  before: unknown,
  after: unknown,
  opts: { onlyIfChanged?: boolean; entityOfLastInsert?: boolean } = {},
): D1PreparedStatement {
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
  // onlyIfChanged: written only when the statement just before it in the batch changed a row
  // (a conditional update that found nothing to do leaves no line). entityOfLastInsert: the
  // record is the row the batch just inserted, whose id is known only there.
  return db
    .prepare(
      `INSERT INTO audit_log (staff_user_id, staff_email, action, entity, entity_id, before_json, after_json)
       SELECT ?, ?, ?, ?, ${opts.entityOfLastInsert ? "CAST(last_insert_rowid() AS TEXT)" : "?"}, ?, ? WHERE ${opts.onlyIfChanged ? "changes() > 0" : "1"}`,
    )
    .bind(
      ...[
        staff.user_id,
        staff.email,
        action,
        entity,
        ...(opts.entityOfLastInsert ? [] : [entityId === null ? null : String(entityId)]),
        json(before),
        json(after),
      ],
    );
}
