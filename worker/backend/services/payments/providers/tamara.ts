import { verify } from "hono/jwt";
import { saudiNationalDigits } from "../../../../../contract/inputs";
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
 * Tamara's "split in 4" (Saudi Arabia) through its online checkout API, as its documentation
 * gives it (Bearer API token, amounts as `{ amount, currency }` numbers): `start` asks the
 * pre-check first (POST /checkout/payment-options-pre-check; no option for this shopper and
 * amount is a refusal the shopper is told, PaymentRefused) and then creates the checkout session
 * (POST /checkout) whose `checkout_url` the shopper is sent to. The return and every webhook are
 * confirmed by reading the order (GET /merchants/orders/{id}); an `approved` order is authorised
 * (POST /orders/{id}/authorise) and captured in full at once (POST /payments/capture), so a Tamara
 * order is paid as a card order is; refunds take any part (POST /payments/simplified-refund/{id}).
 * Webhooks carry a JWT (HS256, the notification token) in `Authorization: Bearer`, checked before
 * anything is read.
 */

export const TAMARA_API = "https://api.tamara.co";

type TamaraStatus =
  | "new"
  | "approved"
  | "declined"
  | "authorised"
  | "canceled"
  | "expired"
  | "partially_captured"
  | "fully_captured"
  | "partially_refunded"
  | "fully_refunded";

export interface TamaraMoney {
  amount: number;
  currency: string;
}

/** An order as GET /merchants/orders/{id} answers it (the fields the shop reads). */
export interface TamaraOrder {
  order_id: string;
  order_reference_id: string;
  status: TamaraStatus;
  total_amount: TamaraMoney;
  captured_amount?: TamaraMoney;
  refunded_amount?: TamaraMoney;
}

/** A webhook's body: the order and what happened to it. */
export interface TamaraEvent {
  order_id: string;
  order_reference_id?: string;
  event_type: string;
  data?: unknown;
}

const money = (halalas: number, currency: string): TamaraMoney => ({ amount: halalas / 100, currency });
const halalas = (m: TamaraMoney | undefined) => Math.round((m?.amount ?? 0) * 100);

/** A Saudi number as Tamara takes it: 966 and the nine digits, no plus. */
const tamaraPhone = (phone: string) => `966${saudiNationalDigits(phone)}`;

