import type { Context } from "hono";
import type { Env } from "../../env";
import type { BackendEnv } from "../env";
import { BackendError } from "../http";
import { say, type Bilingual } from "../../lib/i18n";
import { hmac, pepper } from "./password";

/**
 * Rate limits (DESIGN §5, docs/SECURITY.md): per network address and per account, guest or
 * identifier. The Workers rate limiting bindings (wrangler.toml `[[ratelimits]]`) do the
 * counting; where a binding is not bound, a fixed-window counter in D1 stands in with the same
 * limits, so the protection never silently disappears.
 *
 * - AUTH_LIMITER: login, register, code verification (10 a minute a key).
 * - OTP_LIMITER: sending codes (5 a minute a key).
 * - SHOP_LIMITER: what costs the shop stock or reveals data to a guesser: guest-id minting,
 *   checkout, payment start, promo-code checks, order tracking (20 a minute a key).
 * - CONTACT_LIMITER: the contact form (5 a minute a key).
 */
export type LimiterName = "AUTH_LIMITER" | "OTP_LIMITER" | "SHOP_LIMITER" | "CONTACT_LIMITER";

/** Mirrors wrangler.toml, for the D1 fallback. */
const FALLBACK: Record<LimiterName, { limit: number; period: number }> = {
  AUTH_LIMITER: { limit: 10, period: 60 },
  OTP_LIMITER: { limit: 5, period: 60 },
  SHOP_LIMITER: { limit: 20, period: 60 },
  CONTACT_LIMITER: { limit: 5, period: 60 },
};

const TOO_MANY: Bilingual = {
  en: "Too many attempts. Please wait a minute and try again.",
  ar: "محاولات كثيرة جدًا. يرجى الانتظار دقيقة ثم المحاولة مرة أخرى.",
};

/** The 16-bit groups of an IPv6 address (with `::` expanded), or null when it is not one. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two groups.
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    if ([a, b, c, d].some((n) => n > 255)) return null;
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const part = (s: string) => (s === "" ? [] : s.split(":"));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

/**
 * The key a network address is counted under. An IPv4 address is itself; an IPv6 address is
 * its /64 prefix, since one subscriber is routinely given a whole /64 and could otherwise take a
 * fresh key for every request. IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
export function networkKey(ip: string): string {
  const value = ip.trim();
  if (!value.includes(":")) return value || "unknown";
  const groups = ipv6Groups(value);
  if (!groups) return "unknown";
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/**
 * The caller's network as Cloudflare reports it (`cf-connecting-ip`, which Cloudflare sets and
 * a client cannot forge at the edge), keyed by `networkKey`; "unknown" when there is none
 * (local tools). The in-process storefront passes its own visitor's address on (worker/api/session.ts).
 */
export function clientIp(header: (name: string) => string | undefined): string {
  const raw = header("cf-connecting-ip")?.trim() || header("x-forwarded-for")?.split(",")[0]?.trim() || "";
  return raw ? networkKey(raw) : "unknown";
}

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
