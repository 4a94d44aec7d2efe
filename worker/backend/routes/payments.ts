import { saudiNationalDigits } from "../../../contract/inputs";
import { Hono, type Context } from "hono";
import * as v from "valibot";
import type { BackendEnv, Lang } from "../env";
import { notFound, ok } from "../http";
import { say } from "../../../contract/server/i18n";
import { publicOrigin } from "../../../contract/server/public-origin";
import { cartOwner, ownerKey } from "../identity";
import { findOrderByNumber, ownsOrder } from "../services/orders/orders";
import {
  sandboxEnabled,
  sandboxSecret,
  standInsEnabled,
  bnplRule,
  tabbyWebhookSecret,
  tamaraNotificationToken,
} from "../services/payments/providers";
import {
  loadTabby,
  renderTabbyPage,
  saveTabby,
  TABBY_REJECTED_EMAIL,
  TABBY_TEST_OTP,
} from "../services/payments/providers/tabby-stand-in";
import { TABBY_WEBHOOK_HEADER } from "../services/payments/providers/tabby";
import {
  loadTamara,
  renderTamaraPage,
  saveTamara,
  tamaraNotification,
  TAMARA_DECLINED_PHONE,
} from "../services/payments/providers/tamara-stand-in";
import {
  decideCard,
  renderCardPage,
  renderChallengePage,
  renderMissingPage,
  sandboxEvent,
  SANDBOX_3DS_CODE,
  CARD_ERRORS,
  type CardForm,
} from "../services/payments/providers/sandbox";
import {
  BACKEND_BASE,
  findPayment,
  markChallenge,
  paymentStatus,
  receiveWebhook,
  startPayment,
} from "../services/payments/payments";
import { enforceLimits } from "../services/shared/rate-limit";
import { limitShopCall } from "../services/challenge/policy";
import { validate } from "../../../contract/server/validate";
import { PAYMENT_METHODS } from "../../../contract/checkout";
import { stcPayMobile, stcPayOtp } from "../services/payments/stc-pay";
import { confirmCod } from "../services/payments/cash-on-delivery";
import { presentOrder } from "../services/orders/shopper-orders";
import { msg } from "../messages";

/** Payments: start, status, the provider's hosted page and webhook. */
export const paymentsRoutes = new Hono<BackendEnv>();

// --- the provider's webhook: raw body, HMAC-verified, idempotent by event id -----------------

paymentsRoutes.post("/webhook/:provider", async (c) => {
  const raw = await c.req.text();
  const { replayed, outcome } = await receiveWebhook(c.env.DB, c.env, c.req.param("provider"), raw, c.req.raw.headers);
  return ok(c, { received: true, replayed, outcome });
});

// --- the sandbox provider's hosted card page -------------------------------------------------

// The sandbox takes test cards: outside development and test (without the loud opt-in) its pages
// do not exist, so a production shop can never be paid with 4242 4242 4242 4242.
paymentsRoutes.use("/sandbox/*", async (c, next) => {
  if (!sandboxEnabled(c.env)) return html(c, renderMissingPage(pageLang(c)), 404);
  await next();
});

/** The page's language: ?lang=, else content-language, else Accept-Language, else English. */
function pageLang(c: Context<BackendEnv>): Lang {
  const query = c.req.query("lang");
  if (query === "ar" || query === "en") return query;
  if (c.req.header("content-language")) return c.get("lang");
  return /^\s*ar\b/i.test(c.req.header("accept-language") ?? "") ? "ar" : "en";
}

function html(c: Context<BackendEnv>, body: string, status: 200 | 404 | 422 = 200) {
  c.header("cache-control", "no-store");
  c.header("referrer-policy", "no-referrer");
  return c.html(body, status);
}

/** The sandbox decides: it signs the result as its webhook and delivers it through the same verification. */
async function settle(
  c: Context<BackendEnv>,
  paymentId: string,
  outcome: { status: "paid" | "failed"; message: string | null; threeDs: "passed" | "failed" | null },
) {
  const payment = await findPayment(c.env.DB, paymentId);
  if (!payment) return html(c, renderMissingPage(pageLang(c)), 404);
  const event = await sandboxEvent(await sandboxSecret(c.env), payment, outcome);
  await receiveWebhook(c.env.DB, c.env, "sandbox", event.body, new Headers({ "x-signature": event.signature }));
  return c.redirect(payment.return_url, 303);
}

