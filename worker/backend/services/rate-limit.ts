import type { Env } from "../../env";

/**
 * Rate limits on login, register, OTP send and OTP verify (DESIGN §5), per IP and per account
 * identifier. The Workers rate limiting bindings (AUTH_LIMITER, OTP_LIMITER in wrangler.toml)
 * do the counting; where a binding is not bound, a fixed-window counter in D1 stands in with the
 * same limits, so the protection never silently disappears.
 */
export type LimiterName = "AUTH_LIMITER" | "OTP_LIMITER";

/** Mirrors wrangler.toml, for the D1 fallback. */
const FALLBACK: Record<LimiterName, { limit: number; period: number }> = {
  AUTH_LIMITER: { limit: 10, period: 60 },
  OTP_LIMITER: { limit: 5, period: 60 },
};

/** The caller's address as Cloudflare reports it; "unknown" when there is none (local tools). */
export function clientIp(header: (name: string) => string | undefined): string {
  return header("cf-connecting-ip")?.trim() || header("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
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
export async function withinLimits(env: Pick<Env, "DB"> & Partial<Pick<Env, LimiterName>>, name: LimiterName, keys: string[]): Promise<boolean> {
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