export function tamaraProvider(config: {
  apiToken: string;
  notificationToken: string;
  apiBase?: string;
  fetcher?: typeof fetch;
}): PaymentProvider {
  const api = jsonApi("Tamara", config.apiBase ?? TAMARA_API, config.apiToken, config.fetcher);

  function resultOf(payment: PaymentRecord, order: TamaraOrder): ProviderResult {
    const paid = ["fully_captured", "partially_refunded", "fully_refunded"].includes(order.status);
    const failed = ["declined", "canceled", "expired"].includes(order.status);
    return {
      paymentId: payment.id,
      status: paid ? "paid" : failed ? "failed" : "pending",
      providerRef: order.order_id,
      message: order.status === "declined" ? "tamara_declined" : failed ? order.status : null,
      amount: halalas(order.total_amount),
      currency: order.total_amount.currency,
    };
  }

  return {
    name: "tamara",
    async start({ payment, lang, origin, returnPath, email, order }) {
      if (!order) throw new Error("Tamara needs the order's buyer, address and lines");
      const phone = tamaraPhone(order.buyer.phone);
      const pre = await api<{ has_available_payment_options?: boolean }>("/checkout/payment-options-pre-check", {
        method: "POST",
        body: JSON.stringify({
          country: "SA",
          order_value: money(payment.amount, payment.currency),
          phone_number: phone,
          is_vip: false,
        }),
      });
      if (!pre.ok) throw new Error(`Tamara pre-check answered ${pre.status}`);
      if (!pre.body.has_available_payment_options) throw new PaymentRefused("not_available");

      const back = new URL(returnPath, origin).toString();
      const [first, ...rest] = order.buyer.name.trim().split(/\s+/);
      const person = { first_name: first || "-", last_name: rest.join(" ") || "-", phone_number: phone };
      const { ok, status, body } = await api<{ order_id?: string; checkout_url?: string; message?: string }>(
        "/checkout",
        {
          method: "POST",
          body: JSON.stringify({
            order_reference_id: payment.id,
            order_number: payment.order_number,
            total_amount: money(payment.amount, payment.currency),
            shipping_amount: money(order.shipping, payment.currency),
            tax_amount: money(order.vat, payment.currency),
            discount: { name: "discount", amount: money(order.discount, payment.currency) },
            description: payment.order_number,
            country_code: "SA",
            payment_type: "PAY_BY_INSTALMENTS",
            instalments: 4,
            locale: lang === "ar" ? "ar_SA" : "en_US",
            items: order.items.map((item) => ({
              reference_id: item.reference_id,
              type: "Physical",
              name: item.title,
              sku: item.reference_id,
              quantity: item.quantity,
              unit_price: money(item.unit_price, payment.currency),
              total_amount: money(item.unit_price * item.quantity, payment.currency),
            })),
            consumer: { ...person, email: order.buyer.email || email },
            shipping_address: { ...person, line1: order.address.address, city: order.address.city, country_code: "SA" },
            merchant_url: {
              success: back,
              failure: back,
              cancel: back,
              notification: new URL("/backend/payments/webhook/tamara", origin).toString(),
            },
          }),
        },
      );
      if (!ok || !body.checkout_url || !body.order_id)
        throw new Error(`Tamara POST /checkout answered ${status}: ${body.message ?? ""}`);
      return { redirectUrl: body.checkout_url, providerRef: body.order_id };
    },
    async verifyReturn(payment, params) {
      if (!payment.provider_ref) return null;
      const id = encodeURIComponent(payment.provider_ref);
      const read = async () => {
        const got = await api<TamaraOrder>(`/merchants/orders/${id}`);
        if (!got.ok) throw new Error(`Tamara GET /merchants/orders answered ${got.status}`);
        return got.body;
      };
      let order = await read();
      // Tamara adds paymentStatus to the return address: it may fail a payment still new, never pay one.
      const said = params.get("paymentStatus");
      if (order.status === "new" && (said === "declined" || said === "canceled"))
        return {
          ...resultOf(payment, order),
          status: "failed",
          message: said === "declined" ? "tamara_declined" : "cancelled",
        };
      // Approved is not yet paid: the shop authorises it and captures it in full at once.
      if (order.status === "approved") {
        await api(`/orders/${id}/authorise`, { method: "POST" });
        order = await read();
      }
      if (order.status === "authorised") {
        await api("/payments/capture", {
          method: "POST",
          body: JSON.stringify({
            order_id: order.order_id,
            total_amount: order.total_amount,
            shipping_info: { shipped_at: new Date().toISOString(), shipping_company: "pending" },
          }),
        });
        order = await read();
      }
      return resultOf(payment, order);
    },
    async refund(payment, amount, reason): Promise<RefundResult> {
      if (!payment.provider_ref) return { status: "failed", providerRef: null, message: "no_provider_reference" };
      const { ok, status, body } = await api<{ refund_id?: string; message?: string }>(
        `/payments/simplified-refund/${encodeURIComponent(payment.provider_ref)}`,
        {
          method: "POST",
          body: JSON.stringify({ total_amount: money(amount, payment.currency), comment: reason ?? "" }),
        },
      );
      if (!ok)
        return { status: "failed", providerRef: payment.provider_ref, message: body.message || `HTTP ${status}` };
      return { status: "succeeded", providerRef: body.refund_id ?? payment.provider_ref, message: null };
    },
    async parseWebhook(rawBody: string, headers: Headers): Promise<WebhookEvent> {
      const token = /^Bearer\s+(.+)$/i.exec(headers.get("authorization") ?? "")?.[1];
      if (!token) throw new WebhookRejected("no token");
      try {
        await verify(token, config.notificationToken, "HS256");
      } catch {
        throw new WebhookRejected("bad token");
      }
      let body: TamaraEvent;
      try {
        body = JSON.parse(rawBody) as TamaraEvent;
      } catch {
        throw new WebhookRejected("body is not JSON");
      }
      if (typeof body.order_id !== "string" || typeof body.event_type !== "string")
        throw new WebhookRejected("not a Tamara event");
      // The event says which order moved; reading the order (verifyReturn) says where it is now.
      return {
        eventId: `${body.order_id}:${body.event_type}`,
        type: body.event_type,
        result: { paymentId: "", status: "pending", providerRef: body.order_id, message: null },
      };
    },
  };
}
