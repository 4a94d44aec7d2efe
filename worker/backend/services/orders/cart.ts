import type { Lang } from "../../env";
import { type BackendError, unprocessable } from "../../http";
import { say } from "../../../../contract/server/i18n";
import type { CartOwner } from "../../identity";
import type { ProductSummary } from "../../../../contract/catalogue";
import { productSummariesByIds } from "../catalogue/product";
import { evaluatePromo, type AppliedPromo } from "./promo";
import { releaseExpiredReservations } from "./reservations";
import type { Cart, CartLine } from "../../../../contract/cart";
import { msg } from "../../messages";

export type { ProductSummary };

/**
 * Carts for guests (by a known guest id) and signed-in users. A line's quantity is bounded by the
 * product's stock and its per-order maximum; the bound is checked inside the SQL statement that
 * writes the line, so concurrent adds can never push a line past it.
 */

const ownerColumn = (owner: CartOwner) => (owner.userId !== null ? "user_id" : "guest_id");
const ownerValue = (owner: CartOwner) => (owner.userId !== null ? owner.userId : owner.guestId);

/** The owner's cart id, or null when the owner has no cart yet. */
export async function findCartId(db: D1Database, owner: CartOwner): Promise<number | null> {
  const row = await db
    .prepare(`SELECT id FROM carts WHERE ${ownerColumn(owner)} = ?`)
    .bind(ownerValue(owner))
    .first<{ id: number }>();
  return row?.id ?? null;
}

/** The owner's cart id, creating the cart on first use (safe under concurrent first adds). */
export async function ensureCartId(db: D1Database, owner: CartOwner): Promise<number> {
  const col = ownerColumn(owner);
  const [, found] = await db.batch<{ id: number }>([
    db.prepare(`INSERT INTO carts (${col}) VALUES (?) ON CONFLICT (${col}) DO NOTHING`).bind(ownerValue(owner)),
    db.prepare(`SELECT id FROM carts WHERE ${col} = ?`).bind(ownerValue(owner)),
  ]);
  const id = found.results[0]?.id;
  if (id === undefined) throw new Error("cart was not created");
  return id;
}

async function productBound(
  db: D1Database,
  productId: number,
): Promise<{ stock: number; max_per_order: number } | null> {
  return db
    .prepare("SELECT stock, max_per_order FROM products WHERE id = ? AND active = 1")
    .bind(productId)
    .first<{ stock: number; max_per_order: number }>();
}

/** The 422 for a quantity past the bound, naming the bound that applies. */
function quantityRefused(lang: Lang, bound: { stock: number; max_per_order: number }, current: number): BackendError {
  const message =
    bound.stock <= 0
      ? say(lang, msg("orders.cart.outOfStock"))
      : bound.stock < bound.max_per_order
        ? say(lang, msg("orders.cart.onlyLeft"), { n: bound.stock })
        : say(lang, msg("orders.cart.atMostPerOrder"), { n: bound.max_per_order });
  const errors: Record<string, string[]> = { quantity: [message] };
  if (current > 0) {
    errors.quantity.push(say(lang, msg("orders.cart.alreadyInCart"), { n: current }));
  }
  return unprocessable(errors, message);
}

function unknownProduct(lang: Lang): BackendError {
  const message = say(lang, msg("orders.cart.unknownProduct"));
  return unprocessable({ product_id: [message] }, message);
}

async function touchCart(db: D1Database, cartId: number): Promise<void> {
  await db
    .prepare("UPDATE carts SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?")
    .bind(cartId)
    .run();
}

/**
 * Runs a bounded line write; when the bound refuses it, stock held by unpaid orders whose time
 * ran out is given back first and the write is tried once more.
 */
async function writeWithinBound(db: D1Database, upsert: D1PreparedStatement): Promise<boolean> {
  if ((await upsert.run()).meta.changes === 1) return true;
  if ((await releaseExpiredReservations(db)) === 0) return false;
  return (await upsert.run()).meta.changes === 1;
}

/**
 * Adds `quantity` to the product's line. One statement: the insert or the increment only happens
 * when the resulting quantity is within min(stock, max_per_order), so 50 concurrent adds give
 * exactly the total the bound allows.
 */
export async function addProductToCart(
  db: D1Database,
  owner: CartOwner,
  productId: number,
  quantity: number,
  lang: Lang,
): Promise<void> {
  const cartId = await ensureCartId(db, owner);
  const upsert = db
    .prepare(
      `INSERT INTO cart_items (cart_id, product_id, quantity)
       SELECT ?1, p.id, ?3 FROM products p WHERE p.id = ?2 AND p.active = 1 AND ?3 <= MIN(p.stock, p.max_per_order)
       ON CONFLICT (cart_id, product_id) DO UPDATE SET quantity = cart_items.quantity + excluded.quantity
       WHERE cart_items.quantity + excluded.quantity <= (SELECT MIN(stock, max_per_order) FROM products WHERE id = excluded.product_id AND active = 1)`,
    )
    .bind(cartId, productId, quantity);
  if (await writeWithinBound(db, upsert)) return touchCart(db, cartId);
  const bound = await productBound(db, productId);
  if (!bound) throw unknownProduct(lang);
  const current = await db
    .prepare("SELECT quantity FROM cart_items WHERE cart_id = ? AND product_id = ?")
    .bind(cartId, productId)
    .first<{ quantity: number }>();
  throw quantityRefused(lang, bound, current?.quantity ?? 0);
}

