import type { AdjustmentInput, InventoryAdjustment, StockProduct } from "../../../../contract/console-content";
import type { Lang } from "../../env";
import { bumpCatalogueVersion } from "../../cache";
import { BackendError, notFound } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { INVALID_INPUT } from "../../../../contract/server/input-messages";
import { pageOf, type ListQuery } from "./list";
import { auditStatement } from "./audit-log";
import { NOW, refuse, type Staff } from "./writes";
import { msg } from "../../messages";
import { variantNameSql } from "../catalogue/variants";
import { stockAlertStatements } from "../stock-alerts/trigger";

/** The inventory ledger as the console runs it: stock adjustments, their history and low stock. */

// ---------------------------------------------------------------------------------------------
// Inventory

const INVENTORY_MESSAGES = {
  deltaNeeded: msg("console.inventory.deltaNeeded"),
  countNeeded: msg("console.inventory.countNeeded"),
  sameCount: msg("console.inventory.sameCount"),
  belowZero: msg("console.inventory.belowZero"),
  moved: msg("console.inventory.moved"),
  noProduct: msg("console.inventory.noProduct"),
};

/**
 * Records a stock adjustment: a conditional stock update (never below zero; for a count, only if
 * the stock is still what was read) and its ledger line, whose `applied` CHECK fails the whole
 * batch when the update changed nothing, so stock and ledger never disagree.
 */
export async function adjustStock(
  db: D1Database,
  staff: Staff,
  lang: Lang,
  input: AdjustmentInput,
): Promise<InventoryAdjustment> {
  const variant = await db
    .prepare(
      `SELECT id, product_id, stock FROM product_variants
       WHERE product_id = ?1 AND id = COALESCE(?2, (SELECT MIN(id) FROM product_variants WHERE product_id = ?1 HAVING COUNT(*) = 1))`,
    )
    .bind(input.product_id, input.variant_id ?? null)
    .first<{ id: number; product_id: number; stock: number }>();
  if (!variant) refuse(lang, 422, INVENTORY_MESSAGES.noProduct, input.variant_id == null ? "product_id" : "variant_id");
  let delta: number;
  let update: D1PreparedStatement;
  if (input.reason === "count") {
    if (input.counted === null) refuse(lang, 422, INVENTORY_MESSAGES.countNeeded, "counted");
    delta = input.counted - variant.stock;
    if (delta === 0) {
      const text = say(lang, INVENTORY_MESSAGES.sameCount, { stock: variant.stock });
      throw new BackendError(422, say(lang, INVALID_INPUT), { counted: [text] });
    }
    update = db
      .prepare(`UPDATE product_variants SET stock = ?, updated_at = ${NOW} WHERE id = ? AND stock = ?`)
      .bind(input.counted, variant.id, variant.stock);
  } else {
    if (input.delta === null) refuse(lang, 422, INVENTORY_MESSAGES.deltaNeeded, "delta");
    delta = input.delta;
    update = db
      .prepare(`UPDATE product_variants SET stock = stock + ?1, updated_at = ${NOW} WHERE id = ?2 AND stock + ?1 >= 0`)
      .bind(delta, variant.id);
  }
  try {
    const results = await db.batch([
      update,
      db
        .prepare(
          `INSERT INTO inventory_adjustments (product_id, variant_id, delta, reason, note, stock_after, staff_user_id, applied)
           VALUES (?1, ?2, ?3, ?4, ?5, (SELECT stock FROM product_variants WHERE id = ?2), ?6, changes()) RETURNING id`,
        )
        .bind(variant.product_id, variant.id, delta, input.reason, input.note, staff.user_id),
      auditStatement(
        db,
        staff,
        `inventory.${input.reason}`,
        "product",
        variant.product_id,
        { stock: variant.stock, variant_id: variant.id },
        {
          delta,
          reason: input.reason,
          note: input.note,
        },
      ),
      bumpCatalogueVersion(db),
      // A sold-out variant counted or delivered back: its waiting shoppers are told.
      ...stockAlertStatements(db, [variant.id]),
    ]);
    const id = (results[1]!.results[0] as { id: number }).id;
    return findAdjustment(db, id);
  } catch (err) {
    if (!/CHECK constraint failed/i.test(String(err))) throw err;
    // The update found nothing to do: the stock would go below zero, or moved since it was read.
    const now = await db
      .prepare("SELECT stock FROM product_variants WHERE id = ?")
      .bind(variant.id)
      .first<number>("stock");
    // On the counted field, so the form shows it where the operator typed.
    if (input.reason === "count") refuse(lang, 422, INVENTORY_MESSAGES.moved, "counted");
    const text = say(lang, INVENTORY_MESSAGES.belowZero, { stock: now ?? 0 });
    throw new BackendError(422, say(lang, INVALID_INPUT), { delta: [text] });
  }
}

