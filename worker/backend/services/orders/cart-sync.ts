import type { Lang } from "../../env";
import type { CartOwner } from "../../identity";
import type { CartSynced, CartSyncOutcome, CartSyncStatus } from "../../../../contract/cart";
import { chosenVariantSql } from "../catalogue/variants";
import { ensureCartId, loadCart } from "./cart";
import { releaseExpiredReservations } from "./reservations";

/** One line of POST /cart/sync: its product, the chosen variant when it has several, and the quantity to set. */
export interface SyncLine {
  product_id: number;
  variant_id?: number;
  quantity: number;
}

interface Bound {
  id: number;
  stock: number;
  max_per_order: number;
  /** 1 while the product and the variant are both sold. */
  sold: number;
}

/**
 * Replays what a browser changed while offline (contract/cart.ts, `CartSynced`): each line's
 * quantity is set, not added, so a replay sent twice leaves the same cart. A line is clamped to
 * what may be ordered now (min of stock and the per-order maximum) rather than refused, and a line
 * of which none is left, or that is no longer sold, is not written (a line the cart already held
 * keeps its quantity, and the cart shows it as sold out). One batch: the bounds read and the writes
 * see the same stock, and the cart never holds half a replay.
 */
export async function syncCartLines(
  db: D1Database,
  owner: CartOwner,
  lines: SyncLine[],
  lang: Lang,
): Promise<CartSynced> {
  // Stock held by unpaid orders whose time ran out goes back first, as a refused add would do.
  await releaseExpiredReservations(db);
  const cartId = await ensureCartId(db, owner);
  const chosen = chosenVariantSql("?1", "?2");
  const statements: D1PreparedStatement[] = [];
  for (const line of lines) {
    const variant = line.variant_id ?? null;
    statements.push(
      db
        .prepare(
          `SELECT v.id, v.stock, v.max_per_order, p.active * v.active AS sold
           FROM product_variants v JOIN products p ON p.id = v.product_id
           WHERE v.id = ${chosen} AND v.product_id = ?1`,
        )
        .bind(line.product_id, variant),
    );
    statements.push(
      line.quantity === 0
        ? db
            .prepare(
              "DELETE FROM cart_items WHERE cart_id = ?1 AND product_id = ?2 AND (?3 IS NULL OR variant_id = ?3)",
            )
            .bind(cartId, line.product_id, variant)
        : db
            .prepare(
              `INSERT INTO cart_items (cart_id, variant_id, product_id, quantity)
               SELECT ?3, v.id, v.product_id, MIN(?4, v.stock, v.max_per_order)
               FROM product_variants v JOIN products p ON p.id = v.product_id
               WHERE v.id = ${chosen} AND v.product_id = ?1 AND p.active = 1 AND v.active = 1
                 AND MIN(?4, v.stock, v.max_per_order) > 0
               ON CONFLICT (cart_id, variant_id) DO UPDATE SET quantity = excluded.quantity`,
            )
            .bind(line.product_id, variant, cartId, line.quantity),
    );
  }
  statements.push(
    db.prepare("UPDATE carts SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?").bind(cartId),
  );
  const results = await db.batch<Bound>(statements);
  const cart = await loadCart(db, owner, lang);
  const outcomes = lines.map((line, i): CartSyncOutcome => {
    const bound = results[i * 2].results[0] ?? null;
    const held = cart.products.find((l) =>
      bound ? l.variant_id === bound.id : l.product_id === line.product_id && l.variant_id === line.variant_id,
    );
    return {
      product_id: line.product_id,
      variant_id: bound?.id ?? line.variant_id ?? null,
      requested: line.quantity,
      quantity: held?.quantity ?? 0,
      status: syncStatus(line.quantity, bound),
    };
  });
  return { cart, outcomes };
}

/** What became of a line asked for `requested`, given what could be ordered when it was written. */
export function syncStatus(requested: number, bound: Bound | null): CartSyncStatus {
  if (requested === 0) return "removed";
  if (!bound || bound.sold !== 1) return "unavailable";
  const most = Math.min(bound.stock, bound.max_per_order);
  if (most <= 0) return "sold_out";
  return most < requested ? "reduced" : "applied";
}
