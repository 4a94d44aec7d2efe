import { sign } from "hono/jwt";
import type { Lang } from "../../../env";
import { escapeHtml } from "../../../../../contract/server/html";
import { instalmentPlan, type InstalmentRule } from "../../../../../contract/instalments";
import { say } from "../../../../../contract/server/i18n";
import { msg } from "../../../messages";
import { planList } from "./pay-later-page";
import { errorSummary, field, page } from "./sandbox";
import type { TamaraEvent, TamaraMoney, TamaraOrder } from "./tamara";

/**
 * Tamara's online checkout API as development and test see it: the real adapter (tamara.ts) calls
 * this in place of api.tamara.co, and the shopper's browser is sent to a hosted page of its own
 * (`/backend/payments/stand-in/tamara/{id}`), so every test runs the adapter's requests. It follows
 * Tamara's published sandbox rules for Saudi Arabia: the code is shown on the page; the number
 * 526422337 is declined there; the pre-check offers nothing outside the shop's limits. An approved
 * order is told to the shop by webhook with a JWT signed by the notification token, as Tamara does.
 * Orders live in KV for a day. It never touches the network.
 */

export const TAMARA_STAND_IN_BASE = "https://tamara.stand-in.invalid";
export const TAMARA_STAND_IN_TOKEN = "tamara_stand_in_api_token";
export const TAMARA_DECLINED_PHONE = "526422337";
export const TAMARA_PAGE = "/backend/payments/stand-in/tamara";

/** The stand-in's record of an order: the order as answered, where the shopper goes back, and the page's code. */
export interface StoredTamara {
  order: TamaraOrder & { phone: string; email: string };
  urls: { success: string; failure: string; cancel: string; notification: string };
  lang: Lang;
  code: string;
}

const key = (id: string) => `stand-in:tamara:order:${id}`;

export async function loadTamara(kv: KVNamespace, id: string): Promise<StoredTamara | null> {
  return kv.get<StoredTamara>(key(id), "json");
}
export async function saveTamara(kv: KVNamespace, stored: StoredTamara): Promise<void> {
  await kv.put(key(stored.order.order_id), JSON.stringify(stored), { expirationTtl: 86_400 });
}

const error = (status: number, message: string) =>
  Response.json({ message, errors: [{ error_code: message }] }, { status });
const halalas = (m: TamaraMoney | undefined) => Math.round((m?.amount ?? NaN) * 100);

/** The webhook Tamara sends when an order moves: the event, and its JWT signed with the notification token. */
export async function tamaraNotification(
  notificationToken: string,
  order: TamaraOrder,
  eventType: string,
): Promise<{ body: string; authorization: string }> {
  const event: TamaraEvent = {
    order_id: order.order_id,
    order_reference_id: order.order_reference_id,
    event_type: eventType,
    data: {},
  };
  const now = Math.floor(Date.now() / 1000);
  const jwt = await sign({ iat: now, exp: now + 300, iss: "Tamara" }, notificationToken, "HS256");
  return { body: JSON.stringify(event), authorization: `Bearer ${jwt}` };
}

