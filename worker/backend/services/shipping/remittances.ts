import type { RemittanceDifference, RemittanceReport } from "../../../../contract/shipping";

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
