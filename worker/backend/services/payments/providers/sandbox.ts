import type { Lang } from "../../../env";
import { escapeHtml } from "../../../../../contract/server/html";
import { hmacHex, verifyHmac } from "./hmac";
import {
  WebhookRejected,
  type PaymentProvider,
  type PaymentRecord,
  type ProviderResult,
  type WebhookEvent,
} from "./types";
import { msg } from "../../../messages";

/**
 * The sandbox gateway: hosts its own card page inside the backend so the whole payment flow runs
 * offline. It reports results as webhook events signed with HMAC-SHA256 (PAYMENT_SECRET) over the
 * raw body in `x-signature`, exactly as a remote gateway would, so the same verification applies.
 *
 * Test cards (any future expiry, any 3-digit CVC):
 *   4242 4242 4242 4242  succeeds
 *   4000 0000 0000 0002  is declined
 *   4000 0000 0000 3220  asks for a 3-D Secure code; 123456 passes, anything else fails
 */

export const SANDBOX_CARDS = {
  success: "4242424242424242",
  decline: "4000000000000002",
  threeDs: "4000000000003220",
} as const;
export const SANDBOX_3DS_CODE = "123456";
/** A refund of exactly this amount (13.13 SAR, in halalas) is declined, so the failure path can be tried. */
export const SANDBOX_REFUND_DECLINED_AMOUNT = 1313;

export type CardOutcome = "paid" | "declined" | "challenge";

interface SandboxEventBody {
  id: string;
  type: "payment.paid" | "payment.failed";
  data: {
    payment_id: string;
    provider_ref: string | null;
    status: "paid" | "failed";
    message: string | null;
    three_ds: "passed" | "failed" | null;
    amount: number;
    currency: string;
  };
}

const randomId = (prefix: string) => `${prefix}_${crypto.randomUUID().replace(/-/g, "")}`;

export function sandboxProvider(secret: string): PaymentProvider {
  return {
    name: "sandbox",
    async start({ payment, backendBase, lang }) {
      return {
        redirectUrl: `${backendBase}/payments/sandbox/${payment.id}?lang=${lang}`,
        providerRef: randomId("sbx"),
      };
    },
    // The sandbox delivers every result as a signed event the moment the card page decides it,
    // so a return has nothing to add.
    async verifyReturn() {
      return null;
    },
    // Refunds settle at once; one amount is declined (SANDBOX_REFUND_DECLINED_AMOUNT).
    async refund(_payment, amount) {
      if (amount === SANDBOX_REFUND_DECLINED_AMOUNT)
        return { status: "failed", providerRef: null, message: "refund_declined" };
      return { status: "succeeded", providerRef: randomId("rfd"), message: null };
    },
    async parseWebhook(rawBody: string, headers: Headers): Promise<WebhookEvent> {
      if (!(await verifyHmac(secret, rawBody, headers.get("x-signature")))) throw new WebhookRejected("bad signature");
      let body: SandboxEventBody;
      try {
        body = JSON.parse(rawBody) as SandboxEventBody;
      } catch {
        throw new WebhookRejected("body is not JSON");
      }
      if (typeof body?.id !== "string" || typeof body.data?.payment_id !== "string")
        throw new WebhookRejected("not a sandbox event");
      const result: ProviderResult = {
        paymentId: body.data.payment_id,
        status: body.data.status === "paid" ? "paid" : "failed",
        providerRef: body.data.provider_ref,
        message: body.data.message,
        threeDs: body.data.three_ds,
        amount: body.data.amount,
        currency: body.data.currency,
      };
      return { eventId: body.id, type: body.type, result };
    },
  };
}

/** The signed event the sandbox sends for a decided payment: raw body and its signature. */
export async function sandboxEvent(
  secret: string,
  payment: PaymentRecord,
  outcome: { status: "paid" | "failed"; message: string | null; threeDs: "passed" | "failed" | null },
): Promise<{ body: string; signature: string }> {
  const event: SandboxEventBody = {
    id: randomId("evt"),
    type: outcome.status === "paid" ? "payment.paid" : "payment.failed",
    data: {
      payment_id: payment.id,
      provider_ref: payment.provider_ref,
      status: outcome.status,
      message: outcome.message,
      three_ds: outcome.threeDs,
      amount: payment.amount,
      currency: payment.currency,
    },
  };
  const body = JSON.stringify(event);
  return { body, signature: await hmacHex(secret, body) };
}

