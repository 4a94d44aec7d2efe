import type { ConsolePromo, PromoCodeInput, PromoFilter, PromoState } from "../../../../contract/console-promos";
import type { Lang, StaffCaller } from "../../env";
import { BackendError, notFound } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { INVALID_INPUT } from "../../../../contract/server/input-messages";
import { contains, pageOf, type ListQuery } from "./list";
import { auditStatement } from "./audit-log";
import { msg } from "../../messages";

/**
 * Promo codes as the console runs them: list with usage so far, create, edit, pause and
 * resume. Checkout's rules stay in services/orders/promo.ts; a paused code (`active` 0) is refused there
 * as unknown. Every write runs in one batch with its audit line.
 */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** Orders that gave no discount in the end: they are left out of "discount given". */
const NOT_GIVEN = "('cancelled', 'payment_failed')";

const SELECT = `p.id, p.code, p.discount_type, p.value, p.max_discount, p.starts_at, p.ends_at, p.min_order,
  p.usage_limit, p.per_user_limit, p.used_count, p.active,
  CASE WHEN p.ends_at IS NOT NULL AND p.ends_at < ${NOW} THEN 'expired'
       WHEN p.active = 0 THEN 'paused'
       WHEN p.starts_at IS NOT NULL AND p.starts_at > ${NOW} THEN 'scheduled'
       WHEN p.usage_limit IS NOT NULL AND p.used_count >= p.usage_limit THEN 'used_up'
       ELSE 'active' END AS state,
  COALESCE(r.n, 0) AS redemptions, COALESCE(r.discount, 0) AS discount_total`;

const FROM = `FROM promo_codes p LEFT JOIN (
  SELECT rd.promo_id, COUNT(*) AS n, SUM(CASE WHEN o.status IN ${NOT_GIVEN} THEN 0 ELSE o.discount END) AS discount
  FROM promo_redemptions rd JOIN orders o ON o.id = rd.order_id GROUP BY rd.promo_id
) r ON r.promo_id = p.id`;

const FILTERS: Record<PromoFilter, string> = {
  active: `p.active = 1 AND (p.ends_at IS NULL OR p.ends_at >= ${NOW})`,
  paused: `p.active = 0 AND (p.ends_at IS NULL OR p.ends_at >= ${NOW})`,
  expired: `p.ends_at IS NOT NULL AND p.ends_at < ${NOW}`,
};

const SORTS = {
  created: "p.id",
  code: "p.code",
  used_count: "p.used_count",
  ends_at: "p.ends_at",
  discount_total: "discount_total",
};

interface PromoRecord extends Omit<ConsolePromo, "active"> {
  active: number;
}

const present = (row: PromoRecord): ConsolePromo => ({
  ...row,
  active: row.active === 1,
  state: row.state as PromoState,
});

/** What the audit log keeps of a code: its settings, not its usage. */
function settings(p: ConsolePromo | (PromoCodeInput & { active?: boolean })) {
  return {
    code: p.code,
    discount_type: p.discount_type,
    value: p.value,
    max_discount: p.max_discount,
    starts_at: p.starts_at,
    ends_at: p.ends_at,
    min_order: p.min_order,
    usage_limit: p.usage_limit,
    per_user_limit: p.per_user_limit,
    ...(p.active === undefined ? {} : { active: p.active }),
  };
}

export async function listPromos(
  db: D1Database,
  query: ListQuery & { status?: PromoFilter; search?: string },
): Promise<{ rows: ConsolePromo[]; meta: Awaited<ReturnType<typeof pageOf>>["meta"] }> {
  const where: string[] = [];
  const binds: unknown[] = [];
  if (query.status) where.push(FILTERS[query.status]);
  if (query.search) {
    where.push(contains("p.code"));
    binds.push(query.search);
  }
  const { rows, meta } = await pageOf<PromoRecord>(
    db,
    SELECT,
    `${FROM} ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`,
    binds,
    query,
    SORTS,
  );
  return { rows: rows.map(present), meta };
}

export async function findConsolePromo(db: D1Database, id: number): Promise<ConsolePromo> {
  const row = await db.prepare(`SELECT ${SELECT} ${FROM} WHERE p.id = ?`).bind(id).first<PromoRecord>();
  if (!row) throw notFound();
  return present(row);
}

const MESSAGES = {
  duplicate: msg("console.promos.duplicate"),
  belowUsed: msg("console.promos.belowUsed"),
};

