import type { Env, Lang } from "../../../env";
import { BackendError } from "../../../http";
import { say, type Bilingual } from "../../../../../contract/server/i18n";
import { pepper } from "../../accounts/password";
import { moyasarProvider } from "./moyasar";
import { MOYASAR_STAND_IN_BASE, MOYASAR_STAND_IN_KEY, moyasarStandIn } from "./moyasar-stand-in";
import { tabbyProvider } from "./tabby";
import { TAMARA_API, tamaraProvider } from "./tamara";
import { TAMARA_STAND_IN_BASE, TAMARA_STAND_IN_TOKEN, tamaraStandIn } from "./tamara-stand-in";
import { TABBY_STAND_IN_BASE, TABBY_STAND_IN_KEY, TABBY_STAND_IN_MERCHANT, tabbyStandIn } from "./tabby-stand-in";
import {
  BNPL_PAYMENTS,
  BNPL_PROVIDERS,
  type BnplProvider,
  type InstalmentRule,
} from "../../../../../contract/instalments";
import { hmacHex } from "./hmac";
import { sandboxProvider } from "./sandbox";
import { cashOnDeliveryProvider } from "./cod";
import type { PaymentProvider, StcPayGateway } from "./types";
import type { PaymentMethodId } from "../../../../../contract/checkout";
import { msg } from "../../../messages";

/**
 * One interface for every payment gateway (DESIGN §6). The backend starts a payment, sends the
 * shopper to `redirectUrl`, and learns the result either from the provider's signed webhook or
 * by verifying the return with the provider. Results are applied idempotently elsewhere
 * (services/payments/payments.ts); a provider only speaks its gateway's language.
 */

export type {
  BnplOrder,
  PaymentProvider,
  PaymentRecord,
  ProviderResult,
  RefundResult,
  StartInput,
  StcPayGateway,
  WebhookEvent,
} from "./types";
export { PaymentRefused, WebhookRejected } from "./types";

