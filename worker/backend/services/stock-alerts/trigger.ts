import { ORIGIN_PARAM } from "../messages/shopper-messages";

/**
 * The moment a back-in-stock alert is owed: a waiting subscription (created while its variant, or
 * its product without options, had no stock) whose stock is now above zero. Every place that puts
 * stock back (the console's adjustments and bulk edit, returns received and refunds restocked,
 * orders cancelled or expired giving their hold back, new variants' opening stock) adds these
 * statements to its own batch, AFTER the stock update: the message is written to the shopper
 * outbox (`shopper_messages`, key `stock_alert:<subscription>:<channel>`, INSERT OR IGNORE, the row
 * `shopperMessageStatement` writes, made here by one INSERT … SELECT over the waiting ones) and the
 * subscription stamped told, in the same transaction as the stock change, so a rolled-back change
 * owes nothing and a second restock finds no subscription waiting. The caller flushes the outbox
 * after its batch (`flushShopperMessages`); the cron does too.
 *
 * Keyed on the stock being positive rather than on the move, it needs no "before" and is safe to
 * run in any batch, twice, or with variants whose stock did not move.
 */

/**
 * Which variants the batch may have moved: their ids, every variant of some products, every
 * variant of an order's lines, or all of them (the cron's sweep).
 */
export type StockAlertScope = readonly number[] | { productIds: readonly number[] } | { orderId: number } | "all";

function scopeSql(scope: StockAlertScope): { sql: string; bind: unknown } {
  if (scope === "all") return { sql: "SELECT id FROM product_variants WHERE ?1 IS NULL", bind: null };
  if ("orderId" in scope) return { sql: "SELECT variant_id FROM order_items WHERE order_id = ?1", bind: scope.orderId };
  if ("productIds" in scope)
    return {
      sql: "SELECT id FROM product_variants WHERE product_id IN (SELECT value FROM json_each(?1))",
      bind: JSON.stringify([...new Set(scope.productIds)]),
    };
  return { sql: "SELECT value FROM json_each(?1)", bind: JSON.stringify([...new Set(scope)]) };
}

/** The waiting subscriptions `s` (over product `p`) whose stock is back, among the scope's variants. */
const dueSql = (scope: string) => `s.notified_at IS NULL AND p.active = 1 AND (
    (s.variant_id IN (${scope}) AND EXISTS (
      SELECT 1 FROM product_variants v WHERE v.id = s.variant_id AND v.active = 1 AND v.stock > 0))
    OR (s.variant_id IS NULL AND p.stock > 0
      AND s.product_id IN (SELECT product_id FROM product_variants WHERE id IN (${scope}))))`;

/** The product page of the subscription's choice, absolute: `/{lang}/product-details/{slug}?colour=…`. */
const LINK_SQL = `s.site_origin || '/' || s.lang || '/product-details/' || p.slug || COALESCE('?' || (
    SELECT group_concat(pair, '&') FROM (
      SELECT o.code || '=' || ov.code AS pair FROM variant_option_values vov
      JOIN product_options o ON o.id = vov.option_id JOIN product_option_values ov ON ov.id = vov.value_id
      WHERE vov.variant_id = s.variant_id ORDER BY o.position, o.id)), '')`;

/**
 * The product's name with the chosen values, in the subscriber's language ("iPhone 16 Pro, Desert
 * Titanium, 512 GB"), as catalogue/variants.ts `variantNameSql` names it (written out here: that
 * module puts stock back, so it imports this one).
 */
const nameSql = (l: "en" | "ar") => `p.name_${l} || COALESCE('${l === "ar" ? "، " : ", "}' || (
    SELECT group_concat(t, '${l === "ar" ? "، " : ", "}') FROM (
      SELECT ov.value_${l} AS t FROM variant_option_values vov JOIN product_options o ON o.id = vov.option_id
      JOIN product_option_values ov ON ov.id = vov.value_id WHERE vov.variant_id = s.variant_id ORDER BY o.position, o.id)), '')`;
const NAME_SQL = `CASE s.lang WHEN 'ar' THEN ${nameSql("ar")} ELSE ${nameSql("en")} END`;

/** The statements that send the alerts owed after a stock change; put them after it in its batch. */
export function stockAlertStatements(db: D1Database, scope: StockAlertScope): D1PreparedStatement[] {
  if (
    (Array.isArray(scope) && scope.length === 0) ||
    (typeof scope === "object" && "productIds" in scope && !scope.productIds.length)
  )
    return [];
  const { sql, bind } = scopeSql(scope);
  const due = dueSql(sql);
  return [
    db
      .prepare(
        `INSERT OR IGNORE INTO shopper_messages (key, topic, channel, recipient, lang, params)
         SELECT 'stock_alert:' || s.id || ':' || s.channel, 'stock_alert', s.channel, s.recipient, s.lang,
           json_object('product', ${NAME_SQL}, 'productUrl', ${LINK_SQL}, '${ORIGIN_PARAM}', s.site_origin)
         FROM stock_alerts s JOIN products p ON p.id = s.product_id
         WHERE ${due}`,
      )
      .bind(bind),
    db
      .prepare(
        `UPDATE stock_alerts SET notified_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id IN (SELECT s.id FROM stock_alerts s JOIN products p ON p.id = s.product_id WHERE ${due})`,
      )
      .bind(bind),
  ];
}
