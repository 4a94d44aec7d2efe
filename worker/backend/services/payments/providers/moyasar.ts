import { sameSecret, verifyHmac } from "./hmac";
import {
  type RefundResult,
  WebhookRejected,
  type PaymentProvider,
  type PaymentRecord,
  type ProviderResult,
  type StcPayGateway,
  type WebhookEvent,
} from "./types";
import { say } from "../../../../../contract/server/i18n";
import { msg } from "../../../messages";

/**
 * Moyasar (Saudi gateway) through its hosted invoice page: `start` creates an invoice
 * (POST /v1/invoices, HTTP Basic with the secret key) and sends the shopper to its `url`; the
 * return is verified by fetching the invoice from Moyasar (never trusting the redirect); webhooks
 * are accepted only with a valid HMAC-SHA256 `x-signature` over the raw body, or Moyasar's own
 * `secret_token` matching PAYMENT_SECRET (as configured in the Moyasar dashboard), and their
 * result is then confirmed against the API as well. Refunds go to the invoice's paid payment:
 * POST /v1/payments/{id}/refund with the amount in halalas.
 *
 * STC Pay runs on the shop's own page through the payments API (Moyasar's "custom UI" flow):
 * POST /v1/payments with an `stcpay` source and the mobile number answers the payment, `initiated`
 * with a `source.transaction_url` (STC Pay has texted a code) or `failed` with STC Pay's reason;
 * the code is then POSTed to that URL as `otp_value`, and the answer is the payment, paid or
 * failed. Such a payment is its own reference: it is fetched and refunded by its id.
 */

export const MOYASAR_API = "https://api.moyasar.com/v1";

interface MoyasarInvoice {
  id: string;
  status: "initiated" | "paid" | "failed" | "refunded" | "canceled" | "on_hold" | "expired" | "voided";
  amount: number;
  currency: string;
  url: string;
  metadata?: Record<string, string> | null;
  payments?: { id: string; status: string; source?: { message?: string | null } | null }[];
}

/** A payment as the payments API answers it (creation, fetch, the STC Pay code, a refund). */
export interface MoyasarPayment {
  id: string;
  status: "initiated" | "paid" | "authorized" | "captured" | "failed" | "refunded" | "voided" | "verified";
  amount: number;
  refunded?: number;
  currency: string;
  metadata?: Record<string, string> | null;
  source?: {
    type?: string;
    message?: string | null;
    transaction_url?: string | null;
    mobile?: string | null;
    reference_number?: string | null;
    branch?: string | null;
    cashier?: string | null;
  } | null;
}

/** Moyasar's error envelope (4xx): a type, a message, and field errors. */
interface MoyasarError {
  type?: string;
  message?: string;
  errors?: Record<string, string[]> | string | null;
}

/** The payment states of an invoice's payment that hold money to refund. */
const REFUNDABLE = ["paid", "captured", "refunded"];

interface MoyasarWebhookBody {
  id: string;
  type: string;
  secret_token?: string;
  data?: {
    id?: string;
    status?: string;
    amount?: number;
    currency?: string;
    invoice_id?: string | null;
    metadata?: Record<string, string> | null;
    source?: { message?: string | null };
  };
}

/** What a Moyasar payment's status means to the shop. */
function paymentOutcome(status: MoyasarPayment["status"]): ProviderResult["status"] {
  if (status === "paid" || status === "captured" || status === "refunded") return "paid";
  if (status === "failed" || status === "voided") return "failed";
  return "pending";
}

/** The field messages of Moyasar's error envelope: an object of lists, or a bare string. */
function errorText(body: MoyasarError, status: number): string {
  const errors: unknown = body.errors;
  const fields =
    typeof errors === "string"
      ? [errors]
      : errors && typeof errors === "object"
        ? Object.values(errors).flat().map(String)
        : [];
  return [body.message, ...fields].filter(Boolean).join(" ") || `HTTP ${status}`;
}