/** What "order again" put in the cart, and what it could not. */
export interface ReorderOutcome {
  /** Lines added, or raised to the quantity ordered before. */
  added: number;
  /** Products in the cart with fewer than were ordered: only that many are left, or allowed. */
  reduced: string[];
  /** Products no longer sold or out of stock: left out. */
  unavailable: string[];
}

/**
 * "Order again": the lines of a past order back in the owner's cart, each at the quantity ordered
 * then, as far as stock and the per-order limit allow now. A line already in the cart is raised to
 * that quantity, never added on top (pressing twice does not double it). One batch: each upsert
 * keeps the cart's bound, like an add.
 */
export async function reorderIntoCart(
  db: D1Database,
  owner: CartOwner,
  orderId: number,
  lang: Lang,
): Promise<ReorderOutcome> {
  await releaseExpiredReservations(db);
  const { results: lines } = await db
    .prepare(
      `SELECT oi.product_id, oi.quantity, oi.name_en, oi.name_ar,
              CASE WHEN p.active = 1 THEN MIN(p.stock, p.max_per_order) ELSE 0 END AS bound
       FROM order_items oi LEFT JOIN products p ON p.id = oi.product_id
       WHERE oi.order_id = ? ORDER BY oi.id`,
    )
    .bind(orderId)
    .all<{ product_id: number; quantity: number; name_en: string; name_ar: string; bound: number | null }>();
  const name = (l: (typeof lines)[number]) => (lang === "ar" ? l.name_ar : l.name_en) || l.name_en;
  const available = lines.filter((l) => (l.bound ?? 0) > 0);
  const outcome: ReorderOutcome = {
    added: available.length,
    reduced: available.filter((l) => (l.bound ?? 0) < l.quantity).map(name),
    unavailable: lines.filter((l) => (l.bound ?? 0) <= 0).map(name),
  };
  if (!available.length) return outcome;
  const cartId = await ensureCartId(db, owner);
  await db.batch([
    ...available.map((l) =>
      db
        .prepare(
          `INSERT INTO cart_items (cart_id, product_id, quantity)
           SELECT ?1, p.id, MIN(?3, p.stock, p.max_per_order) FROM products p
           WHERE p.id = ?2 AND p.active = 1 AND MIN(?3, p.stock, p.max_per_order) > 0
           ON CONFLICT (cart_id, product_id) DO UPDATE SET quantity = MAX(cart_items.quantity, excluded.quantity)`,
        )
        .bind(cartId, l.product_id, l.quantity),
    ),
    db.prepare("UPDATE carts SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?").bind(cartId),
  ]);
  return outcome;
}

/** Sets the line's quantity; 0 removes the line. */
export async function updateCartQuantity(
  db: D1Database,
  owner: CartOwner,
  productId: number,
  quantity: number,
  lang: Lang,
): Promise<void> {
  if (quantity === 0) return removeProductFromCart(db, owner, productId);
  const cartId = await ensureCartId(db, owner);
  const upsert = db
    .prepare(
      `INSERT INTO cart_items (cart_id, product_id, quantity)
       SELECT ?1, p.id, ?3 FROM products p WHERE p.id = ?2 AND p.active = 1 AND ?3 <= MIN(p.stock, p.max_per_order)
       ON CONFLICT (cart_id, product_id) DO UPDATE SET quantity = excluded.quantity`,
    )
    .bind(cartId, productId, quantity);
  if (await writeWithinBound(db, upsert)) return touchCart(db, cartId);
  const bound = await productBound(db, productId);
  if (!bound) throw unknownProduct(lang);
  throw quantityRefused(lang, bound, 0);
}

export async function removeProductFromCart(db: D1Database, owner: CartOwner, productId: number): Promise<void> {
  const cartId = await findCartId(db, owner);
  if (cartId === null) return;
  await db.prepare("DELETE FROM cart_items WHERE cart_id = ? AND product_id = ?").bind(cartId, productId).run();
  await touchCart(db, cartId);
}

export async function setCartPromo(db: D1Database, owner: CartOwner, code: string | null): Promise<void> {
  // Removing a code from a cart that does not exist has nothing to do.
  const cartId = code === null ? await findCartId(db, owner) : await ensureCartId(db, owner);
  if (cartId === null) return;
  await db
    .prepare("UPDATE carts SET promo_code = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?")
    .bind(code, cartId)
    .run();
}

