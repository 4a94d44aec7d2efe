import type { Env, Lang } from "../../env";
import { BackendError, notFound, unprocessable } from "../../http";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import type { CartOwner } from "../../identity";
import { flushNotifications, notifyStatements, staffAlertStatement } from "../messages/notifications";
import {
  isoIn,
  orderEventStatement,
  nowIso,
  releaseStockStatements,
  reReserveStock,
  type OrderItemRow,
  type OrderRow,
  type OrderStatus,
} from "../orders/orders";
import type { OrderAddress } from "../../../../contract/orders";
import {
  enabledPaymentMethods,
  moyasarGateway,
  PaymentRefused,
  tabbyGateway,
  tamaraGateway,
  type BnplOrder,
  paymentProvider,
  requirePaymentProvider,
  WebhookRejected,
  type PaymentRecord,
  type ProviderResult,
} from "./providers";
import { invoiceStatements } from "../orders/invoices";
import type { PaymentStart, PaymentStatusView } from "../../../../contract/payments";
import { PAYMENT_METHODS, type PaymentMethodId } from "../../../../contract/checkout";
import { saudiMobile } from "../../../../contract/inputs";
import { recordLatePayment, refundLatePaymentNow } from "./late-payments";
import { releaseExpiredReservations } from "../orders/reservations";
import { findOwnedOrder } from "../orders/shopper-orders";
import { commerceSettings } from "../shared/settings";
import { msg } from "../../messages";
import { findPayment } from "./records";
import { startCod } from "./cash-on-delivery";

export { findPayment };

/**
 * Payments: starting one (a retry after a decline takes the stock again), applying a provider's
 * result exactly once, webhooks with replay protection, and the status the shopper sees.
 * An order is never paid twice: results apply by conditional updates, and a unique index allows
 * one paid payment per order.
 */

export const BACKEND_BASE = "/backend";

const RETURN_BASE = "https://shop.invalid";

/** A same-origin relative path (e.g. /en/payment-status), or null for anything else. */
export function safeReturnPath(raw: string): string | null {
  const value = raw.trim();
  if (
    !value.startsWith("/") ||
    value.startsWith("//") ||
    value.includes("\\") ||
    // eslint-disable-next-line no-control-regex -- control characters are exactly what a return path must not hold
    /[\u0000-\u001f\u007f]/.test(value) ||
    value.length > 500
  )
    return null;
  let url: URL;
  try {
    url = new URL(value, RETURN_BASE);
  } catch {
    return null;
  }
  // Dot segments collapse while parsing ("/.//evil.com" becomes "//evil.com"): check the result too.
  if (url.origin !== RETURN_BASE || url.pathname.startsWith("//")) return null;
  return `${url.pathname}${url.search}`;
}

function withParams(path: string, params: Record<string, string>): string {
  const url = new URL(path, RETURN_BASE);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return `${url.pathname}${url.search}`;
}

const newPaymentId = () => `pay_${crypto.randomUUID().replace(/-/g, "")}`;

const MESSAGES = {
  alreadyPaid: msg("payments.alreadyPaid"),
  cancelled: msg("payments.cancelled"),
  notPayable: msg("payments.notPayable"),
  stockGone: msg("payments.stockGone"),
  returnUrl: msg("payments.returnUrl"),
  holdExpired: msg("payments.holdExpired"),
  providerDown: msg("payments.providerDown"),
  methodOff: msg("payments.methodOff"),
} satisfies Record<string, Bilingual>;

/** Failure reasons the backend records, shown to the shopper in their language. */
const FAILURE_REASONS: Record<string, Bilingual> = {
  declined: msg("payments.failureReasons.declined"),
  three_ds_failed: msg("payments.failureReasons.threeDsFailed"),
  cancelled: msg("payments.failureReasons.cancelled"),
  expired: msg("payments.failureReasons.expired"),
  already_paid: msg("payments.failureReasons.alreadyPaid"),
  out_of_stock: msg("payments.failureReasons.outOfStock"),
  amount_mismatch: msg("payments.failureReasons.amountMismatch"),
  bnpl_rejected: msg("payments.failureReasons.bnplRejected"),
  tamara_declined: msg("payments.failureReasons.tamaraDeclined"),
};

export function failureMessage(lang: Lang, reason: string | null): string {
  const known = reason ? FAILURE_REASONS[reason] : undefined;
  if (known) return say(lang, known);
  const generic = say(lang, msg("payments.failed"));
  return reason ? `${generic} (${reason})` : generic;
}