function refuse(lang: Lang, field: string, message: string): BackendError {
  return new BackendError(422, say(lang, INVALID_INPUT), { [field]: [message] });
}

/** The code is unique without regard to case; the table's NOCASE UNIQUE is the last word in a race. */
async function assertCodeFree(db: D1Database, lang: Lang, code: string, exceptId: number | null) {
  const taken = await db
    .prepare("SELECT id FROM promo_codes WHERE code = ? COLLATE NOCASE AND id IS NOT ?")
    .bind(code, exceptId)
    .first<{ id: number }>();
  if (taken) throw refuse(lang, "code", say(lang, MESSAGES.duplicate));
}

/** A constraint the checks above could only lose in a race, answered as the same field error. */
function constraintRefusal(err: unknown, lang: Lang, usedCount: number): BackendError | null {
  const text = String(err instanceof Error ? `${err.message} ${String(err.cause ?? "")}` : err);
  if (/UNIQUE constraint failed/i.test(text)) return refuse(lang, "code", say(lang, MESSAGES.duplicate));
  if (/CHECK constraint failed/i.test(text))
    return refuse(lang, "usage_limit", say(lang, MESSAGES.belowUsed, { used: String(usedCount) }));
  return null;
}

const COLUMNS = [
  "code",
  "discount_type",
  "value",
  "max_discount",
  "starts_at",
  "ends_at",
  "min_order",
  "usage_limit",
  "per_user_limit",
] as const;

const valuesOf = (input: PromoCodeInput) => COLUMNS.map((column) => input[column]);

export async function createPromo(
  db: D1Database,
  staff: StaffCaller,
  lang: Lang,
  input: PromoCodeInput,
): Promise<ConsolePromo> {
  await assertCodeFree(db, lang, input.code, null);
  try {
    await db.batch([
      db
        .prepare(
          `INSERT INTO promo_codes (${COLUMNS.join(", ")}, active) VALUES (${COLUMNS.map(() => "?").join(", ")}, 1)`,
        )
        .bind(...valuesOf(input)),
      auditStatement(db, staff, "promo.create", "promo_code", null, null, settings({ ...input, active: true })),
      // The new code's id is known only inside the batch: the audit line just written takes it.
      db
        .prepare(
          "UPDATE audit_log SET entity_id = (SELECT CAST(id AS TEXT) FROM promo_codes WHERE code = ? COLLATE NOCASE) WHERE id = last_insert_rowid()",
        )
        .bind(input.code),
    ]);
  } catch (err) {
    throw constraintRefusal(err, lang, 0) ?? err;
  }
  const row = await db
    .prepare("SELECT id FROM promo_codes WHERE code = ? COLLATE NOCASE")
    .bind(input.code)
    .first<{ id: number }>();
  return findConsolePromo(db, row!.id);
}

export async function updatePromo(
  db: D1Database,
  staff: StaffCaller,
  lang: Lang,
  id: number,
  input: PromoCodeInput,
): Promise<ConsolePromo> {
  const before = await findConsolePromo(db, id);
  if (input.usage_limit !== null && input.usage_limit < before.used_count)
    throw refuse(lang, "usage_limit", say(lang, MESSAGES.belowUsed, { used: String(before.used_count) }));
  await assertCodeFree(db, lang, input.code, id);
  try {
    await db.batch([
      db
        .prepare(`UPDATE promo_codes SET ${COLUMNS.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`)
        .bind(...valuesOf(input), id),
      auditStatement(db, staff, "promo.update", "promo_code", id, settings(before), settings(input)),
    ]);
  } catch (err) {
    throw constraintRefusal(err, lang, before.used_count) ?? err;
  }
  return findConsolePromo(db, id);
}

/** Pauses (checkout then refuses the code as unknown) or resumes a code. */
export async function setPromoActive(
  db: D1Database,
  staff: StaffCaller,
  id: number,
  active: boolean,
): Promise<ConsolePromo> {
  const before = await findConsolePromo(db, id);
  if (before.active === active) return before;
  await db.batch([
    db.prepare("UPDATE promo_codes SET active = ? WHERE id = ?").bind(active ? 1 : 0, id),
    auditStatement(
      db,
      staff,
      active ? "promo.resume" : "promo.pause",
      "promo_code",
      id,
      { code: before.code, active: before.active },
      { code: before.code, active },
    ),
  ]);
  return findConsolePromo(db, id);
}
