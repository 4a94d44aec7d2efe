import type { Context } from "hono";
import type { BackendEnv, Env } from "../../env";
import { BackendError } from "../../http";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import { clientIp } from "../../../../contract/server/network";
import { hmac, pepper } from "../accounts/password";
import { msg } from "../../messages";

/**
 * Rate limits (DESIGN §5, docs/SECURITY.md): per network address and per account, guest or
 * identifier. The Workers rate limiting bindings (wrangler.toml `[[ratelimits]]`) do the
 * counting; where a binding is not bound, a fixed-window counter in D1 stands in with the same
 * limits, so the protection never silently disappears.
 *
 * - AUTH_LIMITER: login, register, code verification (10 a minute a key).
 * - OTP_LIMITER: sending codes (5 a minute a key).
 * - SHOP_LIMITER: what costs the shop stock or reveals data to a guesser: checkout, payment
 *   start, promo-code checks, order tracking (20 a minute a key). Per shopper the count refuses;
 *   per network it asks for a Turnstile challenge instead (services/challenge/policy.ts), since
 *   thousands of phones share one carrier address.
 * - NETWORK_LIMITER: per-network ceilings a shared network does not reach in a sale: guest-id
 *   minting (600 a minute a network).
 * - CONTACT_LIMITER: the contact form (5 a minute a key), and back-in-stock subscriptions per
 *   address (their networks count under SHOP_LIMITER, refused past 20 a minute, and the codes
 *   they text under OTP_LIMITER: routes/stock-alerts.ts).
 * - WISHLIST_LIMITER: a shopper's own list-like writes, per account (60 a minute): the wishlist
 *   (add, remove, merge, share links) and consent changes.
 */
export type LimiterName =
  "AUTH_LIMITER" | "OTP_LIMITER" | "SHOP_LIMITER" | "NETWORK_LIMITER" | "CONTACT_LIMITER" | "WISHLIST_LIMITER";

/** Mirrors wrangler.toml, for the D1 fallback. */
const FALLBACK: Record<LimiterName, { limit: number; period: number }> = {
  AUTH_LIMITER: { limit: 10, period: 60 },
  OTP_LIMITER: { limit: 5, period: 60 },
  SHOP_LIMITER: { limit: 20, period: 60 },
  NETWORK_LIMITER: { limit: 600, period: 60 },
  CONTACT_LIMITER: { limit: 5, period: 60 },
  WISHLIST_LIMITER: { limit: 60, period: 60 },
};

const TOO_MANY: Bilingual = msg("shared.tooMany");

/**
 * The caller's network key from a backend request context: the visitor's, when the shop's edge
 * vouched for it (edge-caller.ts; with BACKEND_URL every call comes from the worker's own
 * address), else the caller's own.
 */
export const requestNetwork = (c: Context<BackendEnv>): string =>
  c.get("visitorNetwork") ?? clientIp((name) => c.req.header(name));

/**
 * A network address as it may be stored (contact messages, orders): an HMAC under the pepper,
 * so a leaked table does not give the addresses back by brute force over the IPv4 space.
 */
export async function hashedNetwork(
  env: Pick<Env, "AUTH_PEPPER" | "ENVIRONMENT">,
  network: string,
): Promise<string | null> {
  if (network === "unknown") return null;
  const bytes = await hmac(pepper(env), `ip:${network}`);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function d1Allows(db: D1Database, key: string, limit: number, period: number): Promise<boolean> {
  const windowStart = Math.floor(Date.now() / 1000 / period) * period;
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT(key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END,
         window_start = excluded.window_start
       RETURNING count`,
    )
    .bind(key, windowStart)
    .first<{ count: number }>();
  return (row?.count ?? 1) <= limit;
}

/** True when every key is still under its limit. Every key is counted, even after one fails. */
export async function withinLimits(
  env: Pick<Env, "DB"> & Partial<Pick<Env, LimiterName>>,
  name: LimiterName,
  keys: string[],
): Promise<boolean> {
  const binding = env[name];
  const outcomes = await Promise.all(
    keys.map(async (key) => {
      if (binding) return (await binding.limit({ key })).success;
      const { limit, period } = FALLBACK[name];
      return d1Allows(env.DB, `${name}:${key}`, limit, period);
    }),
  );
  return outcomes.every(Boolean);
}

/**
 * Counts the call under each key (`action:…`) and answers 429 with Retry-After when any is
 * over its limit. Keys name what is counted (`checkout:ip:…`, `checkout:guest:…`), never
 * whether an account exists, so a 429 reveals nothing either.
 */
export async function enforceLimits(
  c: Context<BackendEnv>,
  name: LimiterName,
  keys: string[],
  message: Bilingual = TOO_MANY,
): Promise<void> {
  if (await withinLimits(c.env, name, keys)) return;
  c.header("retry-after", "60");
  throw new BackendError(429, say(c.get("lang"), message));
}
