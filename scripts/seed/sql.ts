// SQL text builders for the seed. The seed runs both through `wrangler d1 execute --file` (plain
// SQL text) and through D1 in the Workers test runtime, so statements carry their values as
// literals. Values come only from the seed's own data, never from a request.

export type SqlValue = string | number | boolean | null;

/** A SQL literal: strings quoted with '' escaping, booleans as 0/1, null as NULL. */
export function sqlValue(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return String(value);
  }
  return `'${value.replace(/'/g, "''")}'`;
}

/** `INSERT OR IGNORE`: re-running the seed leaves existing rows as they are. */
export function insertOrIgnore(table: string, row: Record<string, SqlValue>): string {
  const columns = Object.keys(row);
  return `INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((c) => sqlValue(row[c])).join(", ")})`;
}

/**
 * The last statement of every seed (the demo seed, the synthetic catalogue): the catalogue version moves, so every cache of catalogue
 * answers and rendered pages (worker/backend/cache.ts, worker/page-cache.ts) stops serving what
 * it kept from before the seed, within a second or two, everywhere.
 */
export const CATALOGUE_BUMP = "UPDATE versions SET value = value + 1 WHERE name = 'catalogue'";
