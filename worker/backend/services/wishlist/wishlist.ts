import type { Lang } from "../../env";
import { BackendError } from "../../http";
import { msg } from "../../messages";
import { say } from "../../../../contract/server/i18n";
import { randomToken, sha256Hex } from "../../../../contract/server/tokens";
import {
  MAX_WISHLIST,
  SHARE_TOKEN,
  type SharedWishlist,
  type Wishlist,
  type WishlistItem,
  type WishlistShare,
} from "../../../../contract/wishlist";
import { factsColumns, toFacts, type FactsRow } from "./facts";

/**
 * A signed-in shopper's wishlist (migration 0052): one row a product, with what it cost and
 * whether it was in stock when it was saved. Every statement is scoped by the caller's user id,
 * so no one reads or writes another's list; the share link is the only way in from outside, by a
 * random token of which only the hash is kept.
 */

interface ItemRow extends FactsRow {
  saved_at: string;
  saved_price: number;
  saved_in_stock: number;
}

const NOW_SQL = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** The list, newest first, with whether a share link is live. */
export async function readWishlist(db: D1Database, lang: Lang, userId: number): Promise<Wishlist> {
  const [items, share] = await db.batch([
    db
      .prepare(
        `SELECT ${factsColumns(lang)}, w.saved_at, w.saved_price, w.saved_in_stock
         FROM wishlist_items w JOIN products p ON p.id = w.product_id
         LEFT JOIN product_variants v ON v.id = w.variant_id
         WHERE w.user_id = ? ORDER BY w.saved_at DESC, w.product_id DESC`,
      )
      .bind(userId),
    db.prepare("SELECT 1 AS live FROM wishlist_shares WHERE user_id = ?").bind(userId),
  ]);
  return {
    items: (items.results as ItemRow[]).map((r): WishlistItem => ({
      ...toFacts(r, lang),
      saved_at: r.saved_at,
      saved_price: r.saved_price,
      saved_in_stock: r.saved_in_stock === 1,
    })),
    shared: share.results.length > 0,
  };
}

/**
 * One product's row, saved now (or at `savedAt`, the earlier of the two when it is already saved),
 * with its current price and stock, or those of the variant given when that variant is the
 * product's and still sold. Only a product on sale is saved, and only while the list is under
 * its cap (or already holds the product). `?1` user, `?2` slug, `?3` variant, `?4` saved time.
 */
const UPSERT = `
  INSERT INTO wishlist_items (user_id, product_id, variant_id, saved_at, saved_price, saved_in_stock)
  SELECT ?1, p.id, v.id, COALESCE(?4, ${NOW_SQL}), COALESCE(v.price, p.price), COALESCE(v.stock, p.stock) > 0
  FROM products p LEFT JOIN product_variants v ON v.id = ?3 AND v.product_id = p.id AND v.active = 1
  WHERE p.slug = ?2 AND p.active = 1
    AND ((SELECT COUNT(*) FROM wishlist_items WHERE user_id = ?1) < ${MAX_WISHLIST}
      OR EXISTS (SELECT 1 FROM wishlist_items WHERE user_id = ?1 AND product_id = p.id))
  ON CONFLICT (user_id, product_id) DO UPDATE SET
    saved_at = MIN(wishlist_items.saved_at, excluded.saved_at),
    variant_id = COALESCE(wishlist_items.variant_id, excluded.variant_id)`;

/** Saves a product (again: nothing changes). Refuses one not on sale, and a full list. */
export async function addToWishlist(
  db: D1Database,
  lang: Lang,
  userId: number,
  item: { slug: string; variant_id: number | null },
): Promise<Wishlist> {
  const [product, count] = await db.batch([
    db.prepare("SELECT id FROM products WHERE slug = ? AND active = 1").bind(item.slug),
    db.prepare("SELECT COUNT(*) AS n FROM wishlist_items WHERE user_id = ?").bind(userId),
  ]);
  const found = product.results[0] as { id: number } | undefined;
  if (!found) throw invalid(lang, "slug", msg("wishlist.unavailable"));
  const result = await db.prepare(UPSERT).bind(userId, item.slug, item.variant_id, null).run();
  if (result.meta.changes === 0 && (count.results[0] as { n: number }).n >= MAX_WISHLIST)
    throw invalid(lang, "slug", msg("wishlist.full", { max: MAX_WISHLIST }));
  return readWishlist(db, lang, userId);
}

export async function removeFromWishlist(db: D1Database, lang: Lang, userId: number, slug: string): Promise<Wishlist> {
  await db
    .prepare("DELETE FROM wishlist_items WHERE user_id = ? AND product_id = (SELECT id FROM products WHERE slug = ?)")
    .bind(userId, slug)
    .run();
  return readWishlist(db, lang, userId);
}

/**
 * A browser's list joined to the account's, in one batch: the union, each product keeping the
 * earlier saved time. Products no longer on sale are left out, and so are those past the cap
 * (the browser's first items, its newest, go in first).
 */
export async function mergeWishlist(
  db: D1Database,
  lang: Lang,
  userId: number,
  items: readonly { slug: string; variant_id: number | null; saved_at?: string }[],
): Promise<Wishlist> {
  const now = Date.now();
  const statements = items.map((item) => {
    // A time from the browser's clock: never later than now, and written as the rows' own format.
    const at = item.saved_at ? Math.min(Date.parse(item.saved_at), now) : now;
    return db.prepare(UPSERT).bind(userId, item.slug, item.variant_id, new Date(at).toISOString());
  });
  if (statements.length) await db.batch(statements);
  return readWishlist(db, lang, userId);
}

/** A new share link; the one before it stops working. */
export async function shareWishlist(db: D1Database, userId: number): Promise<WishlistShare> {
  const token = randomToken();
  await db
    .prepare(
      `INSERT INTO wishlist_shares (user_id, token_hash) VALUES (?1, ?2)
       ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = ${NOW_SQL}`,
    )
    .bind(userId, await sha256Hex(token))
    .run();
  return { token };
}

export async function revokeWishlistShare(db: D1Database, lang: Lang, userId: number): Promise<Wishlist> {
  await db.prepare("DELETE FROM wishlist_shares WHERE user_id = ?").bind(userId).run();
  return readWishlist(db, lang, userId);
}

/**
 * The list behind a share link, or null for an unknown, revoked or malformed token: the products
 * still on sale as they are now, and the owner's first name, nothing else of theirs.
 */
export async function sharedWishlist(db: D1Database, lang: Lang, token: string): Promise<SharedWishlist | null> {
  if (!SHARE_TOKEN.test(token)) return null;
  const owner = await db
    .prepare("SELECT s.user_id, u.name FROM wishlist_shares s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?")
    .bind(await sha256Hex(token))
    .first<{ user_id: number; name: string }>();
  if (!owner) return null;
  const { items } = await readWishlist(db, lang, owner.user_id);
  const first = owner.name.trim().split(/\s+/)[0] ?? "";
  return {
    owner: first ? first.slice(0, 40) : null,
    items: items
      .filter((i) => i.available)
      .map(({ saved_at: _at, saved_price: _price, saved_in_stock: _stock, ...facts }) => facts),
  };
}

function invalid(lang: Lang, field: string, text: ReturnType<typeof msg>): BackendError {
  const said = say(lang, text);
  return new BackendError(422, said, { [field]: [said] });
}
