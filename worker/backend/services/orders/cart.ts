import type { Lang } from "../../env";
import { type BackendError, unprocessable } from "../../http";
import { say } from "../../../../contract/server/i18n";
import type { CartOwner } from "../../identity";
import type { ProductSummary } from "../../../../contract/catalogue";
import { productSummariesByIds } from "../catalogue/product";
import { parseJson } from "../catalogue/summary";
import { evaluatePromo, type AppliedPromo } from "./promo";
import { releaseExpiredReservations } from "./reservations";
import type { Cart, CartLine } from "../../../../contract/cart";
import { msg } from "../../messages";
import { chosenVariantSql, variantTitles } from "../catalogue/variants";

export type { ProductSummary };

/**
 * Carts for guests (by a known guest id) and signed-in users. A line is one variant of a product
 * (the product's only one when the caller names none); its quantity is bounded by the variant's
 * stock and per-order maximum, checked inside the SQL statement that writes the line, so
 * concurrent adds can never push a line past it.
 */

/** The product and, when it has several, the chosen variant a line change names. */
export interface LineTarget {
  productId: number;
  variantId?: number | null;
}

/** The sellable variant a target means, as SQL over `v` with ?2 the product and ?4 the variant. */
const SELLABLE = `FROM product_variants v JOIN products p ON p.id = v.product_id
  WHERE v.id = ${chosenVariantSql("?2", "?4")} AND v.product_id = ?2 AND p.active = 1 AND v.active = 1`;

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

interface Bound {
  id: number;
  stock: number;
  max_per_order: number;
}