const pageAction = (paymentId: string, lang: Lang, suffix = "") =>
  `${BACKEND_BASE}/payments/sandbox/${paymentId}${suffix}?lang=${lang}`;

paymentsRoutes.get("/sandbox/:id", async (c) => {
  const lang = pageLang(c);
  const payment = await findPayment(c.env.DB, c.req.param("id"));
  if (!payment || payment.provider !== "sandbox") return html(c, renderMissingPage(lang), 404);
  if (payment.status === "paid" || payment.status === "failed") return c.redirect(payment.return_url, 303);
  if (payment.status === "challenge")
    return html(c, renderChallengePage(payment, lang, pageAction(payment.id, lang, "/challenge")));
  return html(c, renderCardPage(payment, lang, pageAction(payment.id, lang)));
});

const formText = (body: Record<string, unknown>, key: string) =>
  typeof body[key] === "string" ? (body[key] as string).slice(0, 64) : "";

paymentsRoutes.post("/sandbox/:id", async (c) => {
  const lang = pageLang(c);
  const payment = await findPayment(c.env.DB, c.req.param("id"));
  if (!payment || payment.provider !== "sandbox") return html(c, renderMissingPage(lang), 404);
  if (payment.status === "paid" || payment.status === "failed") return c.redirect(payment.return_url, 303);
  if (payment.status === "challenge") return c.redirect(pageAction(payment.id, lang), 303);
  const body = await c.req.parseBody();
  if (formText(body, "action") === "cancel")
    return settle(c, payment.id, { status: "failed", message: "cancelled", threeDs: null });
  const form: CardForm = {
    number: formText(body, "card_number"),
    expiry: formText(body, "expiry"),
    cvc: formText(body, "cvc"),
    name: formText(body, "name"),
  };
  const decided = decideCard(form, lang);
  if ("errors" in decided) {
    return html(
      c,
      renderCardPage(payment, lang, pageAction(payment.id, lang), {
        values: { ...form, cvc: "" },
        errors: decided.errors,
      }),
      422,
    );
  }
  if (decided.outcome === "challenge") {
    await markChallenge(c.env.DB, payment.id);
    return c.redirect(pageAction(payment.id, lang), 303);
  }
  return settle(
    c,
    payment.id,
    decided.outcome === "paid"
      ? { status: "paid", message: null, threeDs: null }
      : { status: "failed", message: "declined", threeDs: null },
  );
});

paymentsRoutes.post("/sandbox/:id/challenge", async (c) => {
  const lang = pageLang(c);
  const payment = await findPayment(c.env.DB, c.req.param("id"));
  if (!payment || payment.provider !== "sandbox") return html(c, renderMissingPage(lang), 404);
  if (payment.status !== "challenge")
    return c.redirect(payment.status === "initiated" ? pageAction(payment.id, lang) : payment.return_url, 303);
  const code = formText(await c.req.parseBody(), "code").trim();
  if (!/^\d{6}$/.test(code))
    return html(
      c,
      renderChallengePage(payment, lang, pageAction(payment.id, lang, "/challenge"), CARD_ERRORS.code[lang]),
      422,
    );
  return settle(
    c,
    payment.id,
    code === SANDBOX_3DS_CODE
      ? { status: "paid", message: null, threeDs: "passed" }
      : { status: "failed", message: "three_ds_failed", threeDs: "failed" },
  );
});

// --- the Tabby stand-in's hosted page (development and test) ----------------------------------

paymentsRoutes.use("/stand-in/*", async (c, next) => {
  if (!standInsEnabled(c.env)) return html(c, renderMissingPage(pageLang(c)), 404);
  await next();
});

const tabbyAction = (id: string, lang: Lang) => `${BACKEND_BASE}/payments/stand-in/tabby/${id}?lang=${lang}`;

