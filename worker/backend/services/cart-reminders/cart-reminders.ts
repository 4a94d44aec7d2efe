import type { Env, Lang } from "../../env";
import type { CartOwner } from "../../identity";
import type { CartContactInput } from "../../../../contract/cart-reminders";
import { RECOVERY_DAYS, restorePath } from "../../../../contract/cart-reminders";
import type { CartRemindersSettings } from "../../../../contract/settings";
import { publicOrigin } from "../../../../contract/server/public-origin";
import { say } from "../../../../contract/server/i18n";
import { msg } from "../../messages";
import { consentedSql, consentStatement } from "../consents/consents";
import { cancelShopperMessagesStatement, shopperMessageStatement } from "../messages/shopper-messages";
import { recipientHash } from "../messages/unsubscribe";
import { formatAmount } from "../messages/notifications";
import { ensureCartId, findCartId } from "../orders/cart";
import { commerceSettings, loadSettings } from "../shared/settings";
import { sha256Hex } from "./tokens";

/**
 * Reminders about a cart left at checkout (docs/OPERATIONS.md "Cart reminders").
 *
 * - Asking: a guest's yes at checkout is recorded in the consent log under their address's keyed
 *   hash, with the address on the cart (`cart_contacts`); a signed-in shopper's is their
 *   account's, and the reminder goes to the account's address.
 * - Reminding: the cron's `cartReminders` part owes a cart its first reminder once it has been
 *   left unchanged for the first delay, and its second once unchanged for the second, each through
 *   the shopper outbox, pushed past the quiet hours. At most two for the same contents: a cart whose
 *   lines change starts over, one that is changed back to what was reminded does not.
 * - Stopping: an order from the cart (or from a cart its link filled) cancels what is queued and
 *   ends its reminders; so does a withdrawn yes, and the message's stop link (which records the
 *   withdrawal too: services/messages/unsubscribe.ts).
 */

const HOUR_MS = 3_600_000;
/** Riyadh keeps UTC+3 all year (no daylight saving): the shop's clock is a fixed offset. */
const SHOP_OFFSET_HOURS = 3;

/** The outbox key of a cart's reminders starts so: cancelled together by it. */
export const reminderKeyPrefix = (cartId: number) => `cart_reminder:${cartId}:`;

/**
 * The visitor's answer at checkout, for their cart. A guest's is kept under their address's keyed
 * hash with the address on the cart (a no removes the address); a signed-in shopper's is their
 * account's. A no also cancels what the cart has queued. One batch.
 */
export async function setCartContact(
  env: Pick<Env, "DB" | "AUTH_PEPPER" | "ENVIRONMENT">,
  owner: CartOwner,
  input: CartContactInput,
  lang: Lang,
  siteOrigin: string | null,
): Promise<boolean> {
  const db = env.DB;
  const decision = { purpose: "cart_reminders" as const, granted: input.consent, lang, source: "checkout" as const };
  if (owner.userId !== null) {
    // The account's address, kept on the cart with the language and site asked in; the sweep
    // still reads the account's address as it is then.
    const account = await db
      .prepare("SELECT email, phone FROM users WHERE id = ?")
      .bind(owner.userId)
      .first<{ email: string | null; phone: string | null }>();
    const address = account?.email || account?.phone || null;
    const cartId = await ensureCartId(db, owner);
    await db.batch([
      consentStatement(db, { userId: owner.userId }, decision),
      ...(input.consent && address
        ? [
            contactStatement(
              db,
              cartId,
              account?.email ? "email" : "sms",
              address,
              await recipientHash(env, address),
              lang,
              siteOrigin,
            ),
          ]
        : [
            db.prepare("DELETE FROM cart_contacts WHERE cart_id = ?").bind(cartId),
            cancelShopperMessagesStatement(db, reminderKeyPrefix(cartId)),
          ]),
    ]);
    return input.consent;
  }
  const recipient = input.email || input.phone;
  const cartId = await ensureCartId(db, owner);
  if (!recipient) {
    // No address to ask about: a no withdraws the one the cart has; a yes names none.
    const kept = await db
      .prepare("SELECT recipient_hash FROM cart_contacts WHERE cart_id = ?")
      .bind(cartId)
      .first<string>("recipient_hash");
    await db.batch([
      ...(kept ? [consentStatement(db, { recipientHash: kept }, { ...decision, granted: false })] : []),
      db.prepare("DELETE FROM cart_contacts WHERE cart_id = ?").bind(cartId),
      cancelShopperMessagesStatement(db, reminderKeyPrefix(cartId)),
    ]);
    return false;
  }
  const hash = await recipientHash(env, recipient);
  await db.batch([
    consentStatement(db, { recipientHash: hash }, decision),
    input.consent
      ? contactStatement(db, cartId, input.email ? "email" : "sms", recipient, hash, lang, siteOrigin)
      : db.prepare("DELETE FROM cart_contacts WHERE cart_id = ?").bind(cartId),
    ...(input.consent ? [] : [cancelShopperMessagesStatement(db, reminderKeyPrefix(cartId))]),
  ]);
  return input.consent;
}

