import type { StockAlertDemand } from "../../../../contract/stock-alerts";
import { variantNameSql } from "../catalogue/variants";
import { pageOf, type ListQuery } from "../console/list";

/**
 * The waiting demand the console shows on Inventory: per variant, how many subscriptions wait for
 * it to come back, by channel, most wanted first by default. A subscription to a product without
 * options counts on that product's first variant (its only one when it was made).
 */
const DEMAND_FROM = `FROM (
    SELECT COALESCE(s.variant_id, (SELECT MIN(id) FROM product_variants WHERE product_id = s.product_id)) AS variant_id,
      COUNT(*) AS waiting, SUM(s.channel = 'email') AS email, SUM(s.channel = 'sms') AS sms, MIN(s.created_at) AS oldest
    FROM stock_alerts s WHERE s.notified_at IS NULL GROUP BY 1
  ) d JOIN product_variants v ON v.id = d.variant_id JOIN products p ON p.id = v.product_id`;

const DEMAND_SELECT = `p.id AS product_id, d.variant_id, v.sku, ${variantNameSql("v.id", "en")} AS name_en,
  ${variantNameSql("v.id", "ar")} AS name_ar, v.stock, d.waiting, d.email, d.sms, d.oldest`;

/** Sort names (contract STOCK_ALERT_DEMAND_SORTS) to their columns; ties go to the longest waiting. */
const DEMAND_SORTS: Record<string, string> = {
  waiting: "d.waiting",
  email: "d.email",
  sms: "d.sms",
  stock: "v.stock",
  oldest: "d.oldest",
};

export async function stockAlertDemand(db: D1Database, query: ListQuery & { product_id?: number }) {
  const where = query.product_id ? " WHERE p.id = ?" : "";
  return pageOf<StockAlertDemand>(
    db,
    DEMAND_SELECT,
    `${DEMAND_FROM}${where}`,
    query.product_id ? [query.product_id] : [],
    query,
    DEMAND_SORTS,
  );
}