/** A line as just written by staff (POST /admin/inventory/adjustments): its stock after as stored. */
async function findAdjustment(db: D1Database, id: number): Promise<InventoryAdjustment> {
  const row = await db
    .prepare(
      `SELECT a.id, 'adjustment' AS source, a.product_id, a.variant_id, ${VARIANT_COLUMNS}, a.delta, a.reason, a.note,
         a.stock_after, u.name AS staff_name, u.email AS staff_email, NULL AS order_number, a.created_at
       FROM inventory_adjustments a JOIN product_variants v ON v.id = a.variant_id JOIN products p ON p.id = v.product_id
       LEFT JOIN users u ON u.id = a.staff_user_id
       WHERE a.id = ?`,
    )
    .bind(id)
    .first<InventoryAdjustment>();
  if (!row) throw notFound();
  return row;
}

/**
 * The whole ledger, one line per change of stock: staff's adjustments and restocks
 * (inventory_adjustments) and the orders' sales and releases (stock_moves, without the guard rows a
 * retried reservation writes, whose quantity is 0), each of one variant. `seq` orders the lines as
 * they happened; each line's balance is the variant's stock now less its lines after it, so the
 * balances add up line by line and the newest is the stock now. Filters apply outside, after the
 * balances are made.
 */
const LEDGER_LINES = `(
  SELECT l.*, v.stock - COALESCE(SUM(l.delta) OVER (
      PARTITION BY l.variant_id ORDER BY l.seq DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS stock_after
  FROM (
    SELECT m.*, ROW_NUMBER() OVER (ORDER BY m.created_at, m.source, m.id) AS seq FROM (
      SELECT a.id, 'adjustment' AS source, a.product_id, a.variant_id, a.delta, a.reason, a.note, a.staff_user_id,
        NULL AS order_id, a.created_at
      FROM inventory_adjustments a
      UNION ALL
      SELECT s.id, 'order', s.product_id, s.variant_id, s.quantity, CASE WHEN s.quantity < 0 THEN 'sale' ELSE 'released' END,
        NULL, NULL, s.order_id, s.created_at
      FROM stock_moves s WHERE s.quantity <> 0
    ) m
  ) l JOIN product_variants v ON v.id = l.variant_id
)`;
/** A variant's SKU and its names with its values, over `v` and its product `p`. */
const VARIANT_COLUMNS = `v.sku, ${variantNameSql("v.id", "en")} AS name_en, ${variantNameSql("v.id", "ar")} AS name_ar`;
const ADJUSTMENT_SELECT = `a.id, a.source, a.product_id, a.variant_id, ${VARIANT_COLUMNS}, a.delta, a.reason, a.note,
  a.stock_after, u.name AS staff_name, u.email AS staff_email, o.number AS order_number, a.created_at`;
const ADJUSTMENT_FROM = `FROM ${LEDGER_LINES} a JOIN product_variants v ON v.id = a.variant_id JOIN products p ON p.id = v.product_id
  LEFT JOIN users u ON u.id = a.staff_user_id LEFT JOIN orders o ON o.id = a.order_id`;
const ADJUSTMENT_SORTS = { created_at: "a.seq", delta: "a.delta", reason: "a.reason" };

export async function listAdjustments(db: D1Database, query: ListQuery & { product_id?: number; reason?: string }) {
  const where: string[] = [];
  const binds: unknown[] = [];
  if (query.product_id) {
    where.push("a.product_id = ?");
    binds.push(query.product_id);
  }
  if (query.reason) {
    where.push("a.reason = ?");
    binds.push(query.reason);
  }
  return pageOf<InventoryAdjustment>(
    db,
    ADJUSTMENT_SELECT,
    `${ADJUSTMENT_FROM}${where.length ? ` WHERE ${where.join(" AND ")}` : ""}`,
    binds,
    query,
    ADJUSTMENT_SORTS,
  );
}

const STOCK_SELECT = `p.id, v.id AS variant_id, ${VARIANT_COLUMNS}, v.stock, p.low_stock_threshold`;
const LOW_STOCK_SORTS = { stock: "v.stock", name_en: "p.name_en COLLATE NOCASE", sku: "v.sku" };

/** Variants at or under their product's low-stock threshold (hidden ones left out), fewest first by default. */
export async function lowStock(db: D1Database, query: ListQuery) {
  return pageOf<StockProduct>(
    db,
    STOCK_SELECT,
    `FROM product_variants v JOIN products p ON p.id = v.product_id
     WHERE p.active = 1 AND v.active = 1 AND v.stock <= p.low_stock_threshold`,
    [],
    query,
    LOW_STOCK_SORTS,
  );
}

/** The adjustment form's variant picker: by exact SKU first, then names and SKUs containing the text. */
export async function findStockProducts(db: D1Database, search: string): Promise<StockProduct[]> {
  const { results } = await db
    .prepare(
      `SELECT ${STOCK_SELECT} FROM product_variants v JOIN products p ON p.id = v.product_id
       WHERE instr(lower(v.sku), lower(?1)) > 0 OR instr(lower(p.sku), lower(?1)) > 0
         OR instr(lower(p.name_en), lower(?1)) > 0 OR instr(p.name_ar, ?1) > 0
       ORDER BY (v.sku = ?1 COLLATE NOCASE) DESC, p.name_en COLLATE NOCASE, v.position, v.id LIMIT 10`,
    )
    .bind(search)
    .all<StockProduct>();
  return results;
}
