import type { Env, Lang } from "../../env";
import type { CartOwner } from "../../identity";
import type { CartRestored } from "../../../../contract/cart-reminders";
import { ensureCartId, raiseLineTo } from "../orders/cart";
import { releaseExpiredReservations } from "../orders/reservations";
import { commerceSettings, loadSettings } from "../shared/settings";
import { sha256Hex } from "./tokens";

/**
 * A reminder's link (`/{locale}/cart/restore/{token}`): the reminded cart's lines, quantities,
 * variants and promo code into the visitor's own cart, in any browser. The token is the only key,
 * so it is 256 random bits, stored as its SHA-256, good while the reminded cart lives; it reveals
 * nothing of the cart's owner or contact. Using it again restores again (a line already in the
 * visitor's cart is raised to the reminded quantity, never added on top).
 *
 * The promo code: the operator's offer when one is set and still active, else the reminded
 * cart's own. Lines no longer sold or out of stock are named, and lines short of stock reduced.
 * Null when the token names no living reminded cart.
 */
export async function restoreCart(
  env: Pick<Env, "DB" | "GUEST_CART_DAYS">,
  owner: CartOwner,
  token: string,
  lang: Lang,
): Promise<CartRestored | null> {
  const db = env.DB;
  const lifeDays = commerceSettings(env).guestCartDays;
  const source = await db
    .prepare(
      `SELECT r.id AS reminder_id, c.id AS cart_id, c.promo_code FROM cart_reminders r JOIN carts c ON c.id = r.cart_id
       WHERE r.token_hash = ? AND r.created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)`,
    )
    .bind(await sha256Hex(token), `-${lifeDays} days`)
    .first<{ reminder_id: number; cart_id: number; promo_code: string | null }>();
  if (!source) return null;
  await releaseExpiredReservations(db);
  const { results: lines } = await db
    .prepare(
      `SELECT ci.variant_id, ci.quantity, p.name_en, p.name_ar,
              CASE WHEN p.active = 1 AND v.active = 1 THEN MIN(v.stock, v.max_per_order) ELSE 0 END AS bound
       FROM cart_items ci JOIN product_variants v ON v.id = ci.variant_id JOIN products p ON p.id = ci.product_id
       WHERE ci.cart_id = ? ORDER BY ci.added_at, ci.variant_id`,
    )
    .bind(source.cart_id)
    .all<{ variant_id: number; quantity: number; name_en: string; name_ar: string; bound: number }>();
  const name = (l: (typeof lines)[number]) => (lang === "ar" ? l.name_ar : l.name_en) || l.name_en;
  const available = lines.filter((l) => l.bound > 0);
  const offer = (await loadSettings(env)).cart_reminders.promo_code;
  const offered = offer
    ? await db
        .prepare(
          `SELECT code FROM promo_codes WHERE code = ? AND active = 1
             AND (ends_at IS NULL OR ends_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
        )
        .bind(offer)
        .first<string>("code")
    : null;
  const promo = offered ?? source.promo_code;
  const target = await ensureCartId(db, owner);
  if (target !== source.cart_id) {
    await db.batch([
      ...available.map((l) => raiseLineTo(db, target, l.variant_id, l.quantity)),
      db
        .prepare(
          "UPDATE carts SET promo_code = COALESCE(?, promo_code), updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
        )
        .bind(promo, target),
      // An order from this cart counts as the reminder's, and ends the reminded cart's reminders.
      db
        .prepare(
          "INSERT INTO cart_restores (cart_id, reminder_id) VALUES (?1, ?2) ON CONFLICT (cart_id) DO UPDATE SET reminder_id = ?2",
        )
        .bind(target, source.reminder_id),
    ]);
  } else if (offered && offered !== source.promo_code) {
    await db.prepare("UPDATE carts SET promo_code = ? WHERE id = ?").bind(offered, target).run();
  }
  return {
    restored: available.length,
    reduced: available.filter((l) => l.bound < l.quantity).map(name),
    unavailable: lines.filter((l) => l.bound <= 0).map(name),
    promo_code: promo,
  };
}
