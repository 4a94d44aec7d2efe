import type { Lang } from "../../env";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import type { CartOwner } from "../../identity";
import { normalizePhone } from "../../../../contract/inputs";
import type { CartPromo } from "../../../../contract/cart";
import { msg } from "../../messages";

/**
 * Promo codes: discount type 1 is a percentage (the default), 2 a fixed amount in halalas.
 * A code applies within its dates, from its minimum order, while its usage limit and the
 * customer's per-user limit allow. A code with a per-user limit is for signed-in customers with a
 * verified account only (one whose email or phone has answered a code): a guest id, an email and
 * an unverified account cost nothing to make. Its uses are counted per account, per checkout email
 * and per delivery phone, so a second account delivering to the same phone is the same customer.
 */

export const DISCOUNT_PERCENT = 1;
export const DISCOUNT_FIXED = 2;

/** A code applied to a cart: the contract's `CartPromo`. */
export type AppliedPromo = CartPromo;

export interface PromoRow {
  id: number;
  code: string;
  discount_type: 1 | 2;
  value: number;
  max_discount: number | null;
  starts_at: string | null;
  ends_at: string | null;
  min_order: number;
  usage_limit: number | null;
  per_user_limit: number | null;
  used_count: number;
  active: number;
}

export type PromoEvaluation =
  { ok: true; promo: AppliedPromo; row: PromoRow } | { ok: false; message: string; reason: PromoRefusal };

export type PromoRefusal =
  | "unknown"
  | "not_started"
  | "expired"
  | "below_minimum"
  | "used_up"
  | "per_user"
  | "sign_in"
  | "verify"
  | "empty_cart";

const MESSAGES: Record<PromoRefusal, Bilingual> = {
  unknown: msg("orders.promo.unknown"),
  not_started: msg("orders.promo.notStarted"),
  expired: msg("orders.promo.expired"),
  below_minimum: msg("orders.promo.belowMinimum"),
  used_up: msg("orders.promo.usedUp"),
  per_user: msg("orders.promo.perUser"),
  sign_in: msg("orders.promo.signIn"),
  verify: msg("orders.promo.verify"),
  empty_cart: msg("orders.promo.emptyCart"),
};

export function promoMessage(lang: Lang, reason: PromoRefusal, minOrder = 0): string {
  return say(lang, MESSAGES[reason], { amount: (minOrder / 100).toFixed(minOrder % 100 === 0 ? 0 : 2) });
}

/** The discount a code gives on a subtotal, never more than the subtotal. */
export function discountFor(row: Pick<PromoRow, "discount_type" | "value" | "max_discount">, subtotal: number): number {
  const raw = row.discount_type === DISCOUNT_FIXED ? row.value : Math.floor((subtotal * row.value) / 100);
  const capped = row.max_discount !== null ? Math.min(raw, row.max_discount) : raw;
  return Math.max(0, Math.min(capped, subtotal));
}

export async function findPromo(db: D1Database, code: string): Promise<PromoRow | null> {
  return db.prepare("SELECT * FROM promo_codes WHERE code = ? COLLATE NOCASE").bind(code.trim()).first<PromoRow>();
}

/**
 * A delivery phone as the per-customer count compares it: digits only, without the international
 * prefix, a Saudi national number (0 then the number, or a bare 9-digit mobile) with 966 in front,
 * so "+966 51 234 5678", "00966512345678" and "0512345678" are one phone. Migration 0026 writes
 * the same key in SQL for redemptions made before it.
 */
export function promoPhoneKey(phone: string | null | undefined): string | null {
  if (!phone) return null;
  let digits = normalizePhone(phone).replace(/^\+/, "");
  if (digits.startsWith("00")) digits = digits.slice(2);
  if (/^0[1-9]/.test(digits)) digits = `966${digits.slice(1)}`;
  else if (/^5\d{8}$/.test(digits)) digits = `966${digits}`;
  return digits || null;
}

/**
 * Whether the signed-in customer's account is verified, and how often the customer has redeemed
 * the code: by account, by the checkout email (case-insensitive, the column is NOCASE) or by the
 * delivery phone's key. The same rule guards the order batch itself (redeemPromoStatements).
 */
async function customerUses(
  db: D1Database,
  promoId: number,
  userId: number,
  email?: string,
  phone?: string | null,
): Promise<{ verified: boolean; uses: number }> {
  const row = await db
    .prepare(
      `SELECT u.verified_at IS NOT NULL AS verified,
         (SELECT COUNT(*) FROM promo_redemptions WHERE promo_id = ?1 AND (user_id = ?2 OR email = ?3 COLLATE NOCASE OR phone = ?4)) AS n
       FROM users u WHERE u.id = ?2`,
    )
    .bind(promoId, userId, email ?? null, promoPhoneKey(phone))
    .first<{ verified: number; n: number }>();
  return { verified: row?.verified === 1, uses: row?.n ?? 0 };
}

