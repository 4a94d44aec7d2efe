import type { Env } from "../../env";
import { outboxReadable } from "./messenger";
import { sameSecret, verifyHmac } from "../payments/providers/hmac";

/**
 * WhatsApp's keys: the app secret that signs Meta's webhooks, the verify token of its subscription
 * handshake, and the stand-in's development values. Apart from the adapter (whatsapp.ts), so the
 * webhook and the stand-in read them without importing the adapter.
 */

/** The stand-in's own address and development credentials (whatsapp-stand-in.ts). */
export const WHATSAPP_STAND_IN = {
  /** The shop's own dev route; in-process calls use the same path under an unroutable host. */
  path: "/backend/dev/whatsapp",
  base: "https://whatsapp.stand-in.invalid/backend/dev/whatsapp",
  phoneNumberId: "106540352242922",
  token: "stand-in-whatsapp-token",
  appSecret: "stand-in-whatsapp-app-secret",
  verifyToken: "stand-in-whatsapp-verify-token",
} as const;

/** The development and test secrets when none is set (the stand-in signs with the same). */
export function whatsappAppSecret(env: Pick<Env, "ENVIRONMENT" | "WHATSAPP_APP_SECRET">): string | null {
  const secret = env.WHATSAPP_APP_SECRET?.trim();
  if (secret) return secret;
  return outboxReadable(env) ? WHATSAPP_STAND_IN.appSecret : null;
}

export function whatsappVerifyToken(env: Pick<Env, "ENVIRONMENT" | "WHATSAPP_VERIFY_TOKEN">): string | null {
  const token = env.WHATSAPP_VERIFY_TOKEN?.trim();
  if (token) return token;
  return outboxReadable(env) ? WHATSAPP_STAND_IN.verifyToken : null;
}

/**
 * Meta's webhook signature: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with
 * the app secret>`, compared in constant time. A missing or malformed header is false.
 */
export function verifyWhatsAppSignature(secret: string, raw: string, header: string | null | undefined) {
  if (!header || !/^sha256=[0-9a-f]{64}$/i.test(header.trim())) return Promise.resolve(false);
  return verifyHmac(secret, raw, header);
}

/** The subscription handshake's token, compared in constant time. */
export function sameVerifyToken(expected: string, given: string): Promise<boolean> {
  return sameSecret(expected, given);
}