// ---------------------------------------------------------------------------------------------
// The hosted card page: plain HTML forms, no script, styles in the document (the CSP allows
// inline styles, never inline scripts), labelled inputs, both languages.

// Latin runs inside Arabic text (3-D Secure) sit in Unicode isolates (LRI … PDI) so they keep
// their order; they work in <title> as well as in the body.
const TEXT = {
  title: msg("payments.sandbox.title"),
  intro: msg("payments.sandbox.intro"),
  order: msg("payments.sandbox.order"),
  amount: msg("payments.sandbox.amount"),
  cardNumber: msg("payments.sandbox.cardNumber"),
  expiry: msg("payments.sandbox.expiry"),
  cvc: msg("payments.sandbox.cvc"),
  name: msg("payments.sandbox.name"),
  pay: msg("payments.sandbox.pay"),
  cancel: msg("payments.sandbox.cancel"),
  testCards: msg("payments.sandbox.testCards"),
  cardSuccess: msg("payments.sandbox.cardSuccess"),
  cardDecline: msg("payments.sandbox.cardDecline"),
  card3ds: msg("payments.sandbox.card3ds"),
  anyExpiry: msg("payments.sandbox.anyExpiry"),
  challengeTitle: msg("payments.sandbox.challengeTitle"),
  challengeIntro: msg("payments.sandbox.challengeIntro"),
  code: msg("payments.sandbox.code"),
  confirm: msg("payments.sandbox.confirm"),
  notFound: msg("payments.sandbox.notFound"),
  errorsTitle: msg("payments.sandbox.errorsTitle"),
} as const;

export const CARD_ERRORS = {
  number: msg("payments.sandbox.cardErrors.number"),
  notTestCard: msg("payments.sandbox.cardErrors.notTestCard"),
  expiry: msg("payments.sandbox.cardErrors.expiry"),
  cvc: msg("payments.sandbox.cardErrors.cvc"),
  code: msg("payments.sandbox.cardErrors.code"),
} as const;

const t = (lang: Lang, key: keyof typeof TEXT): string => TEXT[key][lang];

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export interface CardForm {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}

/** Checks the card form; answers field errors, or what the sandbox does with the card. */
export function decideCard(
  form: CardForm,
  lang: Lang,
  now = new Date(),
): { errors: Partial<Record<keyof CardForm, string>> } | { outcome: CardOutcome } {
  const errors: Partial<Record<keyof CardForm, string>> = {};
  const digits = form.number.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) errors.number = CARD_ERRORS.number[lang];
  else if (!Object.values(SANDBOX_CARDS).includes(digits as never)) errors.number = CARD_ERRORS.notTestCard[lang];
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(form.expiry);
  if (!expiry) errors.expiry = CARD_ERRORS.expiry[lang];
  else {
    const month = Number(expiry[1]);
    const year = expiry[2].length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
    const endOfMonth = new Date(Date.UTC(year, month, 1));
    if (month < 1 || month > 12 || endOfMonth <= now) errors.expiry = CARD_ERRORS.expiry[lang];
  }
  if (!/^\d{3,4}$/.test(form.cvc.trim())) errors.cvc = CARD_ERRORS.cvc[lang];
  if (Object.keys(errors).length) return { errors };
  if (digits === SANDBOX_CARDS.threeDs) return { outcome: "challenge" };
  return { outcome: digits === SANDBOX_CARDS.success ? "paid" : "declined" };
}