/**
 * Starts (or, after a decline, retries) paying an order, by the order's method or `method` when
 * the shopper chose another one offered. A payment_failed order takes its stock again first, with
 * the same conditional updates as checkout, or is refused clearly. A card payment goes to the
 * provider's page; an STC Pay payment waits on the shop's page for the mobile number (stcPayMobile).
 */
export async function startPayment(
  db: D1Database,
  env: Env,
  owner: CartOwner,
  number: string,
  returnUrl: string,
  lang: Lang,
  origin: string,
  method?: PaymentMethodId,
): Promise<PaymentStart> {
  const returnPath = safeReturnPath(returnUrl);
  if (!returnPath) {
    const message = say(lang, MESSAGES.returnUrl);
    throw unprocessable({ return_url: [message] }, message);
  }
  const order = await findOwnedOrder(db, number, owner);
  if (!order) throw notFound(say(lang, msg("payments.orderNotFound")));
  const chosen =
    method ??
    ((PAYMENT_METHODS as readonly string[]).includes(order.payment_method)
      ? (order.payment_method as PaymentMethodId)
      : "card");
  if (chosen === "card") requirePaymentProvider(env, lang);
  // A COD order's total holds the COD fee, and no other order has it: the two never swap.
  if (!enabledPaymentMethods(env).includes(chosen) || (chosen === "cod") !== (order.payment_method === "cod")) {
    const message = say(lang, MESSAGES.methodOff);
    throw unprocessable({ method: [message] }, message);
  }
  if (chosen === "cod") {
    if (order.status === "cancelled") throw new BackendError(409, say(lang, MESSAGES.cancelled));
    return startCod(env, order, lang, withParams(returnPath, { order: order.number }));
  }
  await makePayable(db, order, holdDeadline(order, commerceSettings(env).reservationMinutes), lang);

  const provider =
    chosen === "stcpay"
      ? moyasarGateway(env)
      : chosen === "tabby"
        ? tabbyGateway(env)
        : chosen === "tamara"
          ? tamaraGateway(env)
          : await paymentProvider(env);
  if (!provider) throw new BackendError(503, say(lang, MESSAGES.providerDown));
  const id = newPaymentId();
  // Where the provider sends the shopper back: their path plus the payment and the order.
  const back = withParams(returnPath, { payment_id: id, order: order.number });
  const payment: PaymentRecord = {
    id,
    order_id: order.id,
    order_number: order.number,
    provider: provider.name,
    method: chosen,
    status: "initiated",
    amount: order.total,
    currency: order.currency,
    provider_ref: null,
    return_url: back,
  };
  await db
    .prepare(
      "INSERT INTO payments (id, order_id, provider, method, status, amount, currency, return_url) VALUES (?, ?, ?, ?, 'initiated', ?, ?, ?)",
    )
    .bind(payment.id, order.id, provider.name, chosen, payment.amount, payment.currency, back)
    .run();
  // STC Pay asks the shopper for the wallet's number on the shop's page before the gateway is called.
  if (chosen === "stcpay")
    return {
      payment_id: id,
      redirect_url: back,
      method: chosen,
      step: "stcpay",
      mobile: saudiMobile(order.phone ?? ""),
    };
  let started: { redirectUrl: string; providerRef: string | null };
  try {
    started = await provider.start({
      payment,
      email: order.email,
      lang,
      origin,
      backendBase: BACKEND_BASE,
      returnPath: back,
      ...(chosen === "tabby" || chosen === "tamara" ? { order: await bnplOrderOf(db, order, lang) } : {}),
    });
  } catch (err) {
    if (err instanceof PaymentRefused) {
      // The provider will not take it (a pay-later provider's pre-scoring): the shopper is told so
      // and pays another way; the order keeps its hold meanwhile.
      await db
        .prepare("UPDATE payments SET status = 'failed', message = ? WHERE id = ?")
        .bind(`refused:${err.reason}`, payment.id)
        .run();
      const refused = REFUSALS[`${provider.name}:${err.reason}`] ?? REFUSALS[`${provider.name}:not_available`];
      const message = say(lang, refused);
      throw unprocessable({ method: [message] }, message);
    }
    console.error(
      JSON.stringify({ level: "error", event: "payment_start_failed", payment_id: payment.id, error: String(err) }),
    );
    await db
      .prepare("UPDATE payments SET status = 'failed', message = 'provider_unavailable' WHERE id = ?")
      .bind(payment.id)
      .run();
    throw new BackendError(503, say(lang, MESSAGES.providerDown));
  }
  if (started.providerRef)
    await db.prepare("UPDATE payments SET provider_ref = ? WHERE id = ?").bind(started.providerRef, payment.id).run();
  return { payment_id: payment.id, redirect_url: started.redirectUrl, method: chosen };
}

