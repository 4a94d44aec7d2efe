import type { Context } from "hono";
import {
  CHALLENGE_FAILED_STATUS,
  CHALLENGE_HEADER,
  CHALLENGE_REQUIRED_STATUS,
  type Challenge,
} from "../../../../contract/challenge";
import { say } from "../../../../contract/server/i18n";
import type { BackendEnv } from "../../env";
import { BackendError } from "../../http";
import { msg } from "../../messages";
import { enforceLimits, requestNetwork, withinLimits } from "../shared/rate-limit";
import { challengeService } from ".";

/**
 * Limits that do not punish shared networks (DESIGN §11, docs/SECURITY.md "Shared networks"). A
 * Saudi carrier puts thousands of phones behind one address, so a network's count never refuses:
 * past its threshold the call needs a Turnstile token instead, and passes with one. Counts per
 * shopper (guest or account), per email and per order stay hard refusals.
 *
 * A solved challenge clears its shopper (guest or account) for CLEARANCE_SECONDS: the shopper
 * whose order passed a challenge is not asked again to start paying for it. A script that mints a
 * new guest id per order solves one per order; a guest holds at most MAX_HOLDING_ORDERS anyway.
 */

/** How long a solved challenge clears its shopper, in seconds. */
export const CLEARANCE_SECONDS = 600;

/** The calls a network's count can challenge, as their SHOP_LIMITER keys name them. */
export type ShopAction = "checkout" | "pay-start" | "promo" | "track";

/** A refusal the storefront can lift by showing the widget: its body carries `challenge`. */
export const challenged = (status: 428 | 403, message: string, challenge: Challenge) =>
  new BackendError(status, message, undefined, { challenge });

/**
 * The request's person check, run at most once (a token is single use): passes for a cleared
 * shopper or a valid token, else throws 428 (no token) or 403 (a token that did not pass), each
 * with the challenge to show. A shop with no Turnstile configured (production without its keys)
 * cannot ask, so it refuses with 429, as the limit always did.
 */
export function networkGate(c: Context<BackendEnv>, clearance: string | null = null): () => Promise<void> {
  let verdict: Promise<void> | undefined;
  return () => (verdict ??= prove(c, clearance));
}

async function prove(c: Context<BackendEnv>, clearance: string | null): Promise<void> {
  const lang = c.get("lang");
  const service = challengeService(c.env);
  if (!service) {
    console.error(JSON.stringify({ level: "error", event: "challenge.not_configured", path: c.req.path }));
    c.header("retry-after", "60");
    throw new BackendError(429, say(lang, msg("shared.tooMany")));
  }
  const cleared = clearance ? `challenge:cleared:${clearance}` : null;
  if (cleared && (await c.env.KV.get(cleared))) return;
  const token = c.req.header(CHALLENGE_HEADER)?.trim() ?? "";
  if (!token)
    throw challenged(CHALLENGE_REQUIRED_STATUS, say(lang, msg("shared.challenge.required")), service.challenge);
  const network = requestNetwork(c);
  const answer = await service.verifier.verify(token, {
    // Siteverify takes an address, not a /64: only an IPv4 network key is one.
    ...(/^\d{1,3}(\.\d{1,3}){3}$/.test(network) ? { remoteip: network } : {}),
    idempotencyKey: crypto.randomUUID(),
  });
  if (!answer.success) {
    console.warn(JSON.stringify({ level: "warn", event: "challenge.failed", codes: answer["error-codes"] }));
    throw challenged(CHALLENGE_FAILED_STATUS, say(lang, msg("shared.challenge.failed")), service.challenge);
  }
  if (cleared) await c.env.KV.put(cleared, "1", { expirationTtl: CLEARANCE_SECONDS });
}

/**
 * Counts a call on SHOP_LIMITER: under `shopper` keys (refused with 429 past the limit) and under
 * the network's key (`{action}:ip:{network}`), which past the limit asks for the challenge instead.
 * Answers the request's gate, for a later check (a network's holds) to ask with the same token.
 */
export async function limitShopCall(
  c: Context<BackendEnv>,
  action: ShopAction,
  shopper: string[],
  clearance: string | null = null,
): Promise<() => Promise<void>> {
  const network = `${action}:ip:${requestNetwork(c)}`;
  const [, networkQuiet] = await Promise.all([
    enforceLimits(c, "SHOP_LIMITER", shopper),
    withinLimits(c.env, "SHOP_LIMITER", [network]),
  ]);
  const gate = networkGate(c, clearance);
  if (!networkQuiet) await gate();
  return gate;
}