export const PROVIDERS = ["sandbox", "moyasar"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** Development and test run the sandbox and development keys; anything else counts as production. */
const isDevelopment = (env: Pick<Env, "ENVIRONMENT">) =>
  env.ENVIRONMENT === "development" || env.ENVIRONMENT === "test";

/**
 * The sandbox takes test cards, so it may pay real orders for nothing: it runs in development
 * and test only, unless the operator sets this loudly named opt-in (a demo shop that ships nothing).
 */
export const SANDBOX_OPT_IN = "UNSAFE_SANDBOX_PAYMENTS_IN_PRODUCTION";

/** The providers' offline stand-ins (their APIs and hosted pages) exist in development and test only. */
export const standInsEnabled = (env: Pick<Env, "ENVIRONMENT">) => isDevelopment(env);

export function sandboxEnabled(env: Pick<Env, "ENVIRONMENT" | "UNSAFE_SANDBOX_PAYMENTS_IN_PRODUCTION">): boolean {
  return isDevelopment(env) || env.UNSAFE_SANDBOX_PAYMENTS_IN_PRODUCTION === "true";
}

/**
 * The gateway's webhook key (Moyasar's secret token). Fails closed outside development and test,
 * as the pepper does: a missing secret must never fall back to a public string.
 */
export function paymentSecret(env: Pick<Env, "PAYMENT_SECRET" | "ENVIRONMENT">): string {
  if (env.PAYMENT_SECRET) return env.PAYMENT_SECRET;
  if (isDevelopment(env)) return "development-payment-secret";
  throw new Error("PAYMENT_SECRET is not set: set it with `wrangler secret put PAYMENT_SECRET`.");
}

/**
 * The sandbox's own signing key, shared with no gateway: SANDBOX_SECRET when set, else derived
 * from the pepper. Never PAYMENT_SECRET, which Moyasar echoes in every webhook body.
 */
export async function sandboxSecret(env: Pick<Env, "SANDBOX_SECRET" | "AUTH_PEPPER" | "ENVIRONMENT">): Promise<string> {
  if (env.SANDBOX_SECRET) return env.SANDBOX_SECRET;
  return hmacHex(pepper(env), "sandbox-payments-signing-key");
}

export type ProviderChoice = { name: ProviderName; reason: null } | { name: null; reason: string };

/**
 * The provider PAYMENT_PROVIDER names, once it can really take payments here; otherwise why not.
 * Unset means the sandbox in development and test, and no provider at all in production.
 */
export function configuredProvider(env: Env): ProviderChoice {
  const given = (env.PAYMENT_PROVIDER ?? "").trim().toLowerCase();
  const name = given || (isDevelopment(env) ? "sandbox" : "");
  if (!name)
    return { name: null, reason: "PAYMENT_PROVIDER is not set; a live shop needs a real payment provider (moyasar)." };
  if (!(PROVIDERS as readonly string[]).includes(name))
    return { name: null, reason: `PAYMENT_PROVIDER "${given}" is not one of ${PROVIDERS.join(", ")}.` };
  if (name === "sandbox" && !sandboxEnabled(env)) {
    return {
      name: null,
      reason: `The sandbox provider accepts test cards, so it is off in production unless ${SANDBOX_OPT_IN}=true.`,
    };
  }
  if (name === "moyasar" && !env.MOYASAR_SECRET_KEY)
    return { name: null, reason: "PAYMENT_PROVIDER is moyasar but MOYASAR_SECRET_KEY is not set." };
  if (name === "moyasar" && !env.PAYMENT_SECRET && !isDevelopment(env))
    return { name: null, reason: "PAYMENT_PROVIDER is moyasar but PAYMENT_SECRET (its webhook key) is not set." };
  return { name: name as ProviderName, reason: null };
}

/**
 * A provider by name (default: the configured one), only while it can run here: the sandbox in
 * development and test (or with the opt-in), Moyasar with its keys. Anything else is null, so
 * its pages and webhook answer 404 and nothing it says is applied.
 */
export async function paymentProvider(env: Env, name?: string): Promise<PaymentProvider | null> {
  const wanted = name ?? configuredProvider(env).name;
  if (wanted === "sandbox") return sandboxEnabled(env) ? sandboxProvider(await sandboxSecret(env)) : null;
  if (wanted === "moyasar") return moyasarGateway(env);
  if (wanted === "tabby") return tabbyGateway(env);
  if (wanted === "tamara") return tamaraGateway(env);
  if (wanted === "cod") return cashOnDeliveryProvider(env);
  return null;
}

/** A whole number of riyals from configuration, in halalas; `fallback` when unset or not one. */
function riyals(value: string | undefined, fallback: number): number {
  const n = Number((value ?? "").trim());
  return (value ?? "").trim() !== "" && Number.isInteger(n) && n >= 0 ? n * 100 : fallback * 100;
}

/** Each pay-later provider's limits from configuration: whole riyals (the provider sets them per merchant). */
const LIMITS: Record<BnplProvider, { min: keyof Env; max: keyof Env; defaults: [number, number] }> = {
  tabby: { min: "TABBY_MIN_SAR", max: "TABBY_MAX_SAR", defaults: [10, 10_000] },
  tamara: { min: "TAMARA_MIN_SAR", max: "TAMARA_MAX_SAR", defaults: [100, 20_000] },
};

/** A pay-later provider's split as this shop's contract with it has it. */
export function bnplRule(env: Env, provider: BnplProvider): InstalmentRule {
  const limits = LIMITS[provider];
  return {
    provider,
    count: BNPL_PAYMENTS[provider],
    min: riyals(env[limits.min] as string | undefined, limits.defaults[0]),
    max: riyals(env[limits.max] as string | undefined, limits.defaults[1]),
  };
}

/**
 * Tabby with its keys (the secret key, the merchant code, the webhook's header value); in
 * development and test without them, the same adapter against the stand-in (tabby-stand-in.ts).
 */
export function tabbyGateway(env: Env): PaymentProvider | null {
  if (env.TABBY_SECRET_KEY) {
    if (!env.TABBY_MERCHANT_CODE || (!env.TABBY_WEBHOOK_SECRET && !isDevelopment(env))) return null;
    return tabbyProvider({
      secretKey: env.TABBY_SECRET_KEY,
      merchantCode: env.TABBY_MERCHANT_CODE,
      webhookSecret: env.TABBY_WEBHOOK_SECRET ?? "development-tabby-webhook-secret",
    });
  }
  if (!isDevelopment(env)) return null;
  return tabbyProvider({
    secretKey: TABBY_STAND_IN_KEY,
    merchantCode: TABBY_STAND_IN_MERCHANT,
    webhookSecret: tabbyWebhookSecret(env),
    apiBase: TABBY_STAND_IN_BASE,
    fetcher: tabbyStandIn(env.KV, bnplRule(env, "tabby")),
  });
}

/** The value Tabby's webhooks carry in their header (the development one only in development and test). */
export function tabbyWebhookSecret(env: Env): string {
  return env.TABBY_WEBHOOK_SECRET ?? "development-tabby-webhook-secret";
}

/**
 * Tamara with its tokens (the API token, and the notification token that signs its webhooks); in
 * development and test without them, the same adapter against the stand-in (tamara-stand-in.ts).
 */
export function tamaraGateway(env: Env): PaymentProvider | null {
  if (env.TAMARA_API_TOKEN) {
    if (!env.TAMARA_NOTIFICATION_TOKEN && !isDevelopment(env)) return null;
    return tamaraProvider({
      apiToken: env.TAMARA_API_TOKEN,
      notificationToken: tamaraNotificationToken(env),
      apiBase: env.TAMARA_API_URL?.trim() || TAMARA_API,
    });
  }
  if (!isDevelopment(env)) return null;
  return tamaraProvider({
    apiToken: TAMARA_STAND_IN_TOKEN,
    notificationToken: tamaraNotificationToken(env),
    apiBase: TAMARA_STAND_IN_BASE,
    fetcher: tamaraStandIn(env.KV, bnplRule(env, "tamara")),
  });
}

/** The key of Tamara's webhook JWTs (the development one only in development and test). */
export function tamaraNotificationToken(env: Env): string {
  return env.TAMARA_NOTIFICATION_TOKEN ?? "development-tamara-notification-token";
}

/** The split of each pay-later method the shop offers, for the lines under prices. */
export function instalmentRules(env: Env): InstalmentRule[] {
  const offered = enabledPaymentMethods(env);
  return BNPL_PROVIDERS.filter((p) => offered.includes(p)).map((p) => bnplRule(env, p));
}

/**
 * Moyasar, with its keys; in development and test without them, the same adapter against the
 * offline stand-in of its payments API (moyasar-stand-in.ts). Outside development, no key, no gateway.
 */
export function moyasarGateway(env: Env): (PaymentProvider & StcPayGateway) | null {
  if (env.MOYASAR_SECRET_KEY) {
    if (!env.PAYMENT_SECRET && !isDevelopment(env)) return null;
    return moyasarProvider({ secretKey: env.MOYASAR_SECRET_KEY, webhookSecret: paymentSecret(env) });
  }
  if (!isDevelopment(env)) return null;
  return moyasarProvider({
    secretKey: MOYASAR_STAND_IN_KEY,
    webhookSecret: paymentSecret(env),
    apiBase: MOYASAR_STAND_IN_BASE,
    fetcher: moyasarStandIn(env.KV),
  });
}

/**
 * The methods a shopper may pay with, in the order shown. `card` whenever a provider is
 * configured (none otherwise); `stcpay` when PAYMENT_METHODS lists it and Moyasar (or, in development and test,
 * its stand-in) can take it. PAYMENT_METHODS unset: the card page only in production, every
 * method in development and test (each against its stand-in), so all of them can be tried.
 */
export function enabledPaymentMethods(env: Env): PaymentMethodId[] {
  const given = env.PAYMENT_METHODS?.trim() || (isDevelopment(env) ? "card,stcpay,tabby,tamara,cod" : "card");
  const listed = new Set(given.split(",").map((m) => m.trim().toLowerCase()));
  // The card page is the shop's base method: without a provider for it, the shop takes no orders.
  if (!configuredProvider(env).name) return [];
  const methods: PaymentMethodId[] = ["card"];
  if (listed.has("stcpay") && moyasarGateway(env)) methods.push("stcpay");
  if (listed.has("tabby") && tabbyGateway(env)) methods.push("tabby");
  if (listed.has("tamara") && tamaraGateway(env)) methods.push("tamara");
  // Cash needs no gateway; the store's settings say whether and up to what total (checkout.ts).
  if (listed.has("cod")) methods.push("cod");
  return methods;
}

const NOT_TAKING_PAYMENTS: Bilingual = msg("payments.providers.noneConfigured");

/**
 * Checkout and payment start refuse, with a clear 503, when no provider can take the payment,
 * instead of taking orders the shop cannot charge. The reason goes to the operator's log.
 */
export function requirePaymentProvider(env: Env, lang: Lang): ProviderName {
  const choice = configuredProvider(env);
  if (choice.name) return choice.name;
  console.error(JSON.stringify({ level: "error", event: "payments.not_configured", reason: choice.reason }));
  throw new BackendError(503, say(lang, NOT_TAKING_PAYMENTS));
}
