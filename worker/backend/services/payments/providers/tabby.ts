import { sameSecret } from "./hmac";
import { jsonApi } from "./json-api";
import {
  PaymentRefused,
  WebhookRejected,
  type PaymentProvider,
  type PaymentRecord,
  type ProviderResult,
  type RefundResult,
  type WebhookEvent,
} from "./types";

/**
 * Tabby's "pay in 4" (Saudi Arabia) through its checkout API, as its documentation gives it:
 * `start` creates a checkout session (POST /api/v2/checkout, Bearer secret key, amounts as
 * decimal strings) whose pre-scoring answers at once: `created` with the hosted page's `web_url`,
 * or `rejected` with a reason, which the shopper is told (PaymentRefused) and offered the other
 * methods. The return and every webhook are confirmed by fetching the payment
 * (GET /api/v2/payments/{id}); an AUTHORIZED payment is captured in full at once
 * (POST …/captures), so a Tabby order is paid as a card order is, and refunds (POST …/refunds)
 * take any part of it. Webhooks carry the payment; Tabby signs nothing, so the header registered
 * with the webhook (`x-webhook-secret`, TABBY_WEBHOOK_SECRET) must match.
 */

export const TABBY_API = "https://api.tabby.ai";
export const TABBY_WEBHOOK_HEADER = "x-webhook-secret";
/** The parameter the cancel and failure return addresses carry. */
export const TABBY_OUTCOME = "tabby";

type TabbyStatus = "CREATED" | "AUTHORIZED" | "CLOSED" | "REJECTED" | "EXPIRED";

/** The payment object of Tabby's API (webhooks send it with the status in lower case). */
export interface TabbyPayment {
  id: string;
  status: TabbyStatus | Lowercase<TabbyStatus>;
  amount: string;
  currency: string;
  order?: { reference_id?: string };
  captures?: { id: string; amount: string }[];
  refunds?: { id: string; amount: string; reason?: string }[];
}

export interface TabbySession {
  id: string;
  status: "created" | "rejected" | "expired" | "approved";
  payment: TabbyPayment;
  configuration?: {
    available_products?: { installments?: { web_url: string }[] };
    products?: { installments?: { is_available?: boolean; rejection_reason?: string | null } };
  };
}

/** Halalas as Tabby's decimal string, and back. */
export const tabbyAmount = (halalas: number) => (halalas / 100).toFixed(2);
export const halalasOf = (amount: string) => Math.round(Number.parseFloat(amount) * 100);

