import type { Env, Lang } from "../../env";
import { BackendError, notFound, unprocessable } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { latinDigits, saudiMobile } from "../../../../contract/inputs";
import type { PaymentStatusView, StcPayStep } from "../../../../contract/payments";
import type { CartOwner } from "../../identity";
import { flushNotifications } from "../messages/notifications";
import { findOrderByNumber, ownsOrder } from "../orders/orders";
import { applyProviderResult, failureMessage, findPayment, paymentStatus } from "./payments";
import { moyasarGateway, type PaymentRecord } from "./providers";
import { msg } from "../../messages";

/**
 * STC Pay on the shop's own page, in two steps after the payment is started (payments.ts):
 * the wallet's mobile number, which makes the gateway text a code (or refuse at once), then the
 * code, whose answer is the payment, paid or failed. Each step is claimed by a conditional update,
 * so a double submit never creates two gateway payments or sends one code twice. A refusal fails
 * the payment as a declined card does (its stock goes back; the shopper may start again).
 */

const SAY = {
  notFound: msg("payments.notFound"),
  notStcPay: msg("payments.stcPay.notStcPay"),
  mobileInvalid: msg("payments.stcPay.mobileInvalid"),
  otpInvalid: msg("payments.stcPay.otpInvalid"),
  alreadySent: msg("payments.stcPay.alreadySent"),
  noCodeYet: msg("payments.stcPay.noCodeYet"),
  codeSent: msg("payments.stcPay.codeSent"),
  providerDown: msg("payments.providerDown"),
};

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** The visitor's own STC Pay payment, or 404 (someone else's reads as none at all). */
async function ownStcPayment(db: D1Database, owner: CartOwner, paymentId: string, lang: Lang): Promise<PaymentRecord> {
  const payment = await findPayment(db, paymentId);
  const order = payment ? await findOrderByNumber(db, payment.order_number) : null;
  if (!payment || !order || !ownsOrder(order, owner)) throw notFound(say(lang, SAY.notFound));
  if (payment.method !== "stcpay") throw new BackendError(409, say(lang, SAY.notStcPay));
  return payment;
}

/** 05XXXXXXXX as the shopper is told it: all but the last three digits hidden. */
const maskedMobile = (mobile: string) => `${mobile.slice(0, 2)}${"•".repeat(mobile.length - 5)}${mobile.slice(-3)}`;

export async function stcPayMobile(
  db: D1Database,
  env: Env,
  owner: CartOwner,
  paymentId: string,
  typed: string,
  lang: Lang,
  origin: string,
): Promise<StcPayStep> {
  const payment = await ownStcPayment(db, owner, paymentId, lang);
  const mobile = saudiMobile(typed);
  if (!mobile) {
    const message = say(lang, SAY.mobileInvalid);
    throw unprocessable({ mobile: [message] }, message);
  }
  if (payment.status !== "initiated") return stepOf(db, payment.id, lang);
  const gateway = moyasarGateway(env);
  if (!gateway) throw new BackendError(503, say(lang, SAY.providerDown));
  // One gateway payment per payment of ours: the first submit claims it, a second is told so.
  const claimed = await db
    .prepare(
      "UPDATE payments SET transaction_url = '', updated_at = " +
        NOW +
        " WHERE id = ? AND status = 'initiated' AND transaction_url IS NULL",
    )
    .bind(payment.id)
    .run();
  if (claimed.meta.changes === 0) throw new BackendError(409, say(lang, SAY.alreadySent));

  let answer: Awaited<ReturnType<typeof gateway.initiateStcPay>>;
  try {
    answer = await gateway.initiateStcPay({ payment, mobile, lang, origin, returnPath: payment.return_url });
  } catch (err) {
    console.error(
      JSON.stringify({ level: "error", event: "stcpay_initiate_failed", payment_id: payment.id, error: String(err) }),
    );
    await db
      .prepare(
        `UPDATE payments SET status = 'failed', message = 'provider_unavailable', updated_at = ${NOW} WHERE id = ? AND status = 'initiated'`,
      )
      .bind(payment.id)
      .run();
    throw new BackendError(503, say(lang, SAY.providerDown));
  }
  await db
    .prepare(
      `UPDATE payments SET provider_ref = COALESCE(?, provider_ref), transaction_url = ?, updated_at = ${NOW} WHERE id = ?`,
    )
    .bind(answer.result.providerRef, answer.transactionUrl ?? "", payment.id)
    .run();
  if (answer.result.status === "failed" || !answer.transactionUrl) {
    await applyProviderResult(db, gateway.name, {
      ...answer.result,
      status: "failed",
      message: answer.result.message ?? "declined",
    });
    return stepOf(db, payment.id, lang);
  }
  return { payment_id: payment.id, status: "otp", message: say(lang, SAY.codeSent, { mobile: maskedMobile(mobile) }) };
}