/** Why a pay-later provider refused a purchase, by its reason code. */
const REFUSALS: Record<string, Bilingual> = {
  "tabby:not_available": msg("payments.tabbyRefused.not_available"),
  "tabby:order_amount_too_high": msg("payments.tabbyRefused.order_amount_too_high"),
  "tabby:order_amount_too_low": msg("payments.tabbyRefused.order_amount_too_low"),
  "tamara:not_available": msg("payments.tamaraRefused.not_available"),
};

/** What a pay-later provider scores: the buyer, the delivery address and the lines, in the shopper's language. */
async function bnplOrderOf(db: D1Database, order: OrderRow, lang: Lang): Promise<BnplOrder> {
  const address = JSON.parse(order.address) as OrderAddress;
  const [items, since] = await Promise.all([
    db
      .prepare(
        "SELECT sku, slug, name_en, name_ar, quantity, unit_price FROM order_items WHERE order_id = ? ORDER BY id",
      )
      .bind(order.id)
      .all<Pick<OrderItemRow, "sku" | "slug" | "name_en" | "name_ar" | "quantity" | "unit_price">>(),
    order.user_id === null
      ? null
      : db.prepare("SELECT created_at FROM users WHERE id = ?").bind(order.user_id).first<string>("created_at"),
  ]);
  return {
    buyer: { name: address.name, email: order.email, phone: address.phone },
    address: {
      city: address.city,
      address: [address.building, address.street, address.district].filter(Boolean).join(", "),
      zip: address.postal_code ?? "",
    },
    items: items.results.map((item) => ({
      title: lang === "ar" ? item.name_ar : item.name_en,
      quantity: item.quantity,
      unit_price: item.unit_price,
      reference_id: item.sku ?? item.slug,
    })),
    shipping: order.shipping,
    vat: order.vat,
    discount: order.discount,
    registeredSince: since ?? order.created_at,
  };
}

/**
 * The latest an order may hold stock: its creation plus RESERVATION_MINUTES. Starting (or
 * retrying) a payment never moves it, so nobody can hold stock by starting payments forever.
 */
export function holdDeadline(order: Pick<OrderRow, "created_at">, reservationMinutes: number): string {
  return new Date(Date.parse(order.created_at) + reservationMinutes * 60_000).toISOString();
}

/**
 * Refuses orders that cannot be paid. A declined order takes its stock again, but only until its
 * hold deadline; a still-reserved order keeps the deadline it has.
 */
async function makePayable(db: D1Database, order: OrderRow, deadline: string, lang: Lang): Promise<void> {
  const paidStates: OrderStatus[] = ["paid", "processing", "shipped", "delivered"];
  if (paidStates.includes(order.status)) throw new BackendError(409, say(lang, MESSAGES.alreadyPaid));
  if (order.status === "cancelled") throw new BackendError(409, say(lang, MESSAGES.cancelled));
  if (order.status === "payment_failed" || order.stock_reserved === 0) {
    if (deadline <= nowIso()) throw new BackendError(409, say(lang, MESSAGES.holdExpired));
    if (!(await reReserveStock(db, order, deadline))) throw new BackendError(409, say(lang, MESSAGES.stockGone));
  }
}

const isOnePaidClash = (err: unknown) =>
  /UNIQUE constraint failed: payments\.order_id/i.test(String(err instanceof Error ? err.message : err));

async function failPayment(
  db: D1Database,
  payment: PaymentRecord,
  reason: string | null,
  threeDs: string | null,
): Promise<void> {
  // The hold a pending order has is its deadline (checkout, or holdDeadline on a retry); releasing
  // the stock clears it, so it is read first and kept on the failed order.
  const hold = await db
    .prepare("SELECT reserved_until FROM orders WHERE id = ? AND status = 'pending_payment'")
    .bind(payment.order_id)
    .first<string | null>("reserved_until");
  await db.batch([
    db
      .prepare(
        "UPDATE payments SET status = 'failed', message = ?, three_ds = COALESCE(?, three_ds), updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND status IN ('initiated', 'challenge')",
      )
      .bind(reason, threeDs, payment.id),
    // A declined (or cancelled) payment gives the order's stock back (once) and marks the order,
    // which stays payable until the same deadline: then the sweep closes it like any unpaid order.
    ...releaseStockStatements(db, payment.order_id),
    db
      .prepare(
        "UPDATE orders SET status = 'payment_failed', reserved_until = COALESCE(?, reserved_until), updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND status = 'pending_payment'",
      )
      .bind(hold ?? null, payment.order_id),
    orderEventStatement(
      db,
      { id: payment.order_id },
      "payment_failed",
      { payment_id: payment.id, reason },
      "system",
      "changed",
    ),
  ]);
}

