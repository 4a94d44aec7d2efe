import type { RemittanceDifference, RemittanceReport } from "../../../../contract/shipping";
import { readMoney } from "../../../../contract/numbers";
import { CsvSyntaxError, parseCsv } from "../shared/csv";
import type { CarrierRemittance } from "./carrier";

/**
 * Cash on delivery, reconciled: every delivered parcel that carried cash against what its carrier
 * reported collected and paid over (services/shipping/shipments.ts records the reports). What does
 * not match is listed for staff: nothing reported, too little, too much, or a report for a parcel
 * that is not one of the shop's COD parcels.
 */
export async function remittanceReport(db: D1Database): Promise<RemittanceReport> {
  const [parcels, strays] = await db.batch([
    db.prepare(
      `SELECT s.carrier, s.waybill, o.number AS order_number, s.cod_amount AS expected, s.delivered_at,
              COALESCE((SELECT SUM(r.amount) FROM cod_remittances r WHERE r.shipment_id = s.id), 0) AS remitted
       FROM shipments s JOIN orders o ON o.id = s.order_id
       WHERE s.kind = 'delivery' AND s.cod_amount > 0 AND s.status = 'delivered'
       ORDER BY s.delivered_at`,
    ),
    db.prepare(
      `SELECT r.carrier, r.waybill, NULL AS order_number, 0 AS expected, NULL AS delivered_at, SUM(r.amount) AS remitted
       FROM cod_remittances r LEFT JOIN shipments s ON s.id = r.shipment_id
       WHERE s.id IS NULL OR s.cod_amount = 0 OR s.status != 'delivered'
       GROUP BY r.carrier, r.waybill ORDER BY MIN(r.remitted_at)`,
    ),
  ]);
  type Row = Omit<RemittanceDifference, "kind">;
  const rows = parcels.results as unknown as Row[];
  const differences: RemittanceDifference[] = [];
  let matched = 0;
  for (const row of rows) {
    if (row.remitted === row.expected) matched++;
    else
      differences.push({
        ...row,
        kind: row.remitted === 0 ? "missing" : row.remitted < row.expected ? "short" : "over",
      });
  }
  for (const row of strays.results as unknown as Row[]) differences.push({ ...row, kind: "unknown" });
  return {
    differences,
    matched,
    expected_total: rows.reduce((s, r) => s + r.expected, 0),
    remitted_total:
      rows.reduce((s, r) => s + r.remitted, 0) +
      (strays.results as unknown as Row[]).reduce((s, r) => s + r.remitted, 0),
  };
}

/** The columns of a carrier's COD statement as the console takes it: one row per parcel paid over. */
export const STATEMENT_COLUMNS = ["waybill", "amount", "reference", "date"] as const;
export const STATEMENT_ROWS_MAX = 2000;

export type StatementReading =
  | { ok: true; lines: CarrierRemittance[] }
  | {
      ok: false;
      errors: { line: number; problem: "header" | "waybill" | "amount" | "reference" | "date" | "syntax" | "rows" }[];
    };

/**
 * A carrier's COD statement exported as CSV (Aramex has no API for it): `waybill, amount, reference,
 * date`, the amount in riyals as the statement prints it (1,299.50), the date as YYYY-MM-DD or an
 * ISO moment. Every row is read before anything is recorded: one bad row refuses the file, so a
 * statement is never half taken.
 */
export function readStatement(text: string): StatementReading {
  let records: string[][];
  try {
    records = parseCsv(text, { maxFields: 20 });
  } catch (err) {
    return { ok: false, errors: [{ line: err instanceof CsvSyntaxError ? err.line : 1, problem: "syntax" }] };
  }
  const header = (records[0] ?? []).map((h) => h.trim().toLowerCase());
  const index = STATEMENT_COLUMNS.map((c) => header.indexOf(c));
  if (index.some((i) => i < 0)) return { ok: false, errors: [{ line: 1, problem: "header" }] };
  const rows = records.slice(1);
  if (!rows.length || rows.length > STATEMENT_ROWS_MAX) return { ok: false, errors: [{ line: 1, problem: "rows" }] };
  const lines: CarrierRemittance[] = [];
  const errors: Extract<StatementReading, { ok: false }>["errors"] = [];
  rows.forEach((row, i) => {
    const line = i + 2;
    const [waybill, amountText, reference, date] = index.map((k) => (row[k] ?? "").trim());
    const amount = readMoney(amountText, { min: 0 });
    const at = /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T00:00:00.000Z` : date;
    if (!/^[A-Za-z0-9-]{4,40}$/.test(waybill)) errors.push({ line, problem: "waybill" });
    else if (!amount.ok) errors.push({ line, problem: "amount" });
    else if (!reference || reference.length > 80) errors.push({ line, problem: "reference" });
    else if (Number.isNaN(Date.parse(at))) errors.push({ line, problem: "date" });
    else lines.push({ waybill, amount: amount.value, reference, at: new Date(at).toISOString() });
  });
  return errors.length ? { ok: false, errors: errors.slice(0, 20) } : { ok: true, lines };
}
