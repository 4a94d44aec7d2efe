import { saudiNationalDigits } from "../../../../../contract/inputs";
import type { Lang } from "../../../env";
import { escapeHtml } from "../../../../../contract/server/html";
import { instalmentPlan, type InstalmentRule } from "../../../../../contract/instalments";
import { say } from "../../../../../contract/server/i18n";
import { msg } from "../../../messages";
import { errorSummary, field, page } from "./sandbox";
import { planList } from "./pay-later-page";
import { halalasOf, tabbyAmount, type TabbyPayment, type TabbySession } from "./tabby";

/**
 * Tabby's checkout API as development and test see it: the real adapter (tabby.ts) calls this in
 * place of api.tabby.ai, and the shopper's browser is sent to a hosted page of its own
 * (`/backend/payments/stand-in/tabby/{id}`), so every test runs the adapter's requests. It follows
 * Tabby's published test rules for Saudi Arabia:
 *
 *   phone +966500000002            rejected at pre-scoring ("not_available")
 *   an amount outside the limits   rejected ("order_amount_too_high" / "…_too_low")
 *   code 8888 on the page          authorised; otp.rejected@tabby.ai is rejected after the code
 *
 * Sessions and payments live in KV for a day. It never touches the network.
 */

export const TABBY_STAND_IN_BASE = "https://tabby.stand-in.invalid";
export const TABBY_STAND_IN_KEY = "sk_test_stand_in";
export const TABBY_STAND_IN_MERCHANT = "souq_sa";
export const TABBY_TEST_OTP = "8888";
export const TABBY_REJECTED_PHONE = "+966500000002";
export const TABBY_REJECTED_EMAIL = "otp.rejected@tabby.ai";
export const TABBY_PAGE = "/backend/payments/stand-in/tabby";

/** The stand-in's record of a payment: the payment as answered, and where the shopper goes back. */
export interface StoredTabby {
  payment: TabbyPayment & { buyer: { email: string; phone: string; name: string }; created_at: string };
  urls: { success: string; cancel: string; failure: string };
  lang: Lang;
}

const key = (id: string) => `stand-in:tabby:payment:${id}`;

export async function loadTabby(kv: KVNamespace, id: string): Promise<StoredTabby | null> {
  return kv.get<StoredTabby>(key(id), "json");
}
export async function saveTabby(kv: KVNamespace, stored: StoredTabby): Promise<void> {
  await kv.put(key(stored.payment.id), JSON.stringify(stored), { expirationTtl: 86_400 });
}

const error = (status: number, message: string) => Response.json({ status: "error", error: message }, { status });

/** The last nine digits: how Tabby's test numbers are matched whatever the prefix typed. */