export function tabbyProvider(config: {
  secretKey: string;
  merchantCode: string;
  webhookSecret: string;
  apiBase?: string;
  fetcher?: typeof fetch;
}): PaymentProvider {
  const api = jsonApi("Tabby", config.apiBase ?? TABBY_API, config.secretKey, config.fetcher);

  function resultOf(payment: PaymentRecord, tabby: TabbyPayment): ProviderResult {
    const status = tabby.status.toUpperCase() as TabbyStatus;
    return {
      paymentId: payment.id,
      status: status === "CLOSED" ? "paid" : status === "REJECTED" || status === "EXPIRED" ? "failed" : "pending",
      providerRef: tabby.id,
      message: status === "REJECTED" ? "bnpl_rejected" : status === "EXPIRED" ? "expired" : null,
      amount: halalasOf(tabby.amount),
      currency: tabby.currency,
    };
  }

  return {
    name: "tabby",
    async start({ payment, lang, origin, returnPath, email, order }) {
      if (!order) throw new Error("Tabby needs the order's buyer, address and lines");
      const back = new URL(returnPath, origin);
      // Tabby sends the shopper to one of three addresses; the return page tells them apart.
      const to = (outcome: string) => {
        const url = new URL(back);
        if (outcome) url.searchParams.set(TABBY_OUTCOME, outcome);
        return url.toString();
      };
      const { body, ok, status } = await api<TabbySession & { error?: string }>("/api/v2/checkout", {
        method: "POST",
        body: JSON.stringify({
          payment: {
            amount: tabbyAmount(payment.amount),
            currency: payment.currency,
            description: payment.order_number,
            buyer: { ...order.buyer, email: order.buyer.email || email },
            shipping_address: order.address,
            order: {
              reference_id: payment.order_number,
              tax_amount: tabbyAmount(order.vat),
              shipping_amount: tabbyAmount(order.shipping),
              discount_amount: tabbyAmount(order.discount),
              items: order.items.map((item) => ({ ...item, unit_price: tabbyAmount(item.unit_price) })),
            },
            buyer_history: { registered_since: order.registeredSince, loyalty_level: 0 },
            order_history: [],
            meta: { order_id: payment.order_number, customer: payment.id },
          },
          lang,
          merchant_code: config.merchantCode,
          merchant_urls: { success: to(""), cancel: to("cancel"), failure: to("failure") },
        }),
      });
      if (!ok) throw new Error(`Tabby POST /api/v2/checkout answered ${status}: ${body.error ?? ""}`);
      const url = body.configuration?.available_products?.installments?.[0]?.web_url;
      if (body.status === "rejected" || !url)
        throw new PaymentRefused(body.configuration?.products?.installments?.rejection_reason ?? "not_available");
      return { redirectUrl: url, providerRef: body.payment.id };
    },
    async verifyReturn(payment, params) {
      if (!payment.provider_ref) return null;
      const ref = encodeURIComponent(payment.provider_ref);
      const read = await api<TabbyPayment>(`/api/v2/payments/${ref}`);
      if (!read.ok) throw new Error(`Tabby GET /api/v2/payments answered ${read.status}`);
      let tabby = read.body;
      // A shopper back from the cancel or failure address, whose payment Tabby never authorised:
      // failed now (it could only ever expire). The address can fail a payment, never pay one.
      const outcome = params.get(TABBY_OUTCOME);
      if (tabby.status.toUpperCase() === "CREATED" && (outcome === "cancel" || outcome === "failure"))
        return {
          ...resultOf(payment, tabby),
          status: "failed",
          message: outcome === "cancel" ? "cancelled" : "bnpl_rejected",
        };
      // Authorised is not yet paid: the shop captures it in full at once (Tabby's capture on order).
      if (tabby.status.toUpperCase() === "AUTHORIZED") {
        const captured = await api<TabbyPayment>(`/api/v2/payments/${ref}/captures`, {
          method: "POST",
          body: JSON.stringify({ amount: tabby.amount, reference_id: payment.id }),
        });
        // A capture already made (a webhook and a return at once) is read again, not repeated.
        tabby = captured.ok ? captured.body : (await api<TabbyPayment>(`/api/v2/payments/${ref}`)).body;
      }
      return resultOf(payment, tabby);
    },
    async refund(payment, amount, reason): Promise<RefundResult> {
      if (!payment.provider_ref) return { status: "failed", providerRef: null, message: "no_provider_reference" };
      const { ok, status, body } = await api<TabbyPayment & { error?: string }>(
        `/api/v2/payments/${encodeURIComponent(payment.provider_ref)}/refunds`,
        { method: "POST", body: JSON.stringify({ amount: tabbyAmount(amount), reason: reason ?? "" }) },
      );
      if (!ok) return { status: "failed", providerRef: payment.provider_ref, message: body.error || `HTTP ${status}` };
      const made = body.refunds?.[body.refunds.length - 1];
      return { status: "succeeded", providerRef: made?.id ?? payment.provider_ref, message: null };
    },
    async parseWebhook(rawBody: string, headers: Headers): Promise<WebhookEvent> {
      const given = headers.get(TABBY_WEBHOOK_HEADER);
      if (!given || !(await sameSecret(given, config.webhookSecret))) throw new WebhookRejected("bad webhook secret");
      let body: TabbyPayment;
      try {
        body = JSON.parse(rawBody) as TabbyPayment;
      } catch {
        throw new WebhookRejected("body is not JSON");
      }
      if (typeof body.id !== "string" || typeof body.status !== "string")
        throw new WebhookRejected("not a Tabby payment");
      // Tabby's webhooks carry no event id: a payment reaching a status is the event, once.
      const record = { id: "", provider_ref: body.id } as PaymentRecord;
      return {
        eventId: `${body.id}:${body.status.toLowerCase()}`,
        type: body.status.toLowerCase(),
        result: resultOf(record, body),
      };
    },
  };
}