export function moyasarProvider(config: {
  secretKey: string;
  webhookSecret: string;
  fetcher?: typeof fetch;
  /** The API's address: Moyasar's own, or the development stand-in's (stand-ins/moyasar.ts). */
  apiBase?: string;
}): PaymentProvider & StcPayGateway {
  const fetcher = config.fetcher ?? fetch;
  const API = config.apiBase ?? MOYASAR_API;
  const auth = `Basic ${btoa(`${config.secretKey}:`)}`;

  async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
    if (!config.secretKey) throw new Error("MOYASAR_SECRET_KEY is not set");
    const res = await fetcher(`${API}${path}`, {
      ...init,
      headers: {
        authorization: auth,
        accept: "application/json",
        "content-type": "application/json",
        ...(init.headers ?? {}),
      },
    });
    if (!res.ok) throw new Error(`Moyasar ${init.method ?? "GET"} ${path} answered ${res.status}`);
    return (await res.json()) as T;
  }

  function resultOf(payment: PaymentRecord, invoice: MoyasarInvoice): ProviderResult {
    const lastPayment = invoice.payments?.[invoice.payments.length - 1];
    const status =
      invoice.status === "paid"
        ? "paid"
        : ["failed", "canceled", "expired", "voided"].includes(invoice.status)
          ? "failed"
          : "pending";
    return {
      paymentId: payment.id,
      status,
      providerRef: invoice.id,
      message: status === "failed" ? (lastPayment?.source?.message ?? invoice.status) : null,
      amount: invoice.amount,
      currency: invoice.currency,
    };
  }

  function resultOfPayment(payment: PaymentRecord, paid: MoyasarPayment): ProviderResult {
    const status = paymentOutcome(paid.status);
    return {
      paymentId: payment.id,
      status,
      providerRef: paid.id,
      message: status === "failed" ? (paid.source?.message ?? paid.status) : null,
      amount: paid.amount,
      currency: paid.currency,
    };
  }

  /**
   * A call whose 4xx answer is the gateway's considered refusal (a payment it will not make, a
   * code it will not take): answered as the body and its text. A 5xx or no answer throws.
   */
  async function decided<T>(
    url: string,
    init: RequestInit,
  ): Promise<{ ok: true; body: T } | { ok: false; text: string }> {
    const res = await fetcher(url, init);
    if (res.status >= 500)
      throw new Error(`Moyasar ${init.method ?? "GET"} ${new URL(url).pathname} answered ${res.status}`);
    const body = (await res.json().catch(() => ({}))) as T & MoyasarError;
    return res.ok ? { ok: true, body } : { ok: false, text: errorText(body, res.status) };
  }

  const json = { authorization: auth, accept: "application/json", "content-type": "application/json" };

  return {
    name: "moyasar",
    async initiateStcPay({ payment, mobile, lang, origin, returnPath }) {
      const answer = await decided<MoyasarPayment>(`${API}/payments`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({
          amount: payment.amount,
          currency: payment.currency,
          description: say(lang, msg("payments.moyasar.description"), { number: payment.order_number }),
          callback_url: new URL(returnPath, origin).toString(),
          source: { type: "stcpay", mobile },
          metadata: { payment_id: payment.id, order: payment.order_number },
        }),
      });
      // A refused request (a number Moyasar will not take) is a failed payment the shopper may retry.
      if (!answer.ok)
        return {
          result: { paymentId: payment.id, status: "failed", providerRef: null, message: answer.text },
          transactionUrl: null,
        };
      const url = answer.body.source?.transaction_url ?? null;
      return { result: resultOfPayment(payment, answer.body), transactionUrl: url };
    },
    async confirmStcPay(payment, transactionUrl, otp) {
      // The code goes only to the gateway that asked for it: a stored address elsewhere is refused.
      if (new URL(transactionUrl).origin !== new URL(API).origin)
        throw new Error("STC Pay transaction URL is not Moyasar's");
      const answer = await decided<MoyasarPayment>(transactionUrl, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/json" },
        body: JSON.stringify({ otp_value: otp }),
      });
      if (!answer.ok)
        return { paymentId: payment.id, status: "failed", providerRef: payment.provider_ref, message: answer.text };
      return resultOfPayment(payment, answer.body);
    },
    async start({ payment, origin, returnPath, lang }) {
      const back = new URL(returnPath, origin);
      const invoice = await api<MoyasarInvoice>("/invoices", {
        method: "POST",
        body: JSON.stringify({
          amount: payment.amount,
          currency: payment.currency,
          description: say(lang, msg("payments.moyasar.description"), { number: payment.order_number }),
          success_url: back.toString(),
          back_url: back.toString(),
          callback_url: new URL(`/backend/payments/webhook/moyasar`, origin).toString(),
          metadata: { payment_id: payment.id, order: payment.order_number },
        }),
      });
      return { redirectUrl: invoice.url, providerRef: invoice.id };
    },
    async verifyReturn(payment) {
      if (!payment.provider_ref) return null;
      const ref = encodeURIComponent(payment.provider_ref);
      if (payment.method === "stcpay") return resultOfPayment(payment, await api<MoyasarPayment>(`/payments/${ref}`));
      return resultOf(payment, await api<MoyasarInvoice>(`/invoices/${ref}`));
    },
    async refund(payment, amount): Promise<RefundResult> {
      if (!payment.provider_ref) return { status: "failed", providerRef: null, message: "no_provider_reference" };
      // An STC Pay payment is refunded by its own id; for an invoice, its paid payment's.
      let paidId = payment.provider_ref;
      if (payment.method !== "stcpay") {
        const invoice = await api<MoyasarInvoice>(`/invoices/${encodeURIComponent(payment.provider_ref)}`);
        const paid = invoice.payments?.find((p) => REFUNDABLE.includes(p.status));
        if (!paid) return { status: "failed", providerRef: null, message: "no_paid_payment" };
        paidId = paid.id;
      }
      const answer = await decided<MoyasarPayment>(`${API}/payments/${encodeURIComponent(paidId)}/refund`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ amount }),
      });
      if (!answer.ok) return { status: "failed", providerRef: paidId, message: answer.text };
      return { status: "succeeded", providerRef: answer.body.id ?? paidId, message: null };
    },
    async parseWebhook(rawBody: string, headers: Headers): Promise<WebhookEvent> {
      let body: MoyasarWebhookBody;
      try {
        body = JSON.parse(rawBody) as MoyasarWebhookBody;
      } catch {
        throw new WebhookRejected("body is not JSON");
      }
      const signed = await verifyHmac(config.webhookSecret, rawBody, headers.get("x-signature"));
      const tokenOk =
        typeof body.secret_token === "string" && (await sameSecret(body.secret_token, config.webhookSecret));
      if (!signed && !tokenOk) throw new WebhookRejected("bad signature");
      if (typeof body.id !== "string" || typeof body.type !== "string")
        throw new WebhookRejected("not a Moyasar event");
      // Our payment id travels in the metadata; otherwise the invoice id finds it.
      const paymentId = body.data?.metadata?.payment_id ?? "";
      if (!paymentId && !body.data?.invoice_id) return { eventId: body.id, type: body.type, result: null };
      const status =
        body.type === "payment_paid"
          ? "paid"
          : body.type === "payment_failed" || body.type === "payment_faild"
            ? "failed"
            : "pending";
      return {
        eventId: body.id,
        type: body.type,
        result: {
          paymentId,
          status,
          providerRef: body.data?.invoice_id ?? body.data?.id ?? null,
          message: body.data?.source?.message ?? null,
          amount: body.data?.amount,
          currency: body.data?.currency,
        },
      };
    },
  };
}