/** Marks a payment as needing the 3-D Secure step. */
export async function markChallenge(db: D1Database, paymentId: string): Promise<void> {
  await db
    .prepare(
      "UPDATE payments SET status = 'challenge', three_ds = 'required', updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND status = 'initiated'",
    )
    .bind(paymentId)
    .run();
}

export type ApplyOutcome = "paid" | "paid_late" | "failed" | "pending" | "unchanged" | "unknown";

/**
 * Applies a verified provider result. Idempotent: a payment that is already paid or failed does
 * not change, an order already paid is never paid again, and stock moves at most once. A "paid"
 * for a payment already failed is recorded as a late payment (`paid_late`), once.
 */
export async function applyProviderResult(
  db: D1Database,
  providerName: string,
  result: ProviderResult,
): Promise<ApplyOutcome> {
  const payment = await findPayment(db, result.paymentId);
  if (!payment) return "unknown";
  // A provider speaks only for its own payments: a sandbox event can never settle a Moyasar payment.
  if (payment.provider !== providerName) {
    console.warn(
      JSON.stringify({ level: "warn", event: "payment.provider_mismatch", payment_id: payment.id, from: providerName }),
    );
    return "unknown";
  }
  if (payment.status === "paid") return "unchanged";
  if (payment.status === "failed") {
    // The gateway took the money after the shop closed this payment (its order cancelled or its
    // hold run out): never dropped, recorded as owed back (late-payments.ts).
    if (result.status !== "paid") return "unchanged";
    return (await recordLatePayment(db, payment, result)) ? "paid_late" : "unchanged";
  }
  if (result.status === "pending") return "pending";

  if (result.status === "failed") {
    await failPayment(db, payment, result.message ?? "declined", result.threeDs ?? null);
    return "failed";
  }

  if (
    (result.amount !== undefined && result.amount !== payment.amount) ||
    (result.currency !== undefined && result.currency !== payment.currency)
  ) {
    await failPayment(db, payment, "amount_mismatch", result.threeDs ?? null);
    return "failed";
  }
  const order = await db.prepare("SELECT * FROM orders WHERE id = ?").bind(payment.order_id).first<OrderRow>();
  if (!order) return "unknown";
  if (order.paid_at !== null || ["paid", "processing", "shipped", "delivered"].includes(order.status)) {
    await failPayment(db, payment, "already_paid", result.threeDs ?? null);
    return "failed";
  }
  // A payment that completes after its order gave the stock back must take it again first.
  if (order.stock_reserved === 0 && !(await reReserveStock(db, order, isoIn(30)))) {
    await failPayment(db, payment, "out_of_stock", result.threeDs ?? null);
    return "failed";
  }
  try {
    await db.batch([
      db
        .prepare(
          `UPDATE payments SET status = 'paid', provider_ref = COALESCE(provider_ref, ?), three_ds = COALESCE(?, three_ds), message = NULL,
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND status IN ('initiated', 'challenge')`,
        )
        .bind(result.providerRef, result.threeDs ?? null, payment.id),
      db
        .prepare(
          // The order records how it was paid: the shopper may have paid another way than first chosen.
          `UPDATE orders SET status = 'paid', payment_method = ?3, paid_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), reserved_until = NULL, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
           WHERE id = ?1 AND status = 'pending_payment' AND EXISTS (SELECT 1 FROM payments WHERE id = ?2 AND status = 'paid')`,
        )
        .bind(payment.order_id, payment.id, payment.method),
      orderEventStatement(
        db,
        { id: payment.order_id },
        "paid",
        { payment_id: payment.id, provider: payment.provider, amount: payment.amount },
        "system",
        "changed",
      ),
      ...invoiceStatements(db, order),
      ...notifyStatements(db, { id: payment.order_id }, "paid"),
      staffAlertStatement(db, { id: payment.order_id }, "staff_order"),
    ]);
  } catch (err) {
    if (!isOnePaidClash(err)) throw err;
    await failPayment(db, payment, "already_paid", result.threeDs ?? null);
    return "failed";
  }
  return "paid";
}

/**
 * A provider's webhook: verified by the provider (HMAC over the raw body), then applied once per
 * event id. A replay answers `replayed` and changes nothing.
 */