const STYLE = `
:root { color-scheme: light; --ink: #0f172a; --muted: #475569; --line: #cbd5e1; --brand: #0b5cad; --bad: #b42318; --bg: #f1f5f9; }
* { box-sizing: border-box; }
body { margin: 0; min-block-size: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--ink);
  font: 16px/1.5 system-ui, "Segoe UI", Tahoma, "Noto Sans Arabic", sans-serif; padding: 1rem; }
main { inline-size: min(100%, 26rem); background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 1.5rem; box-shadow: 0 8px 24px rgb(15 23 42 / 0.08); }
h1 { font-size: 1.35rem; margin: 0 0 0.25rem; }
h2 { font-size: 1rem; margin: 1.5rem 0 0.5rem; }
p { margin: 0 0 1rem; color: var(--muted); }
dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; margin: 0 0 1.25rem; padding: 0.75rem 1rem; background: var(--bg); border-radius: 8px; }
dt { color: var(--muted); } dd { margin: 0; font-weight: 600; text-align: end; }
label { display: block; font-weight: 600; margin-block: 0.75rem 0.25rem; }
input { inline-size: 100%; font: inherit; padding: 0.6rem 0.75rem; border: 1px solid var(--line); border-radius: 8px; }
input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid var(--brand); outline-offset: 2px; }
input[aria-invalid="true"] { border-color: var(--bad); }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: 0.75rem; }
.error { color: var(--bad); font-size: 0.9rem; margin: 0.25rem 0 0; }
.summary { border: 1px solid var(--bad); color: var(--bad); border-radius: 8px; padding: 0.75rem 1rem; margin-block-end: 1rem; }
.summary ul { margin: 0.25rem 0 0; padding-inline-start: 1.25rem; }
button { font: inherit; font-weight: 700; margin-block-start: 1.25rem; inline-size: 100%; padding: 0.75rem; border: 0; border-radius: 8px; background: var(--brand); color: #fff; cursor: pointer; }
button.secondary { background: transparent; color: var(--brand); border: 1px solid var(--line); margin-block-start: 0.5rem; font-weight: 600; }
table { inline-size: 100%; border-collapse: collapse; font-size: 0.9rem; }
th, td { text-align: start; padding: 0.35rem 0; border-block-end: 1px solid var(--line); }
td:first-child { white-space: nowrap; padding-inline-end: 1rem; }
.note { font-size: 0.85rem; margin-block-start: 0.5rem; }
@media (max-width: 380px) { .row { grid-template-columns: 1fr; } main { padding: 1rem; } }
`;

/**
 * The shop's icon, inline: without one the browser asks for /favicon.ico (a 404), and the page is
 * the provider's, so it must not depend on what the shop's origin serves.
 */
const FAVICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="10" fill="#0f5fd7"/><path d="M12 27V13h6.5a4.5 4.5 0 0 1 0 9H15m7 5 6-14" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>',
)}`;

export function page(lang: Lang, title: string, body: string): string {
  const dir = lang === "ar" ? "rtl" : "ltr";
  const htmlLang = lang === "ar" ? "ar-SA" : "en-US";
  return `<!doctype html>
<html lang="${htmlLang}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${FAVICON}">
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export interface PagePayment {
  id: string;
  order_number: string;
  amount: number;
  currency: string;
}

export function money(amount: number, currency: string, lang: Lang): string {
  return new Intl.NumberFormat(lang === "ar" ? "ar-SA-u-nu-latn" : "en-US", { style: "currency", currency }).format(
    amount / 100,
  );
}

export function summary(payment: PagePayment, lang: Lang): string {
  return `<dl>
<dt>${t(lang, "order")}</dt><dd><bdi>${escapeHtml(payment.order_number)}</bdi></dd>
<dt>${t(lang, "amount")}</dt><dd><bdi>${escapeHtml(money(payment.amount, payment.currency, lang))}</bdi></dd>
</dl>`;
}

export function errorSummary(lang: Lang, messages: string[]): string {
  if (!messages.length) return "";
  return `<div class="summary" role="alert"><strong>${t(lang, "errorsTitle")}</strong><ul>${messages.map((m) => `<li>${escapeHtml(m)}</li>`).join("")}</ul></div>`;
}