export interface CartContents {
  cartId: number | null;
  promoCode: string | null;
  lines: CartLine[];
  subtotal: number;
  currency: string;
  invalid: number[];
}

/** The raw lines and subtotal, without promo evaluation. */
export async function cartContents(db: D1Database, owner: CartOwner, lang: Lang): Promise<CartContents> {
  const cart = await db
    .prepare(`SELECT id, promo_code FROM carts WHERE ${ownerColumn(owner)} = ?`)
    .bind(ownerValue(owner))
    .first<{ id: number; promo_code: string | null }>();
  if (!cart) return { cartId: null, promoCode: null, lines: [], subtotal: 0, currency: "SAR", invalid: [] };
  const { results } = await db
    .prepare(
      `SELECT ci.product_id, ci.quantity, p.price, p.stock * p.active AS stock, p.max_per_order FROM cart_items ci
       JOIN products p ON p.id = ci.product_id WHERE ci.cart_id = ? ORDER BY ci.added_at, ci.product_id`,
    )
    .bind(cart.id)
    .all<{ product_id: number; quantity: number; price: number; stock: number; max_per_order: number }>();
  // The catalogue's own summaries, so a product looks the same in the cart as on its page.
  const summaries = new Map(
    (
      await productSummariesByIds(
        db,
        lang,
        results.map((r) => r.product_id),
      )
    ).map((p) => [p.id, p]),
  );
  const lines: CartLine[] = [];
  for (const row of results) {
    const product = summaries.get(row.product_id);
    if (product)
      lines.push({ product_id: row.product_id, quantity: row.quantity, product, line_total: row.price * row.quantity });
  }
  return {
    cartId: cart.id,
    promoCode: cart.promo_code,
    lines,
    subtotal: lines.reduce((sum, l) => sum + l.line_total, 0),
    currency: lines[0]?.product.currency ?? "SAR",
    invalid: results.filter((r) => r.quantity > Math.min(r.stock, r.max_per_order)).map((r) => r.product_id),
  };
}

/** The contract's Cart: lines, totals and the applied promo (when it still applies). */
export async function loadCart(db: D1Database, owner: CartOwner, lang: Lang): Promise<Cart> {
  const contents = await cartContents(db, owner, lang);
  let promo: AppliedPromo | null = null;
  if (contents.promoCode && contents.lines.length) {
    const evaluated = await evaluatePromo(db, contents.promoCode, contents.subtotal, owner, lang);
    if (evaluated.ok) promo = evaluated.promo;
  }
  const discount = promo?.discount ?? 0;
  return {
    products: contents.lines,
    total_quantity: contents.lines.reduce((sum, l) => sum + l.quantity, 0),
    subtotal: contents.subtotal,
    discount,
    total: Math.max(0, contents.subtotal - discount),
    currency: contents.currency,
    promo,
    invalid: contents.invalid,
  };
}

/** Empties the cart after a checkout (the lines became an order). */
export function clearCartStatement(db: D1Database, cartId: number): D1PreparedStatement {
  return db.prepare("DELETE FROM carts WHERE id = ?").bind(cartId);
}

/**
 * At login or register: the guest's lines move into the user's cart (quantities summed, capped
 * by stock and max_per_order; a line already above the bound keeps its quantity), the guest's
 * promo code carries over when the user has none, and the guest cart is deleted. One batch.
 * The orders this browser placed as a guest become the user's as well, so they show under the
 * user's orders (the guest id keeps seeing them too).
 */
export async function mergeGuestCart(db: D1Database, guestId: string, userId: number): Promise<void> {
  await db
    .prepare("UPDATE OR IGNORE orders SET user_id = ? WHERE guest_id = ? AND user_id IS NULL")
    .bind(userId, guestId)
    .run();
  const guest = await db
    .prepare("SELECT id, promo_code FROM carts WHERE guest_id = ?")
    .bind(guestId)
    .first<{ id: number; promo_code: string | null }>();
  if (!guest) return;
  const userCartId = await ensureCartId(db, { userId, guestId: null });
  await db.batch([
    db
      .prepare(
        `INSERT INTO cart_items (cart_id, product_id, quantity)
         SELECT ?1, gi.product_id, MIN(gi.quantity, p.stock, p.max_per_order)
         FROM cart_items gi JOIN products p ON p.id = gi.product_id
         WHERE gi.cart_id = ?2 AND p.active = 1 AND MIN(gi.quantity, p.stock, p.max_per_order) > 0
         ON CONFLICT (cart_id, product_id) DO UPDATE SET quantity = MAX(cart_items.quantity,
           MIN(cart_items.quantity + excluded.quantity, (SELECT MIN(stock, max_per_order) FROM products WHERE id = excluded.product_id)))`,
      )
      .bind(userCartId, guest.id),
    db
      .prepare(
        "UPDATE carts SET promo_code = COALESCE(promo_code, ?), updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
      )
      .bind(guest.promo_code, userCartId),
    db.prepare("DELETE FROM carts WHERE id = ?").bind(guest.id),
  ]);
}
