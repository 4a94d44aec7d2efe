import type { Env } from "../../../env";
import type { Lang } from "../../env";
import { moyasarProvider } from "./moyasar";
import { sandboxProvider } from "./sandbox";

/**
 * One interface for every payment gateway (DESIGN §6). The backend starts a payment, sends the
 * shopper to `redirectUrl`, and learns the result either from the provider's signed webhook or
 * by verifying the return with the provider. Results are applied idempotently elsewhere
 * (services/payments.ts); a provider only speaks its gateway's language.
 */

export interface PaymentRecord {
  id: string;
  order_id: number;
  order_number: string;
  provider: string;
  status: "initiated" | "challenge" | "paid" | "failed";
  amount: number;
  currency: string;
  provider_ref: string | null;
  return_url: string;
}

/** What a provider reports about a payment. `pending`: nothing final yet. */
export interface ProviderResult {
  /** Our payment id; empty when the gateway only names its own reference (`providerRef`). */
  paymentId: string;
  status: "paid" | "failed" | "pending";
  providerRef: string | null;
  /** The gateway's reason, shown to the shopper on a failure. */
  message: string | null;
  threeDs?: "passed" | "failed" | null;
  /** Amount and currency the gateway confirmed, checked against the payment. */
  amount?: number;
  currency?: string;
}

export interface WebhookEvent {
  /** The provider's event id: the webhook is applied once per id. */
  eventId: string;
  type: string;
  result: ProviderResult | null;
}

export interface StartInput {
  payment: PaymentRecord;
  email: string;
  lang: Lang;
  /** Absolute origin of the shop, for gateways that need absolute URLs. */
  origin: string;
  /** Where the backend is reachable from the browser (e.g. /backend). */
  backendBase: string;
  /** The shopper's return address with payment_id and order already added (same-origin path). */
  returnPath: string;
}

export interface PaymentProvider {
  readonly name: string;
  /** Creates the payment at the gateway; answers where to send the shopper. */
  start(input: StartInput): Promise<{ redirectUrl: string; providerRef: string | null }>;
  /** Asks the gateway for a payment's state after the shopper came back; null: nothing to add. */
  verifyReturn(payment: PaymentRecord, params: URLSearchParams): Promise<ProviderResult | null>;
  /** Verifies a webhook's signature over the raw body and parses it; throws WebhookRejected. */
  parseWebhook(rawBody: string, headers: Headers): Promise<WebhookEvent>;
}

export class WebhookRejected extends Error {}

export const PROVIDERS = ["sandbox", "moyasar"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** The payments HMAC key; a fixed development key outside production, never in production. */
export function paymentSecret(env: Env): string {
  if (env.PAYMENT_SECRET) return env.PAYMENT_SECRET;
  if (env.ENVIRONMENT === "production") throw new Error("PAYMENT_SECRET is not set");
  return "development-payment-secret";
}

/** The provider configured by PAYMENT_PROVIDER (default sandbox). */
export function configuredProviderName(env: Env): ProviderName {
  const name = (env.PAYMENT_PROVIDER ?? "sandbox").trim().toLowerCase();
  return (PROVIDERS as readonly string[]).includes(name) ? (name as ProviderName) : "sandbox";
}

export function paymentProvider(env: Env, name: string = configuredProviderName(env)): PaymentProvider | null {
  if (name === "sandbox") return sandboxProvider(paymentSecret(env));
  if (name === "moyasar") return moyasarProvider({ secretKey: env.MOYASAR_SECRET_KEY ?? "", webhookSecret: paymentSecret(env) });
  return null;
}

const encoder = new TextEncoder();

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** Hex HMAC-SHA256 of a message. */
export async function hmacHex(secret: string, message: string): Promise<string> {
  const sig = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(message));
  return [...new Uint8Array(sig)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Constant-time check of a hex HMAC-SHA256 signature (accepts a `sha256=` prefix). */
export async function verifyHmac(secret: string, message: string, signature: string | null | undefined): Promise<boolean> {
  const hex = (signature ?? "").trim().replace(/^sha256=/i, "");
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  const bytes = new Uint8Array(hex.match(/../g)!.map((h) => parseInt(h, 16)));
  return crypto.subtle.verify("HMAC", await hmacKey(secret), bytes, encoder.encode(message));
}

/** Constant-time equality of two strings (for shared-secret tokens). */
export async function sameSecret(a: string, b: string): Promise<boolean> {
  const key = await hmacKey("compare");
  const [x, y] = await Promise.all([crypto.subtle.sign("HMAC", key, encoder.encode(a)), crypto.subtle.sign("HMAC", key, encoder.encode(b))]);
  const ax = new Uint8Array(x);
  const by = new Uint8Array(y);
  let diff = 0;
  for (let i = 0; i < ax.length; i++) diff |= ax[i] ^ by[i];
  return diff === 0;
}
