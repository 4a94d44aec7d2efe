import type { PackingSlip } from "../../../../contract/console-orders";
import type { Lang } from "../../env";
import { parseAddress, type OrderRow } from "./orders";
import { cashToCollect } from "./fulfilment";

/**
 * An order's packing slip: the delivery address and the lines to pack with their SKU and
 * quantities, and no prices (the parcel may be opened by someone the shopper sends it to). A line
 * refunded from the console or claimed by a return is shown with its refunded count. A
 * cash-on-delivery order's slip says what the courier collects.
 */
export async function packingSlipOf(db: D1Database, order: OrderRow, lang: Lang): Promise<PackingSlip> {
  const { results } = await db
    .prepare(
      `SELECT oi.product_id, oi.variant_id, oi.name_en, oi.name_ar, oi.quantity, oi.claimed_quantity, COALESCE(oi.sku, p.sku) AS sku
       FROM order_items oi LEFT JOIN products p ON p.id = oi.product_id WHERE oi.order_id = ? ORDER BY oi.id`,
    )
    .bind(order.id)
    .all<{
      product_id: number;
      variant_id: number;
      name_en: string;
      name_ar: string;
      quantity: number;
      claimed_quantity: number;
      sku: string | null;
    }>();
  const items = results.map((r) => ({
    product_id: r.product_id,
    variant_id: r.variant_id,
    name: lang === "ar" ? r.name_ar : r.name_en,
    sku: r.sku,
    quantity: r.quantity,
    refunded: r.claimed_quantity,
  }));
  return {
    order_number: order.number,
    created_at: order.created_at,
    shipping_method: order.shipping_method,
    address: parseAddress(order.address),
    items,
    total_units: items.reduce((sum, i) => sum + i.quantity, 0),
    cash_to_collect: cashToCollect(order),
    currency: order.currency,
  };
}
