/**
 * Stock changes that matter to every shopper's page: a variant going out of stock or coming back
 * (and with its last or first available variant, its product).
 *
 * The catalogue version (`versions` row `catalogue`, worker/backend/cache.ts) is what the caches
 * of whole answers and rendered pages are checked against. A sale that leaves a product in stock
 * does not bump it (the version would churn with every order and no page would stay cached): the
 * data caches see such a sale anyway by their live stock check, and the page cache checks the
 * exact counts a page shows ("only 3 left") every few seconds (worker/page-cache.ts). A flip of
 * availability changes what every list and product page says about the product (in stock or
 * sold out, the add-to-cart button, the in-stock filter), so the batch that moves the stock bumps
 * the version when, and only when, one of its products flips.
 *
 * Each statement goes into the batch AFTER the stock update it watches (and after the ledger row
 * that reads that update's changes()): it compares the product's stock now, after the update, with
 * the stock before it (now minus the move).
 */

/** An availability flip of `p` moved by `delta` (SQL; `p.stock` is the stock after the move). */
const flipped = (delta: string) => `((p.stock > 0) <> (p.stock - (${delta}) > 0))`;

const BUMP = "UPDATE versions SET value = value + 1 WHERE name = 'catalogue'";

/** After `UPDATE product_variants SET stock = stock + delta WHERE id = variantId` (delta < 0 for a sale). */
export function bumpOnFlip(db: D1Database, variantId: number, delta: number): D1PreparedStatement {
  return db
    .prepare(`${BUMP} AND EXISTS (SELECT 1 FROM product_variants p WHERE p.id = ?1 AND ${flipped("?2")})`)
    .bind(variantId, delta);
}

/**
 * After the release of an order's reservation (services/orders/orders.ts `releaseStockStatements`), placed
 * before the order's flag is cleared: only while the order still holds its stock (so the release
 * really happened in this batch) is each item's quantity the move.
 */
export function bumpOnReleaseFlip(db: D1Database, orderId: number, status: string): D1PreparedStatement {
  return db
    .prepare(
      `${BUMP} AND EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND stock_reserved = 1 AND status = ?2)
         AND EXISTS (SELECT 1 FROM order_items oi JOIN product_variants p ON p.id = oi.variant_id
                     WHERE oi.order_id = ?1 AND ${flipped("oi.quantity")})`,
    )
    .bind(orderId, status);
}
