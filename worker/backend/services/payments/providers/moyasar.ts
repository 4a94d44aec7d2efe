import { sameSecret, verifyHmac } from "./hmac";
import {
  type RefundResult,
  WebhookRejected,
  type PaymentProvider,
  type PaymentRecord,
  type ProviderResult,
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
 */

const API = "https://api.moyasar.com/v1";

interface MoyasarInvoice {
  id: string;
  status: "initiated" | "paid" | "failed" | "refunded" | "canceled" | "on_hold" | "expired" | "voided";
  amount: number;
  currency: string;
  url: string;
  metadata?: Record<string, string> | null;
  payments?: { id: string; status: string; source?: { message?: string | null } | null }[];
}

/** Moyasar's answer to a refund: the payment, now (partly) refunded. */
interface MoyasarPayment {
  id: string;
  status: string;
  amount: number;
  refunded?: number;
  currency: string;
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

export function moyasarProvider(config: {
  secretKey: string;
  webhookSecret: string;
  fetcher?: typeof fetch;
}): PaymentProvider {
  const fetcher = config.fetcher ?? fetch;
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

  return {
    name: "moyasar",
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
      return resultOf(payment, await api<MoyasarInvoice>(`/invoices/${encodeURIComponent(payment.provider_ref)}`));
    },
    async refund(payment, amount): Promise<RefundResult> {
      // We keep the invoice's id; the refund names the invoice's paid payment.
      if (!payment.provider_ref) return { status: "failed", providerRef: null, message: "no_provider_reference" };
      const invoice = await api<MoyasarInvoice>(`/invoices/${encodeURIComponent(payment.provider_ref)}`);
      const paid = invoice.payments?.find((p) => REFUNDABLE.includes(p.status));
      if (!paid) return { status: "failed", providerRef: null, message: "no_paid_payment" };
      const res = await fetcher(`${API}/payments/${encodeURIComponent(paid.id)}/refund`, {
        method: "POST",
        headers: { authorization: auth, accept: "application/json", "content-type": "application/json" },
        body: JSON.stringify({ amount }),
      });
      if (res.status >= 500) throw new Error(`Moyasar POST /payments/${paid.id}/refund answered ${res.status}`);
      const body = (await res.json().catch(() => ({}))) as MoyasarPayment & MoyasarError;
      if (!res.ok) {
        // `errors` is an object of field messages, but a string or null is seen too.
        const errors: unknown = body.errors;
        const fields =
          typeof errors === "string"
            ? [errors]
            : errors && typeof errors === "object"
              ? Object.values(errors).flat().map(String)
              : [];
        return {
          status: "failed",
          providerRef: paid.id,
          message: [body.message, ...fields].filter(Boolean).join(" ") || `HTTP ${res.status}`,
        };
      }
      return { status: "succeeded", providerRef: body.id ?? paid.id, message: null };
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
