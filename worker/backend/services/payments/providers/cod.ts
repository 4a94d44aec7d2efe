import type { Env } from "../../../env";
import type { PaymentProvider, PaymentRecord, RefundResult } from "./types";

/**
 * The provider a COD refund goes through: nothing to call, a bank transfer to the order's IBAN is
 * recorded as owed (console: "Bank transfers", services/payments/cash-on-delivery.ts); without an IBAN the refund is refused, and the
 * console says to ask the shopper for one.
 */
export function cashOnDeliveryProvider(env: Pick<Env, "DB">): PaymentProvider {
  return {
    name: "cod",
    start() {
      return Promise.reject(new Error("Cash on delivery starts on the shop's own page."));
    },
    verifyReturn() {
      return Promise.resolve(null);
    },
    parseWebhook() {
      return Promise.reject(new Error("Cash on delivery has no webhook."));
    },
    async refund(payment: PaymentRecord, amount: number): Promise<RefundResult> {
      const account = await env.DB.prepare("SELECT refund_iban, refund_iban_name FROM orders WHERE id = ?")
        .bind(payment.order_id)
        .first<{ refund_iban: string | null; refund_iban_name: string | null }>();
      if (!account?.refund_iban || !account.refund_iban_name)
        return { status: "failed", providerRef: null, message: "no_iban" };
      const id = `bt_${crypto.randomUUID().replace(/-/g, "")}`;
      await env.DB.prepare(
        "INSERT INTO bank_transfers (id, order_id, payment_id, amount, iban, holder) VALUES (?, ?, ?, ?, ?, ?)",
      )
        .bind(id, payment.order_id, payment.id, amount, account.refund_iban, account.refund_iban_name)
        .run();
      return { status: "succeeded", providerRef: id, message: null };
    },
  };
}