export function tabbyStandIn(kv: KVNamespace, rule: InstalmentRule): typeof fetch {
  async function checkout(body: Record<string, unknown>): Promise<Response> {
    const payment = (body.payment ?? {}) as Record<string, unknown>;
    const buyer = (payment.buyer ?? {}) as { email?: string; phone?: string; name?: string };
    const urls = (body.merchant_urls ?? {}) as StoredTabby["urls"];
    if (typeof payment.amount !== "string" || !/^\d+\.\d{2}$/.test(payment.amount)) return error(400, "payment.amount");
    if (payment.currency !== "SAR") return error(400, "payment.currency");
    if (!buyer.phone || !buyer.email) return error(400, "payment.buyer");
    if (!urls.success || !urls.cancel || !urls.failure) return error(400, "merchant_urls");
    if (body.merchant_code !== TABBY_STAND_IN_MERCHANT) return error(400, "merchant_code");
    const amount = halalasOf(payment.amount);
    const id = crypto.randomUUID();
    const tabby: StoredTabby["payment"] = {
      id,
      status: "CREATED",
      amount: payment.amount,
      currency: "SAR",
      order: { reference_id: String((payment.order as { reference_id?: string } | undefined)?.reference_id ?? "") },
      captures: [],
      refunds: [],
      buyer: { email: buyer.email, phone: buyer.phone, name: buyer.name ?? "" },
      created_at: new Date().toISOString(),
    };
    const reason =
      saudiNationalDigits(buyer.phone) === saudiNationalDigits(TABBY_REJECTED_PHONE)
        ? "not_available"
        : amount > rule.max
          ? "order_amount_too_high"
          : amount < rule.min
            ? "order_amount_too_low"
            : null;
    const lang: Lang = body.lang === "ar" ? "ar" : "en";
    if (!reason) await saveTabby(kv, { payment: tabby, urls, lang });
    const session: TabbySession = {
      id: crypto.randomUUID(),
      status: reason ? "rejected" : "created",
      payment: { ...tabby, status: reason ? "REJECTED" : "CREATED" },
      configuration: {
        available_products: reason ? {} : { installments: [{ web_url: `${TABBY_PAGE}/${id}?lang=${lang}` }] },
        products: { installments: { is_available: !reason, rejection_reason: reason } },
      },
    };
    return Response.json(session);
  }

  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== TABBY_STAND_IN_BASE) throw new Error(`The Tabby stand-in was asked for ${url.origin}`);
    if (request.headers.get("authorization") !== `Bearer ${TABBY_STAND_IN_KEY}`) return error(401, "Unauthorized");
    const body = (request.method === "POST" ? await request.json().catch(() => ({})) : {}) as Record<string, unknown>;
    if (url.pathname === "/api/v2/checkout" && request.method === "POST") return checkout(body);
    const path = /^\/api\/v2\/payments\/([^/]+)(\/captures|\/refunds)?$/.exec(url.pathname);
    if (!path) return error(404, "Not found");
    const stored = await loadTabby(kv, decodeURIComponent(path[1]));
    if (!stored) return error(404, "Payment not found");
    const { payment } = stored;
    if (!path[2] && request.method === "GET") return Response.json(payment);
    const amount = typeof body.amount === "string" ? halalasOf(body.amount) : NaN;
    const total = halalasOf(payment.amount);
    if (!Number.isInteger(amount) || amount <= 0) return error(400, "amount");
    if (path[2] === "/captures") {
      const captured = (payment.captures ?? []).reduce((sum, c) => sum + halalasOf(c.amount), 0);
      if (payment.status !== "AUTHORIZED" || captured + amount > total) return error(400, "capture not allowed");
      payment.captures = [...(payment.captures ?? []), { id: crypto.randomUUID(), amount: tabbyAmount(amount) }];
      if (captured + amount === total) payment.status = "CLOSED";
    } else {
      const refunded = (payment.refunds ?? []).reduce((sum, r) => sum + halalasOf(r.amount), 0);
      if (payment.status !== "CLOSED" || refunded + amount > total)
        return error(400, "refund amount exceeds captured amount");
      const reason = typeof body.reason === "string" ? body.reason : "";
      payment.refunds = [...(payment.refunds ?? []), { id: crypto.randomUUID(), amount: tabbyAmount(amount), reason }];
    }
    await saveTabby(kv, stored);
    return Response.json(payment);
  };
}

// ---------------------------------------------------------------------------------------------
// The hosted page: the plan of payments and the code, plain HTML (no script), both languages.

const TEXT = {
  title: msg("payments.tabbyStandIn.title"),
  intro: msg("payments.tabbyStandIn.intro"),
  plan: msg("payments.tabbyStandIn.plan"),
  today: msg("payments.tabbyStandIn.today"),
  email: msg("payments.tabbyStandIn.email"),
  otp: msg("payments.tabbyStandIn.otp"),
  otpHint: msg("payments.tabbyStandIn.otpHint"),
  pay: msg("payments.tabbyStandIn.pay"),
  cancel: msg("payments.tabbyStandIn.cancel"),
  otpWrong: msg("payments.tabbyStandIn.otpWrong"),
};

export function renderTabbyPage(stored: StoredTabby, rule: InstalmentRule, action: string, wrongCode = false): string {
  const { lang, payment } = stored;
  const amount = halalasOf(payment.amount);
  const plan = instalmentPlan({ ...rule, min: 0, max: Number.MAX_SAFE_INTEGER }, amount) ?? [amount];
  const error = wrongCode ? say(lang, TEXT.otpWrong) : undefined;
  const body = `<h1>${say(lang, TEXT.title)}</h1>
<p>${escapeHtml(say(lang, TEXT.intro, { count: plan.length }))}</p>
<h2>${say(lang, TEXT.plan)}</h2>
${planList(lang, plan, payment.currency, say(lang, TEXT.today))}
${errorSummary(lang, error ? [error] : [])}
<form method="post" action="${escapeHtml(action)}" novalidate>
${field({ id: "tabby-email", name: "email", label: say(lang, TEXT.email), value: payment.buyer.email, attrs: 'type="email" autocomplete="email" maxlength="120"' })}
${field({ id: "tabby-otp", name: "otp", label: say(lang, TEXT.otp), error, attrs: 'inputmode="numeric" autocomplete="one-time-code" maxlength="4" required' })}
<p class="note">${escapeHtml(say(lang, TEXT.otpHint))}</p>
<button type="submit" name="action" value="pay">${say(lang, TEXT.pay)}</button>
<button type="submit" name="action" value="cancel" class="secondary" formnovalidate>${say(lang, TEXT.cancel)}</button>
</form>`;
  return page(lang, say(lang, TEXT.title), body);
}