async function variantBound(db: D1Database, target: LineTarget): Promise<Bound | null> {
  return db
    .prepare(`SELECT v.id, v.stock, v.max_per_order ${SELLABLE}`)
    .bind(null, target.productId, null, target.variantId ?? null)
    .first<Bound>();
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

/** The 422 for a target that sells nothing: an unknown product, or one of several variants without a choice. */
async function unknownTarget(db: D1Database, target: LineTarget, lang: Lang): Promise<BackendError> {
  if (target.variantId == null) {
    const several = await db
      .prepare(
        "SELECT COUNT(*) AS n FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.id = ? AND p.active = 1 AND v.active = 1",
      )
      .bind(target.productId)
      .first<{ n: number }>();
    if ((several?.n ?? 0) > 1) {
      const message = say(lang, msg("orders.cart.chooseVariant"));
      return unprocessable({ variant_id: [message] }, message);
    }
  }
  const message = say(lang, msg("orders.cart.unknownProduct"));
  return unprocessable({ [target.variantId == null ? "product_id" : "variant_id"]: [message] }, message);
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
 * Adds `quantity` to the variant's line. One statement: the insert or the increment only happens
 * when the resulting quantity is within min(stock, max_per_order), so 50 concurrent adds give
 * exactly the total the bound allows.
 */
export async function addProductToCart(
  db: D1Database,
  owner: CartOwner,
  target: LineTarget,
  quantity: number,
  lang: Lang,
): Promise<void> {
  const cartId = await ensureCartId(db, owner);
  const upsert = db
    .prepare(
      `INSERT INTO cart_items (cart_id, variant_id, product_id, quantity)
       SELECT ?1, v.id, v.product_id, ?3 ${SELLABLE} AND ?3 <= MIN(v.stock, v.max_per_order)
       ON CONFLICT (cart_id, variant_id) DO UPDATE SET quantity = cart_items.quantity + excluded.quantity
       WHERE cart_items.quantity + excluded.quantity <= (SELECT MIN(stock, max_per_order) FROM product_variants WHERE id = excluded.variant_id AND active = 1)`,
    )
    .bind(cartId, target.productId, quantity, target.variantId ?? null);
  if (await writeWithinBound(db, upsert)) return touchCart(db, cartId);
  const bound = await variantBound(db, target);
  if (!bound) throw await unknownTarget(db, target, lang);
  const current = await db
    .prepare("SELECT quantity FROM cart_items WHERE cart_id = ? AND variant_id = ?")
    .bind(cartId, bound.id)
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
 * One line of another cart or order brought into `cartId`: at `quantity` as far as stock and the
 * per-order limit allow now, a line already there raised to it and never added on top (bringing
 * it twice does not double it), nothing for a variant no longer sold. For a batch.
 */
export function raiseLineTo(db: D1Database, cartId: number, variantId: number, quantity: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO cart_items (cart_id, variant_id, product_id, quantity)
       SELECT ?1, v.id, v.product_id, MIN(?3, v.stock, v.max_per_order)
       FROM product_variants v JOIN products p ON p.id = v.product_id
       WHERE v.id = ?2 AND p.active = 1 AND v.active = 1 AND MIN(?3, v.stock, v.max_per_order) > 0
       ON CONFLICT (cart_id, variant_id) DO UPDATE SET quantity = MAX(cart_items.quantity, excluded.quantity)`,
    )
    .bind(cartId, variantId, quantity);
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
      `SELECT oi.variant_id, oi.quantity, oi.name_en, oi.name_ar,
              CASE WHEN p.active = 1 AND v.active = 1 THEN MIN(v.stock, v.max_per_order) ELSE 0 END AS bound
       FROM order_items oi LEFT JOIN product_variants v ON v.id = oi.variant_id LEFT JOIN products p ON p.id = v.product_id
       WHERE oi.order_id = ? ORDER BY oi.id`,
    )
    .bind(orderId)
    .all<{ variant_id: number; quantity: number; name_en: string; name_ar: string; bound: number | null }>();
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
    ...available.map((l) => raiseLineTo(db, cartId, l.variant_id, l.quantity)),
    db.prepare("UPDATE carts SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?").bind(cartId),
  ]);
  return outcome;
}

/** Sets the line's quantity; 0 removes the line. */
export async function updateCartQuantity(
  db: D1Database,
  owner: CartOwner,
  target: LineTarget,
  quantity: number,
  lang: Lang,
): Promise<void> {
  if (quantity === 0) return removeProductFromCart(db, owner, target);
  const cartId = await ensureCartId(db, owner);
  const upsert = db
    .prepare(
      `INSERT INTO cart_items (cart_id, variant_id, product_id, quantity)
       SELECT ?1, v.id, v.product_id, ?3 ${SELLABLE} AND ?3 <= MIN(v.stock, v.max_per_order)
       ON CONFLICT (cart_id, variant_id) DO UPDATE SET quantity = excluded.quantity`,
    )
    .bind(cartId, target.productId, quantity, target.variantId ?? null);
  if (await writeWithinBound(db, upsert)) return touchCart(db, cartId);
  const bound = await variantBound(db, target);
  if (!bound) throw await unknownTarget(db, target, lang);
  throw quantityRefused(lang, bound, 0);
}

/**
 * Removes the variant's line; without a variant, every line of the product (the spec's remove
 * names only a product, and a product of one variant has one line).
 */
export async function removeProductFromCart(db: D1Database, owner: CartOwner, target: LineTarget): Promise<void> {
  const cartId = await findCartId(db, owner);
  if (cartId === null) return;
  await db
    .prepare("DELETE FROM cart_items WHERE cart_id = ?1 AND product_id = ?2 AND (?3 IS NULL OR variant_id = ?3)")
    .bind(cartId, target.productId, target.variantId ?? null)
    .run();
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

interface VariantLineRow {
  product_id: number;
  variant_id: number;
  quantity: number;
  sku: string;
  price: number;
  compare_at_price: number | null;
  stock: number;
  max_per_order: number;
  images: string;
}

/** The product as this variant sells it: its price, stock, limit, SKU and, when it has its own, image. */
function asVariant(product: ProductSummary, row: VariantLineRow): ProductSummary {
  const images = parseJson<string[]>(row.images, []).filter((i) => typeof i === "string");
  return {
    ...product,
    sku: row.sku,
    price: row.price,
    compare_at_price: row.compare_at_price,
    stock: row.stock,
    in_stock: row.stock > 0,
    max_per_order: row.max_per_order,
    ...(images.length ? { image: images[0], images } : {}),
  };
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
      `SELECT ci.product_id, ci.variant_id, ci.quantity, v.sku, v.price, v.compare_at_price,
              v.stock * p.active * v.active AS stock, v.max_per_order, v.images
       FROM cart_items ci JOIN product_variants v ON v.id = ci.variant_id JOIN products p ON p.id = ci.product_id
       WHERE ci.cart_id = ? ORDER BY ci.added_at, ci.variant_id`,
    )
    .bind(cart.id)
    .all<VariantLineRow>();
  // The catalogue's own summaries, so a product looks the same in the cart as on its page, with
  // what the chosen variant sells it for.
  const [summaryList, titles] = await Promise.all([
    productSummariesByIds(
      db,
      lang,
      results.map((r) => r.product_id),
    ),
    variantTitles(
      db,
      results.map((r) => r.variant_id),
    ),
  ]);
  const summaries = new Map(summaryList.map((p) => [p.id, p]));
  const lines: CartLine[] = [];
  for (const row of results) {
    const product = summaries.get(row.product_id);
    if (!product) continue;
    const chosen = titles.get(row.variant_id);
    const title = chosen?.[lang === "ar" ? "ar" : "en"] ?? "";
    lines.push({
      product_id: row.product_id,
      variant_id: row.variant_id,
      variant: title || null,
      options: chosen?.options ?? {},
      quantity: row.quantity,
      product: asVariant(product, row),
      line_total: row.price * row.quantity,
    });
  }
  return {
    cartId: cart.id,
    promoCode: cart.promo_code,
    lines,
    subtotal: lines.reduce((sum, l) => sum + l.line_total, 0),
    currency: lines[0]?.product.currency ?? "SAR",
    invalid: results.filter((r) => r.quantity > Math.min(r.stock, r.max_per_order)).map((r) => r.variant_id),
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
        `INSERT INTO cart_items (cart_id, variant_id, product_id, quantity)
         SELECT ?1, gi.variant_id, gi.product_id, MIN(gi.quantity, v.stock, v.max_per_order)
         FROM cart_items gi JOIN product_variants v ON v.id = gi.variant_id JOIN products p ON p.id = gi.product_id
         WHERE gi.cart_id = ?2 AND p.active = 1 AND v.active = 1 AND MIN(gi.quantity, v.stock, v.max_per_order) > 0
         ON CONFLICT (cart_id, variant_id) DO UPDATE SET quantity = MAX(cart_items.quantity,
           MIN(cart_items.quantity + excluded.quantity, (SELECT MIN(stock, max_per_order) FROM product_variants WHERE id = excluded.variant_id)))`,
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
