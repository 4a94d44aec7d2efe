import { TURNSTILE_SCRIPT, type Challenge } from "../../../../contract/challenge";
import type { Env } from "../../env";
import { standInsEnabled } from "../payments/providers";
import { turnstileVerifier, type TurnstileVerifier } from "./turnstile";
import {
  STAND_IN_SCRIPT_PATH,
  TEST_SECRET_KEYS,
  TEST_SITE_KEYS,
  TURNSTILE_STAND_IN_BASE,
  turnstileStandIn,
} from "./turnstile-stand-in";

/**
 * Turnstile as this shop is configured (DESIGN §11: an adapter with an offline stand-in). With
 * TURNSTILE_SECRET_KEY and TURNSTILE_SITE_KEY, Cloudflare's widget and Siteverify. In development
 * and test without a real secret, the same adapter against the stand-in (turnstile-stand-in.ts),
 * with Cloudflare's test keys (a test secret may be set to try the failing ones), and the widget
 * script the shop serves itself. Anything else, no challenge can be given (null): the policy then
 * refuses a busy network as the limit always did (policy.ts), and logs why.
 */
export interface ChallengeService {
  /** What a challenged refusal tells the storefront. */
  challenge: Challenge;
  verifier: TurnstileVerifier;
}

const isTestSecret = (secret: string) => (Object.values(TEST_SECRET_KEYS) as string[]).includes(secret);

export function challengeService(env: Env): ChallengeService | null {
  const secret = env.TURNSTILE_SECRET_KEY?.trim() ?? "";
  const siteKey = env.TURNSTILE_SITE_KEY?.trim() ?? "";
  if (secret && !isTestSecret(secret)) {
    if (!siteKey) return null;
    return {
      challenge: { site_key: siteKey, script: TURNSTILE_SCRIPT },
      verifier: turnstileVerifier({ secretKey: secret }),
    };
  }
  // A test secret passes every dummy token: never outside development and test.
  if (!standInsEnabled(env)) return null;
  return {
    challenge: { site_key: siteKey || TEST_SITE_KEYS.passes, script: STAND_IN_SCRIPT_PATH },
    verifier: turnstileVerifier({
      secretKey: secret || TEST_SECRET_KEYS.passes,
      apiBase: TURNSTILE_STAND_IN_BASE,
      fetcher: turnstileStandIn(env.KV),
    }),
  };
}