function contactStatement(
  db: D1Database,
  cartId: number,
  channel: "email" | "sms",
  recipient: string,
  hash: string,
  lang: Lang,
  siteOrigin: string | null,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO cart_contacts (cart_id, channel, recipient, recipient_hash, lang, site_origin) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (cart_id) DO UPDATE SET channel = ?2, recipient = ?3, recipient_hash = ?4, lang = ?5, site_origin = ?6`,
    )
    .bind(cartId, channel, recipient.trim().toLowerCase(), hash, lang, siteOrigin);
}

/** An account withdrew its yes (the profile): what its cart has queued is cancelled. */
export async function cancelAccountReminders(db: D1Database, userId: number): Promise<void> {
  const cartId = await findCartId(db, { userId, guestId: null });
  if (cartId !== null) await cancelShopperMessagesStatement(db, reminderKeyPrefix(cartId)).run();
}

/** Whether `at` falls in the quiet hours; if so, the end of them, else `at`. Shop time. */
export function afterQuietHours(at: Date, settings: Pick<CartRemindersSettings, "quiet_start" | "quiet_end">): Date {
  const { quiet_start: start, quiet_end: end } = settings;
  if (start === end) return at;
  const shop = new Date(at.getTime() + SHOP_OFFSET_HOURS * HOUR_MS);
  const hour = shop.getUTCHours();
  const quiet = start < end ? hour >= start && hour < end : hour >= start || hour < end;
  if (!quiet) return at;
  const endOfQuiet = new Date(shop);
  endOfQuiet.setUTCHours(end, 0, 0, 0);
  if (endOfQuiet.getTime() <= shop.getTime()) endOfQuiet.setUTCDate(endOfQuiet.getUTCDate() + 1);
  return new Date(endOfQuiet.getTime() - SHOP_OFFSET_HOURS * HOUR_MS);
}

interface Candidate {
  cart_id: number;
  user_id: number | null;
  created_at: string;
  updated_at: string;
  promo_code: string | null;
  recipient: string | null;
  channel: "email" | "sms";
  recipient_hash: string | null;
  lang: Lang;
  site_origin: string | null;
}

interface ReminderLine {
  cart_id: number;
  variant_id: number;
  quantity: number;
  price: number;
  name: string;
}

const BATCH = 100;
/** Reminders one address gets in a day at most, across every cart that names it. */
export const RECIPIENT_DAILY = 2;

/** A cart's lines as one comparable text: which variants, how many of each. */
const contentsOf = (lines: ReminderLine[]) =>
  lines
    .map((l) => `${l.variant_id}x${l.quantity}`)
    .sort()
    .join(",");

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The cron's part: the reminders carts now owe, written to the shopper outbox with their restore
 * links. Returns how many were written.
 */
export async function owedCartReminders(
  env: Pick<Env, "DB" | "PUBLIC_ORIGIN" | "ENVIRONMENT" | "GUEST_CART_DAYS" | "AUTH_PEPPER">,
  now = new Date(),
): Promise<number> {
  const db = env.DB;
  const settings = (await loadSettings(env)).cart_reminders;
  if (!settings.enabled) return 0;
  const iso = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR_MS).toISOString();
  const lifeHours = commerceSettings(env).guestCartDays * 24;
  const guestConsented = `(SELECT granted FROM consents WHERE recipient_hash = cc.recipient_hash AND purpose = 'cart_reminders' ORDER BY id DESC LIMIT 1) = 1`;
  const { results: carts } = await db
    .prepare(
      `SELECT c.id AS cart_id, c.user_id, c.created_at, c.updated_at, c.promo_code,
         CASE WHEN c.user_id IS NULL THEN cc.recipient ELSE COALESCE(u.email, u.phone) END AS recipient,
         CASE WHEN c.user_id IS NULL THEN cc.channel WHEN u.email IS NOT NULL THEN 'email' ELSE 'sms' END AS channel,
         CASE WHEN c.user_id IS NULL THEN cc.recipient_hash END AS recipient_hash,
         COALESCE(cc.lang, (SELECT lang FROM consents WHERE user_id = c.user_id AND purpose = 'cart_reminders' ORDER BY id DESC LIMIT 1), 'en') AS lang,
         cc.site_origin
       FROM carts c LEFT JOIN cart_contacts cc ON cc.cart_id = c.id LEFT JOIN users u ON u.id = c.user_id
       WHERE c.updated_at <= ?1 AND c.updated_at > ?2
         AND EXISTS (SELECT 1 FROM cart_items WHERE cart_id = c.id)
         AND CASE WHEN c.user_id IS NULL THEN cc.cart_id IS NOT NULL AND ${guestConsented}
             ELSE ${consentedSql("c.user_id", "cart_reminders")} END
         AND NOT EXISTS (SELECT 1 FROM cart_reminders r JOIN cart_recoveries rc ON rc.reminder_id = r.id WHERE r.cart_id = c.id)
         AND (SELECT COUNT(*) FROM cart_reminders r WHERE r.cart_id = c.id AND r.created_at >= c.updated_at) < 2
       ORDER BY c.updated_at DESC LIMIT ${BATCH}`,
    )
    .bind(iso(settings.first_delay_hours), iso(lifeHours))
    .all<Candidate>();
  const reachable = carts.filter((c) => c.recipient);
  if (!reachable.length) return 0;
  const ids = reachable.map((c) => c.cart_id);
  const marks = ids.map(() => "?").join(",");
  const [lineRows, reminderRows] = await db.batch([
    db
      .prepare(
        `SELECT ci.cart_id, ci.variant_id, ci.quantity, v.price, p.name_en, p.name_ar
         FROM cart_items ci JOIN product_variants v ON v.id = ci.variant_id JOIN products p ON p.id = ci.product_id
         WHERE ci.cart_id IN (${marks}) ORDER BY ci.added_at, ci.variant_id`,
      )
      .bind(...ids),
    db.prepare(`SELECT cart_id, contents, round FROM cart_reminders WHERE cart_id IN (${marks})`).bind(...ids),
  ]);
  // An address is reminded at most RECIPIENT_DAILY times a day, whatever carts name it: a guest's
  // address is not proved, so typing someone else's into many carts cannot flood them.
  const recipients = [...new Set(reachable.map((c) => c.recipient!))];
  const { results: counted } = await db
    .prepare(
      `SELECT recipient, COUNT(*) AS n FROM shopper_messages
       WHERE topic = 'cart_reminder' AND created_at > ? AND recipient IN (${recipients.map(() => "?").join(",")})
       GROUP BY recipient`,
    )
    .bind(iso(24), ...recipients)
    .all<{ recipient: string; n: number }>();
  const today = new Map(counted.map((r) => [r.recipient, r.n]));
  const lines = lineRows.results as (Omit<ReminderLine, "name"> & { name_en: string; name_ar: string })[];
  const reminders = reminderRows.results as { cart_id: number; contents: string; round: number }[];
  const due = afterQuietHours(now, settings).toISOString();
  const statements: D1PreparedStatement[] = [];
  for (const cart of reachable) {
    const own = lines
      .filter((l) => l.cart_id === cart.cart_id)
      .map((l) => ({ ...l, name: (cart.lang === "ar" ? l.name_ar : l.name_en) || l.name_en }));
    if (!own.length) continue;
    const contents = contentsOf(own);
    const rounds = new Set(
      reminders.filter((r) => r.cart_id === cart.cart_id && r.contents === contents).map((r) => r.round),
    );
    const left = now.getTime() - Date.parse(cart.updated_at);
    let round: 1 | 2 | null = null;
    if (!rounds.has(1)) round = 1;
    else if (!rounds.has(2) && settings.second_delay_hours > 0 && left >= settings.second_delay_hours * HOUR_MS)
      round = 2;
    if (round === null || (today.get(cart.recipient!) ?? 0) >= RECIPIENT_DAILY) continue;
    today.set(cart.recipient!, (today.get(cart.recipient!) ?? 0) + 1);
    const token = randomHex(32);
    // The same for the same cart, contents and round: a concurrent sweep's row and message are ignored.
    // The cart's creation in it too: a cart's id can be a deleted cart's.
    const key = `${reminderKeyPrefix(cart.cart_id)}${round}:${(await sha256Hex(`${cart.created_at}\n${contents}`)).slice(0, 16)}`;
    let origin: string;
    try {
      origin = publicOrigin(env, cart.site_origin);
    } catch {
      continue; // no origin to link to: a link elsewhere is worse than no reminder
    }
    const total = own.reduce((sum, l) => sum + l.price * l.quantity, 0);
    const offer = settings.promo_code
      ? say(cart.lang, msg("cartReminders.mail.offer"), { code: settings.promo_code })
      : "";
    statements.push(
      db
        .prepare(
          "INSERT OR IGNORE INTO cart_reminders (cart_id, round, contents, message_key, token_hash, user_id, recipient_hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(
          cart.cart_id,
          round,
          contents,
          key,
          await sha256Hex(token),
          cart.user_id,
          cart.recipient_hash ?? (await recipientHash(env, cart.recipient!)),
        ),
      shopperMessageStatement(db, {
        key,
        topic: "cart_reminder",
        channel: cart.channel,
        recipient: cart.recipient!,
        lang: cart.lang,
        params: {
          items: own.map((l) => `${l.quantity} × ${l.name}`).join(cart.lang === "ar" ? "، " : ", "),
          total: formatAmount(total, "SAR", cart.lang),
          offer,
          restoreUrl: `${origin}${restorePath(cart.lang, token)}`,
        },
        dueAt: due,
        siteOrigin: cart.site_origin,
      }),
    );
  }
  if (!statements.length) return 0;
  await db.batch(statements);
  return statements.length / 2;
}

/**
 * In the order's batch (services/orders/checkout.ts), before the cart is deleted: the order counts
 * as recovered when its cart (or the cart a reminder's link filled it from) was reminded within
 * RECOVERY_DAYS and that reminder was sent; and every reminder still queued for either cart is
 * cancelled, which ends them (a recovered cart is never reminded again).
 */
export function cartOrderedStatements(db: D1Database, cartId: number, orderNumber: string): D1PreparedStatement[] {
  const carts = `(SELECT ?2 UNION SELECT r.cart_id FROM cart_restores x JOIN cart_reminders r ON r.id = x.reminder_id WHERE x.cart_id = ?2)`;
  return [
    db
      .prepare(
        `INSERT OR IGNORE INTO cart_recoveries (order_id, reminder_id)
         SELECT (SELECT id FROM orders WHERE number = ?1), r.id
         FROM cart_reminders r JOIN shopper_messages m ON m.key = r.message_key AND m.status = 'sent'
         WHERE (r.cart_id = ?2 OR r.id = (SELECT reminder_id FROM cart_restores WHERE cart_id = ?2))
           AND m.sent_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${RECOVERY_DAYS} days')
         ORDER BY r.id DESC LIMIT 1`,
      )
      .bind(orderNumber, cartId),
    db
      .prepare(
        `UPDATE shopper_messages SET status = 'cancelled'
         WHERE status = 'queued' AND key IN (SELECT message_key FROM cart_reminders WHERE cart_id IN ${carts})`,
      )
      .bind(orderNumber, cartId),
  ];
}

/** The report's section: reminders sent in the period, and the orders placed in it they brought back. */
export async function cartRemindersReport(
  db: D1Database,
  start: string,
  end: string,
): Promise<{ sent: number; recovered: number; revenue: number }> {
  const [sent, recovered] = await db.batch<{ n: number; revenue?: number }>([
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM cart_reminders r JOIN shopper_messages m ON m.key = r.message_key
         WHERE m.status = 'sent' AND m.sent_at >= ?1 AND m.sent_at < ?2`,
      )
      .bind(start, end),
    db
      .prepare(
        `SELECT COUNT(*) AS n, COALESCE(SUM(o.total), 0) AS revenue FROM cart_recoveries rc JOIN orders o ON o.id = rc.order_id
         WHERE o.created_at >= ?1 AND o.created_at < ?2 AND o.status <> 'cancelled'`,
      )
      .bind(start, end),
  ]);
  return {
    sent: sent.results[0]?.n ?? 0,
    recovered: recovered.results[0]?.n ?? 0,
    revenue: recovered.results[0]?.revenue ?? 0,
  };
}