/**
 * Checks every rule in a fixed order and answers the first refusal, or the discount. An empty
 * cart is refused before the code is even looked up, so it answers the same for any code and
 * cannot be used to tell real codes from made-up ones.
 */
export async function evaluatePromo(
  db: D1Database,
  code: string,
  subtotal: number,
  owner: CartOwner,
  lang: Lang,
  email?: string,
  phone?: string | null,
): Promise<PromoEvaluation> {
  const refuse = (reason: PromoRefusal, minOrder = 0): PromoEvaluation => ({
    ok: false,
    reason,
    message: promoMessage(lang, reason, minOrder),
  });
  if (subtotal <= 0) return refuse("empty_cart");
  const row = await findPromo(db, code);
  if (!row || row.active !== 1) return refuse("unknown");
  const now = new Date().toISOString();
  if (row.starts_at && now < row.starts_at) return refuse("not_started");
  if (row.ends_at && now > row.ends_at) return refuse("expired");
  if (row.usage_limit !== null && row.used_count >= row.usage_limit) return refuse("used_up");
  if (row.per_user_limit !== null) {
    if (owner.userId === null) return refuse("sign_in");
    const customer = await customerUses(db, row.id, owner.userId, email, phone);
    if (!customer.verified) return refuse("verify");
    if (customer.uses >= row.per_user_limit) return refuse("per_user");
  }
  if (subtotal < row.min_order) return refuse("below_minimum", row.min_order);
  return {
    ok: true,
    row,
    promo: { code: row.code, discount_type: row.discount_type, discount: discountFor(row, subtotal), value: row.value },
  };
}

/**
 * The statements checkout adds to its batch when an order uses a code: the count goes up (the
 * table's CHECK aborts the batch if a concurrent checkout took the last use) and the redemption
 * is recorded. The redemption row is also the per-customer guard: `within_limit` is computed in
 * the INSERT from the redemptions already there (by account, email or delivery phone), and its
 * CHECK (promo_per_customer, migration 0008) aborts the batch when the customer is at the limit,
 * is a guest, or has an unverified account, for a code that has one. The check before the batch
 * only gives the friendly message.
 */
export function redeemPromoStatements(
  db: D1Database,
  promoId: number,
  orderNumber: string,
  owner: CartOwner,
  email: string,
  phone: string | null,
): D1PreparedStatement[] {
  return [
    db.prepare("UPDATE promo_codes SET used_count = used_count + 1 WHERE id = ?").bind(promoId),
    db
      .prepare(
        `INSERT INTO promo_redemptions (promo_id, order_id, user_id, guest_id, email, phone, within_limit)
         SELECT p.id, o.id, ?2, ?3, ?4, ?6,
           p.per_user_limit IS NULL OR (
             (SELECT verified_at FROM users WHERE id = ?2) IS NOT NULL AND (
               SELECT COUNT(*) FROM promo_redemptions r
               WHERE r.promo_id = p.id AND (r.user_id = ?2 OR r.email = ?4 COLLATE NOCASE OR r.phone = ?6)
             ) < p.per_user_limit)
         FROM orders o JOIN promo_codes p ON p.id = ?1 WHERE o.number = ?5`,
      )
      .bind(promoId, owner.userId, owner.guestId, email, orderNumber, promoPhoneKey(phone)),
  ];
}

/** True for the CHECK failure of the per-customer guard in `redeemPromoStatements`. */
export function isPerCustomerLimit(err: unknown): boolean {
  const text = String(err instanceof Error ? `${err.message} ${String(err.cause ?? "")}` : err);
  return /CHECK constraint failed/i.test(text) && /promo_per_customer|within_limit/i.test(text);
}

/** Gives a use back when an order that redeemed the code is cancelled. */
export function releasePromoStatements(db: D1Database, orderId: number): D1PreparedStatement[] {
  return [
    db
      .prepare(
        "UPDATE promo_codes SET used_count = used_count - 1 WHERE id IN (SELECT promo_id FROM promo_redemptions WHERE order_id = ?) AND used_count > 0",
      )
      .bind(orderId),
    db.prepare("DELETE FROM promo_redemptions WHERE order_id = ?").bind(orderId),
  ];
}