export function tamaraStandIn(kv: KVNamespace, rule: InstalmentRule): typeof fetch {
  async function checkout(body: Record<string, unknown>): Promise<Response> {
    const total = body.total_amount as TamaraMoney | undefined;
    const consumer = (body.consumer ?? {}) as { phone_number?: string; email?: string };
    const urls = (body.merchant_url ?? {}) as StoredTamara["urls"];
    if (!total || !Number.isFinite(halalas(total)) || total.currency !== "SAR")
      return error(400, "invalid_total_amount");
    if (!consumer.phone_number || !consumer.email) return error(400, "invalid_consumer");
    if (!urls.success || !urls.failure || !urls.cancel || !urls.notification) return error(400, "invalid_merchant_url");
    if (body.payment_type !== "PAY_BY_INSTALMENTS" || typeof body.order_reference_id !== "string")
      return error(400, "invalid_payment_type");
    const id = crypto.randomUUID();
    const stored: StoredTamara = {
      order: {
        order_id: id,
        order_reference_id: body.order_reference_id,
        status: "new",
        total_amount: total,
        captured_amount: { amount: 0, currency: "SAR" },
        refunded_amount: { amount: 0, currency: "SAR" },
        phone: consumer.phone_number,
        email: consumer.email,
      },
      urls,
      lang: body.locale === "ar_SA" ? "ar" : "en",
      code: String(1000 + Math.floor(Math.random() * 9000)),
    };
    await saveTamara(kv, stored);
    return Response.json({
      order_id: id,
      checkout_id: crypto.randomUUID(),
      checkout_url: `${TAMARA_PAGE}/${id}?lang=${stored.lang}`,
      status: "new",
    });
  }

  async function change(id: string, step: "authorise" | "capture" | "refund", body: Record<string, unknown>) {
    const stored = await loadTamara(kv, id);
    if (!stored) return error(404, "order_not_found");
    const { order } = stored;
    if (step === "authorise") {
      if (order.status !== "approved") return error(400, "order_not_approved");
      order.status = "authorised";
      await saveTamara(kv, stored);
      return Response.json({
        order_id: id,
        status: "authorised",
        authorized_amount: order.total_amount,
        auto_captured: false,
      });
    }
    const amount = halalas(body.total_amount as TamaraMoney);
    if (!Number.isInteger(amount) || amount <= 0) return error(400, "invalid_total_amount");
    const total = halalas(order.total_amount);
    if (step === "capture") {
      if (order.status !== "authorised" || amount !== total) return error(400, "capture_not_allowed");
      order.status = "fully_captured";
      order.captured_amount = order.total_amount;
      await saveTamara(kv, stored);
      return Response.json({ capture_id: crypto.randomUUID(), order_id: id, status: "fully_captured" });
    }
    const refunded = halalas(order.refunded_amount);
    if (!["fully_captured", "partially_refunded"].includes(order.status) || refunded + amount > total)
      return error(400, "refund_amount_exceeds_captured_amount");
    order.refunded_amount = { amount: (refunded + amount) / 100, currency: order.total_amount.currency };
    order.status = refunded + amount === total ? "fully_refunded" : "partially_refunded";
    await saveTamara(kv, stored);
    return Response.json({
      refund_id: crypto.randomUUID(),
      order_id: id,
      status: order.status,
      refunded_amount: order.refunded_amount,
    });
  }

  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== TAMARA_STAND_IN_BASE) throw new Error(`The Tamara stand-in was asked for ${url.origin}`);
    if (request.headers.get("authorization") !== `Bearer ${TAMARA_STAND_IN_TOKEN}`) return error(401, "unauthorized");
    const body = (request.method === "POST" ? await request.json().catch(() => ({})) : {}) as Record<string, unknown>;
    const path = url.pathname;
    if (path === "/checkout/payment-options-pre-check" && request.method === "POST") {
      const value = halalas(body.order_value as TamaraMoney);
      const available = instalmentPlan(rule, value) !== null;
      return Response.json({
        has_available_payment_options: available,
        single_checkout_enabled: false,
        available_payment_labels: available ? [{ payment_type: "PAY_BY_INSTALMENTS", instalment: rule.count }] : [],
      });
    }
    if (path === "/checkout" && request.method === "POST") return checkout(body);
    const read = /^\/merchants\/orders\/([^/]+)$/.exec(path);
    if (read && request.method === "GET") {
      const stored = await loadTamara(kv, decodeURIComponent(read[1]));
      if (!stored) return error(404, "order_not_found");
      const { phone: _phone, email: _email, ...order } = stored.order;
      return Response.json(order);
    }
    const authorise = /^\/orders\/([^/]+)\/authorise$/.exec(path);
    if (authorise && request.method === "POST") return change(decodeURIComponent(authorise[1]), "authorise", body);
    if (path === "/payments/capture" && request.method === "POST")
      return change(String(body.order_id ?? ""), "capture", body);
    const refund = /^\/payments\/simplified-refund\/([^/]+)$/.exec(path);
    if (refund && request.method === "POST") return change(decodeURIComponent(refund[1]), "refund", body);
    return error(404, "not_found");
  };
}

// ---------------------------------------------------------------------------------------------
// The hosted page: the plan, the phone and the code Tamara's sandbox shows, plain HTML, both languages.

const TEXT = {
  title: msg("payments.tamaraStandIn.title"),
  intro: msg("payments.tamaraStandIn.intro"),
  plan: msg("payments.tamaraStandIn.plan"),
  today: msg("payments.tamaraStandIn.today"),
  phone: msg("payments.tamaraStandIn.phone"),
  code: msg("payments.tamaraStandIn.code"),
  codeHint: msg("payments.tamaraStandIn.codeHint"),
  pay: msg("payments.tamaraStandIn.pay"),
  cancel: msg("payments.tamaraStandIn.cancel"),
  codeWrong: msg("payments.tamaraStandIn.codeWrong"),
};

export function renderTamaraPage(
  stored: StoredTamara,
  rule: InstalmentRule,
  action: string,
  wrongCode = false,
): string {
  const { lang, order } = stored;
  const amount = halalas(order.total_amount);
  const plan = instalmentPlan({ ...rule, min: 0, max: Number.MAX_SAFE_INTEGER }, amount) ?? [amount];
  const error = wrongCode ? say(lang, TEXT.codeWrong) : undefined;
  const body = `<h1>${say(lang, TEXT.title)}</h1>
<p>${escapeHtml(say(lang, TEXT.intro, { count: plan.length }))}</p>
<h2>${say(lang, TEXT.plan)}</h2>
${planList(lang, plan, order.total_amount.currency, say(lang, TEXT.today))}
${errorSummary(lang, error ? [error] : [])}
<form method="post" action="${escapeHtml(action)}" novalidate>
${field({ id: "tamara-phone", name: "phone", label: say(lang, TEXT.phone), value: order.phone.replace(/^966/, ""), attrs: 'inputmode="tel" autocomplete="tel-national" maxlength="12"' })}
${field({ id: "tamara-code", name: "code", label: say(lang, TEXT.code), error, attrs: 'inputmode="numeric" autocomplete="one-time-code" maxlength="4" required' })}
<p class="note">${escapeHtml(say(lang, TEXT.codeHint, { code: stored.code }))}</p>
<button type="submit" name="action" value="pay">${say(lang, TEXT.pay)}</button>
<button type="submit" name="action" value="cancel" class="secondary" formnovalidate>${say(lang, TEXT.cancel)}</button>
</form>`;
  return page(lang, say(lang, TEXT.title), body);
}