export function field(opts: {
  id: string;
  name: string;
  label: string;
  value?: string;
  error?: string;
  attrs: string;
  /** Digits (card number, expiry, codes) are LTR; a person's name follows its own script ("auto"). */
  dir?: "ltr" | "auto";
}): string {
  const describedBy = opts.error ? ` aria-invalid="true" aria-describedby="${opts.id}-error"` : "";
  return `<div>
<label for="${opts.id}">${escapeHtml(opts.label)}</label>
<input id="${opts.id}" name="${opts.name}" value="${escapeHtml(opts.value ?? "")}" dir="${opts.dir ?? "ltr"}" ${opts.attrs}${describedBy}>
${opts.error ? `<p class="error" id="${opts.id}-error">${escapeHtml(opts.error)}</p>` : ""}
</div>`;
}

/** The card form; `action` is the page's own URL. */
export function renderCardPage(
  payment: PagePayment,
  lang: Lang,
  action: string,
  state: { values?: Partial<CardForm>; errors?: Partial<Record<keyof CardForm, string>> } = {},
): string {
  const errors = state.errors ?? {};
  const values = state.values ?? {};
  const body = `<h1>${t(lang, "title")}</h1>
<p>${t(lang, "intro")}</p>
${summary(payment, lang)}
${errorSummary(
  lang,
  Object.values(errors).filter((m): m is string => !!m),
)}
<form method="post" action="${escapeHtml(action)}" novalidate>
${field({ id: "card-number", name: "card_number", label: t(lang, "cardNumber"), value: values.number, error: errors.number, attrs: 'inputmode="numeric" autocomplete="cc-number" required maxlength="23"' })}
<div class="row">
${field({ id: "card-expiry", name: "expiry", label: t(lang, "expiry"), value: values.expiry, error: errors.expiry, attrs: 'inputmode="numeric" autocomplete="cc-exp" placeholder="12/30" required maxlength="7"' })}
${field({ id: "card-cvc", name: "cvc", label: t(lang, "cvc"), value: values.cvc, error: errors.cvc, attrs: 'inputmode="numeric" autocomplete="cc-csc" required maxlength="4"' })}
</div>
${field({ id: "card-name", name: "name", label: t(lang, "name"), value: values.name, dir: "auto", attrs: 'autocomplete="cc-name" maxlength="80"' })}
<button type="submit" name="action" value="pay">${t(lang, "pay")} <bdi>${escapeHtml(money(payment.amount, payment.currency, lang))}</bdi></button>
<button type="submit" name="action" value="cancel" class="secondary" formnovalidate>${t(lang, "cancel")}</button>
</form>
<h2>${t(lang, "testCards")}</h2>
<table>
<tbody>
<tr><td><bdi dir="ltr">4242 4242 4242 4242</bdi></td><td>${t(lang, "cardSuccess")}</td></tr>
<tr><td><bdi dir="ltr">4000 0000 0000 0002</bdi></td><td>${t(lang, "cardDecline")}</td></tr>
<tr><td><bdi dir="ltr">4000 0000 0000 3220</bdi></td><td>${t(lang, "card3ds")}</td></tr>
</tbody>
</table>
<p class="note">${t(lang, "anyExpiry")}</p>`;
  return page(lang, t(lang, "title"), body);
}

/** The 3-D Secure step: one labelled code field. */
export function renderChallengePage(payment: PagePayment, lang: Lang, action: string, error?: string): string {
  const body = `<h1>${t(lang, "challengeTitle")}</h1>
<p>${t(lang, "challengeIntro")}</p>
${summary(payment, lang)}
${errorSummary(lang, error ? [error] : [])}
<form method="post" action="${escapeHtml(action)}" novalidate>
${field({ id: "otp-code", name: "code", label: t(lang, "code"), error, attrs: 'inputmode="numeric" autocomplete="one-time-code" required maxlength="6"' })}
<button type="submit">${t(lang, "confirm")}</button>
</form>`;
  return page(lang, t(lang, "challengeTitle"), body);
}

export function renderMissingPage(lang: Lang): string {
  return page(lang, t(lang, "title"), `<h1>${t(lang, "title")}</h1><p>${t(lang, "notFound")}</p>`);
}