/** A payment already decided answers what happened to it. */
async function stepOf(db: D1Database, paymentId: string, lang: Lang): Promise<StcPayStep> {
  const row = await db
    .prepare("SELECT status, message FROM payments WHERE id = ?")
    .bind(paymentId)
    .first<{ status: PaymentRecord["status"]; message: string | null }>();
  if (row?.status === "failed")
    return { payment_id: paymentId, status: "failed", message: failureMessage(lang, row.message) };
  if (row?.status === "paid")
    return { payment_id: paymentId, status: "failed", message: say(lang, msg("payments.alreadyPaid")) };
  return { payment_id: paymentId, status: "otp", message: say(lang, SAY.alreadySent) };
}

export async function stcPayOtp(
  db: D1Database,
  env: Env,
  owner: CartOwner,
  paymentId: string,
  typed: string,
  lang: Lang,
): Promise<PaymentStatusView> {
  const payment = await ownStcPayment(db, owner, paymentId, lang);
  const otp = latinDigits(typed).replace(/\s/g, "");
  if (!/^\d{4,8}$/.test(otp)) {
    const message = say(lang, SAY.otpInvalid);
    throw unprocessable({ otp: [message] }, message);
  }
  if (payment.status === "paid" || payment.status === "failed") return paymentStatus(db, env, payment.id, lang);
  const row = await db
    .prepare("SELECT transaction_url FROM payments WHERE id = ?")
    .bind(payment.id)
    .first<{ transaction_url: string | null }>();
  const transactionUrl = row?.transaction_url ?? "";
  if (!transactionUrl || !payment.provider_ref) throw new BackendError(409, say(lang, SAY.noCodeYet));
  const gateway = moyasarGateway(env);
  if (!gateway) throw new BackendError(503, say(lang, SAY.providerDown));
  // The code is sent once: `challenge` marks it on its way, so a second submit waits for the first.
  const claimed = await db
    .prepare(`UPDATE payments SET status = 'challenge', updated_at = ${NOW} WHERE id = ? AND status = 'initiated'`)
    .bind(payment.id)
    .run();
  if (claimed.meta.changes === 0) return paymentStatus(db, env, payment.id, lang);

  let result;
  try {
    result = await gateway.confirmStcPay(payment, transactionUrl, otp);
  } catch (err) {
    // Unanswered: the code may be typed again (the gateway said nothing, so nothing is decided).
    console.error(
      JSON.stringify({ level: "error", event: "stcpay_otp_failed", payment_id: payment.id, error: String(err) }),
    );
    await db
      .prepare(`UPDATE payments SET status = 'initiated', updated_at = ${NOW} WHERE id = ? AND status = 'challenge'`)
      .bind(payment.id)
      .run();
    throw new BackendError(503, say(lang, SAY.providerDown));
  }
  if ((await applyProviderResult(db, gateway.name, { ...result, paymentId: payment.id })) === "paid")
    await flushNotifications(env, payment.order_id);
  return paymentStatus(db, env, payment.id, lang);
}