paymentsRoutes.get("/stand-in/tabby/:id", async (c) => {
  const stored = await loadTabby(c.env.KV, c.req.param("id"));
  if (!stored) return html(c, renderMissingPage(pageLang(c)), 404);
  if (stored.payment.status !== "CREATED") return c.redirect(stored.urls.success, 303);
  return html(c, renderTabbyPage(stored, bnplRule(c.env, "tabby"), tabbyAction(stored.payment.id, stored.lang)));
});

paymentsRoutes.post("/stand-in/tabby/:id", async (c) => {
  const stored = await loadTabby(c.env.KV, c.req.param("id"));
  if (!stored) return html(c, renderMissingPage(pageLang(c)), 404);
  if (stored.payment.status !== "CREATED") return c.redirect(stored.urls.success, 303);
  const body = await c.req.parseBody();
  if (formText(body, "action") === "cancel") return c.redirect(stored.urls.cancel, 303);
  if (formText(body, "otp").trim() !== TABBY_TEST_OTP)
    return html(
      c,
      renderTabbyPage(stored, bnplRule(c.env, "tabby"), tabbyAction(stored.payment.id, stored.lang), true),
      422,
    );
  const rejected = formText(body, "email").trim().toLowerCase() === TABBY_REJECTED_EMAIL;
  stored.payment.status = rejected ? "REJECTED" : "AUTHORIZED";
  await saveTabby(c.env.KV, stored);
  // Tabby tells the shop by webhook, with the header registered for it, as the real one does.
  const { buyer: _buyer, created_at: _created, ...event } = stored.payment;
  await receiveWebhook(
    c.env.DB,
    c.env,
    "tabby",
    JSON.stringify({ ...event, status: event.status.toLowerCase() }),
    new Headers({ [TABBY_WEBHOOK_HEADER]: tabbyWebhookSecret(c.env) }),
  );
  return c.redirect(rejected ? stored.urls.failure : stored.urls.success, 303);
});

// --- the Tamara stand-in's hosted page (development and test) ---------------------------------

const tamaraAction = (id: string, lang: Lang) => `${BACKEND_BASE}/payments/stand-in/tamara/${id}?lang=${lang}`;
const withStatus = (url: string, id: string, status: string) => {
  const back = new URL(url);
  back.searchParams.set("orderId", id);
  back.searchParams.set("paymentStatus", status);
  return back.toString();
};

paymentsRoutes.get("/stand-in/tamara/:id", async (c) => {
  const stored = await loadTamara(c.env.KV, c.req.param("id"));
  if (!stored) return html(c, renderMissingPage(pageLang(c)), 404);
  if (stored.order.status !== "new") return c.redirect(stored.urls.success, 303);
  return html(c, renderTamaraPage(stored, bnplRule(c.env, "tamara"), tamaraAction(stored.order.order_id, stored.lang)));
});

paymentsRoutes.post("/stand-in/tamara/:id", async (c) => {
  const stored = await loadTamara(c.env.KV, c.req.param("id"));
  if (!stored) return html(c, renderMissingPage(pageLang(c)), 404);
  const id = stored.order.order_id;
  if (stored.order.status !== "new") return c.redirect(stored.urls.success, 303);
  const body = await c.req.parseBody();
  if (formText(body, "action") === "cancel") return c.redirect(withStatus(stored.urls.cancel, id, "canceled"), 303);
  if (formText(body, "code").trim() !== stored.code)
    return html(c, renderTamaraPage(stored, bnplRule(c.env, "tamara"), tamaraAction(id, stored.lang), true), 422);
  // Tamara's sandbox number that is declined at its checkout.
  if (saudiNationalDigits(formText(body, "phone")) === TAMARA_DECLINED_PHONE) {
    stored.order.status = "declined";
    await saveTamara(c.env.KV, stored);
    return c.redirect(withStatus(stored.urls.failure, id, "declined"), 303);
  }
  stored.order.status = "approved";
  await saveTamara(c.env.KV, stored);
  // Tamara tells the shop by webhook, with its JWT, as the real one does.
  const note = await tamaraNotification(tamaraNotificationToken(c.env), stored.order, "order_approved");
  await receiveWebhook(c.env.DB, c.env, "tamara", note.body, new Headers({ authorization: note.authorization }));
  return c.redirect(withStatus(stored.urls.success, id, "approved"), 303);
});