export async function receiveWebhook(
  db: D1Database,
  env: Env,
  providerName: string,
  rawBody: string,
  headers: Headers,
): Promise<{ replayed: boolean; outcome: ApplyOutcome }> {
  const provider = await paymentProvider(env, providerName);
  if (!provider) throw notFound("Unknown payment provider.");
  let event;
  try {
    event = await provider.parseWebhook(rawBody, headers);
  } catch (err) {
    if (err instanceof WebhookRejected) throw new BackendError(401, "Invalid webhook signature.");
    throw err;
  }
  const seen = await db
    .prepare("SELECT 1 FROM payment_events WHERE provider = ? AND event_id = ?")
    .bind(provider.name, event.eventId)
    .first();
  if (seen) return { replayed: true, outcome: "unchanged" };
  let outcome: ApplyOutcome = "unknown";
  const result = event.result ? await resolvePayment(db, provider.name, event.result) : null;
  if (result) {
    // A gateway that can be asked is asked: the event says something happened, the API says what.
    const payment = await findPayment(db, result.paymentId);
    let confirmed: ProviderResult | null = null;
    try {
      confirmed = payment ? await provider.verifyReturn(payment, new URLSearchParams()) : null;
    } catch (err) {
      // Not recorded: the gateway retries a non-2xx delivery, and the retry is applied then.
      console.error(
        JSON.stringify({ level: "warn", event: "webhook_confirm_failed", provider: provider.name, error: String(err) }),
      );
      throw new BackendError(503, "Could not confirm the payment with the provider; please retry.");
    }
    outcome = await applyProviderResult(
      db,
      provider.name,
      confirmed ? { ...confirmed, paymentId: result.paymentId } : result,
    );
    // The "paid" message its batch owed goes out now (the cron would send it within a minute).
    if (outcome === "paid") await flushNotifications(env);
    // Money taken for a closed order goes straight back; a refusal leaves it owed on the console.
    if (outcome === "paid_late") await refundLatePaymentNow(env, result.paymentId);
  }
  const recorded = await db
    .prepare(
      "INSERT INTO payment_events (provider, event_id, payment_id, type) VALUES (?, ?, ?, ?) ON CONFLICT (provider, event_id) DO NOTHING",
    )
    .bind(provider.name, event.eventId, result?.paymentId ?? null, event.type)
    .run();
  return { replayed: recorded.meta.changes === 0, outcome };
}

/** Events that name only the gateway's reference are matched to our payment by it. */
async function resolvePayment(
  db: D1Database,
  provider: string,
  result: ProviderResult,
): Promise<ProviderResult | null> {
  if (result.paymentId) return result;
  if (!result.providerRef) return null;
  const row = await db
    .prepare("SELECT id FROM payments WHERE provider = ? AND provider_ref = ?")
    .bind(provider, result.providerRef)
    .first<{ id: string }>();
  return row ? { ...result, paymentId: row.id } : null;
}

/** What the shopper sees on return; asks the provider when the result is not known yet. */
export async function paymentStatus(
  db: D1Database,
  env: Env,
  paymentId: string,
  lang: Lang,
  params = new URLSearchParams(),
): Promise<PaymentStatusView> {
  await releaseExpiredReservations(db);
  let payment = await findPayment(db, paymentId);
  if (!payment) throw notFound(say(lang, msg("payments.notFound")));
  if (payment.status === "initiated" || payment.status === "challenge") {
    const provider = await paymentProvider(env, payment.provider);
    try {
      const verified = provider ? await provider.verifyReturn(payment, params) : null;
      if (verified) {
        if ((await applyProviderResult(db, payment.provider, { ...verified, paymentId: payment.id })) === "paid")
          await flushNotifications(env, payment.order_id);
        payment = (await findPayment(db, paymentId)) ?? payment;
      }
    } catch (err) {
      // The gateway being unreachable leaves the payment pending; the webhook will settle it.
      console.error(
        JSON.stringify({ level: "warn", event: "payment_verify_failed", payment_id: paymentId, error: String(err) }),
      );
    }
  }
  const row = await db
    .prepare(
      "SELECT p.status, p.message, o.status AS order_status FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.id = ?",
    )
    .bind(paymentId)
    .first<{ status: PaymentRecord["status"]; message: string | null; order_status: OrderStatus }>();
  const status = row!.status === "paid" ? "paid" : row!.status === "failed" ? "failed" : "pending";
  const message =
    status === "paid"
      ? say(lang, msg("payments.received"))
      : status === "failed"
        ? failureMessage(lang, row!.message)
        : say(lang, msg("payments.waiting"));
  return {
    payment_id: paymentId,
    status,
    order_number: payment.order_number,
    order_status: row!.order_status,
    message,
    method: payment.method,
  };
}
