import { isValidPhoneNumber } from "libphonenumber-js/min";
import { isDeliveryPhone } from "../../../../contract/delivery";
import type { StockAlertAnswer, StockAlertInput } from "../../../../contract/stock-alerts";
import { say } from "../../../../contract/server/i18n";
import { INVALID_INPUT, inputMessages } from "../../../../contract/server/input-messages";
import type { Lang } from "../../env";
import { BackendError } from "../../http";
import { msg } from "../../messages";
import { deliver, type AccountsEnv } from "../accounts/accounts";
import { consumeAddressCode, issueAddressCode } from "../accounts/otp";

/**
 * "Tell me when it's back" (migrations/0053_stock_alerts.sql): a subscription to a sold-out
 * variant, or to a product without options, by email or SMS.
 *
 * - Only while it is sold out (409 otherwise): the alert is news of stock coming back.
 * - Email needs no confirmation: the address gets one message at most, with an unsubscribe link,
 *   and the route limits how often an address and a network may subscribe.
 * - SMS needs a phone known to be the shopper's: the signed-in account's own phone (on a verified
 *   account), or one confirmed by a one-time code (services/accounts/otp.ts, purpose
 *   `stock_alert`: hashed, 10 minutes, per-network tries and a daily budget), sent by a first call
 *   and entered in the same request as the subscription.
 * - The answer is the same whether or not the address had subscribed already: it tells no one
 *   who waits for what.
 */

const SAY = {
  inStock: msg("stockAlerts.inStock"),
  noProduct: msg("stockAlerts.noProduct"),
  chooseVariant: msg("stockAlerts.chooseVariant"),
  noVariant: msg("stockAlerts.noVariant"),
  codeInvalid: msg("stockAlerts.codeInvalid"),
  smsCountry: msg("stockAlerts.smsCountry"),
};

export interface SubscribeContext {
  lang: Lang;
  /** The signed-in account, or null. */
  userId: number | null;
  /** The caller's network key (rate-limit.ts `requestNetwork`), for the code's tries. */
  network: string;
  /** The shop's origin the product link points to (contract/server/public-origin.ts). */
  siteOrigin: string;
  /** Counts a code about to be texted (the route's per-network limit); throws when over it. */
  beforeCode?: () => Promise<void>;
}

function invalid(lang: Lang, field: string, text: string): never {
  throw new BackendError(422, say(lang, INVALID_INPUT), { [field]: [text] });
}

interface Target {
  productId: number;
  /** Null for a product without options. */
  variantId: number | null;
  stock: number;
}

/** The variant (or product) asked about, checked to be in the shop and of that product. */
async function targetOf(db: D1Database, lang: Lang, input: StockAlertInput): Promise<Target> {
  const product = await db
    .prepare(
      `SELECT p.id, p.stock, (SELECT COUNT(*) FROM product_options o WHERE o.product_id = p.id) AS options
       FROM products p WHERE p.id = ? AND p.active = 1`,
    )
    .bind(input.product)
    .first<{ id: number; stock: number; options: number }>();
  if (!product) invalid(lang, "product", say(lang, SAY.noProduct));
  if (product.options === 0) return { productId: product.id, variantId: null, stock: product.stock };
  if (input.variant === null) invalid(lang, "variant", say(lang, SAY.chooseVariant));
  const variant = await db
    .prepare("SELECT id, stock FROM product_variants WHERE id = ? AND product_id = ? AND active = 1")
    .bind(input.variant, product.id)
    .first<{ id: number; stock: number }>();
  if (!variant) invalid(lang, "variant", say(lang, SAY.noVariant));
  return { productId: product.id, variantId: variant.id, stock: variant.stock };
}

const inStock = (lang: Lang) => new BackendError(409, say(lang, SAY.inStock));

/** Whether the signed-in account's own phone is this one, on a verified account. */
async function accountPhone(db: D1Database, userId: number | null, phone: string): Promise<boolean> {
  if (userId === null) return false;
  const row = await db
    .prepare("SELECT 1 AS yes FROM users WHERE id = ? AND phone = ? AND verified_at IS NOT NULL")
    .bind(userId, phone)
    .first<{ yes: number }>();
  return row !== null;
}

export async function subscribeToStockAlert(
  env: AccountsEnv,
  input: StockAlertInput,
  ctx: SubscribeContext,
): Promise<StockAlertAnswer> {
  const { lang } = ctx;
  const target = await targetOf(env.DB, lang, input);
  if (target.stock > 0) throw inStock(lang);
  let recipient: string;
  if (input.channel === "email") {
    recipient = input.email;
  } else {
    recipient = input.phone;
    // The contract took E.164's form; the number plan decides whether it can be a phone at all.
    if (!isValidPhoneNumber(recipient)) invalid(lang, "phone", inputMessages(lang).invalid("phone"));
    // Texts go only to the countries the shop delivers to (the outbox skips any other number).
    if (!isDeliveryPhone(recipient)) invalid(lang, "phone", say(lang, SAY.smsCountry));
    if (!(await accountPhone(env.DB, ctx.userId, recipient))) {
      if (!input.code) {
        await ctx.beforeCode?.();
        const issued = await issueAddressCode(env, "stock_alert", recipient);
        // A throttled resend is silent: the code sent a moment ago still works.
        if (issued.issued) await deliver(env, recipient, "sms", "stock_alert", issued.code, lang);
        return { status: "code_sent" };
      }
      const passed = await consumeAddressCode(env, {
        purpose: "stock_alert",
        code: input.code,
        network: ctx.network,
        subject: `phone:${recipient}`,
        address: recipient,
      });
      if (!passed) invalid(lang, "code", say(lang, SAY.codeInvalid));
    }
  }
  // Written only while still sold out, and once per waiting recipient (the partial unique index):
  // a repeat changes nothing and answers the same.
  const [table, stockOf] =
    target.variantId === null ? ["products", target.productId] : ["product_variants", target.variantId];
  const { meta } = await env.DB.prepare(
    `INSERT OR IGNORE INTO stock_alerts (product_id, variant_id, channel, recipient, lang, user_id, site_origin)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE (SELECT stock FROM ${table} WHERE id = ?8) = 0`,
  )
    .bind(target.productId, target.variantId, input.channel, recipient, lang, ctx.userId, ctx.siteOrigin, stockOf)
    .run();
  if (!meta.changes) {
    // Nothing written: already waiting (the same answer), or the stock came back meanwhile.
    const back = await env.DB.prepare(`SELECT stock FROM ${table} WHERE id = ?`).bind(stockOf).first<number>("stock");
    if ((back ?? 0) > 0) throw inStock(lang);
  }
  return { status: "subscribed" };
}