// --- the shop's calls ------------------------------------------------------------------------

paymentsRoutes.get("/:id/status", async (c) => {
  // Only whoever placed the order may read how its payment went (the authorisation matrix).
  const owner = await cartOwner(c);
  const payment = await findPayment(c.env.DB, c.req.param("id"));
  const order = payment ? await findOrderByNumber(c.env.DB, payment.order_number) : null;
  if (!order || !ownsOrder(order, owner)) throw notFound(say(c.get("lang"), msg("payments.notFound")));
  const query = new URLSearchParams(new URL(c.req.url).search);
  return ok(c, await paymentStatus(c.env.DB, c.env, c.req.param("id"), c.get("lang"), query));
});

paymentsRoutes.post(
  "/:number/start",
  validate("json", (m, lang) => {
    const required = say(lang, msg("payments.returnAddressRequired"));
    return v.object({
      return_url: v.pipe(v.string(required), v.minLength(1, required), v.maxLength(500)),
      method: v.optional(v.picklist(PAYMENT_METHODS, m.invalid("payment_method"))),
    });
  }),
  async (c) => {
    const owner = await cartOwner(c);
    // Each start is a call to the gateway and touches the order's hold: counted per shopper
    // (refused past the limit) and per network (challenged past it; a shopper who solved one at
    // checkout is cleared).
    await limitShopCall(c, "pay-start", [`pay-start:owner:${ownerKey(owner)}`], ownerKey(owner));
    const origin = publicOrigin(c.env, c.req.url);
    return ok(
      c,
      await startPayment(
        c.env.DB,
        c.env,
        owner,
        c.req.param("number"),
        c.req.valid("json").return_url,
        c.get("lang"),
        origin,
        c.req.valid("json").method,
      ),
    );
  },
);

// --- STC Pay on the shop's page: the wallet's number, then its code ---------------------------

/** A short text field whose checks (the number's form, the code's) are the service's own. */
const typed = (field: "mobile" | "otp") =>
  validate("json", (m) =>
    v.object({ [field]: v.pipe(v.string(m.required(field)), v.maxLength(32, m.invalid(field))) }),
  );

paymentsRoutes.post("/:id/stcpay", typed("mobile"), async (c) => {
  const owner = await cartOwner(c);
  // Each number is a payment at the gateway and a text message to a phone: counted like a start.
  await limitShopCall(c, "pay-start", [`pay-start:owner:${ownerKey(owner)}`], ownerKey(owner));
  const { mobile } = c.req.valid("json") as { mobile: string };
  return ok(
    c,
    await stcPayMobile(
      c.env.DB,
      c.env,
      owner,
      c.req.param("id"),
      mobile,
      c.get("lang"),
      publicOrigin(c.env, c.req.url),
    ),
  );
});

// --- Cash on delivery: the code texted to the delivery phone confirms the order ----------------

paymentsRoutes.post("/:id/cod", typed("otp"), async (c) => {
  const owner = await cartOwner(c);
  await enforceLimits(c, "SHOP_LIMITER", [`pay-otp:owner:${ownerKey(owner)}`]);
  const { otp } = c.req.valid("json") as { otp: string };
  const lang = c.get("lang");
  const order = await confirmCod(c.env, owner, c.req.param("id"), otp, lang);
  return ok(c, await presentOrder(c.env.DB, order, lang));
});

paymentsRoutes.post("/:id/stcpay/otp", typed("otp"), async (c) => {
  const owner = await cartOwner(c);
  await enforceLimits(c, "SHOP_LIMITER", [`pay-otp:owner:${ownerKey(owner)}`]);
  const { otp } = c.req.valid("json") as { otp: string };
  return ok(c, await stcPayOtp(c.env.DB, c.env, owner, c.req.param("id"), otp, c.get("lang")));
});
