// A person check instead of a refusal (DESIGN §11 "Shared networks"): when a network's activity
// crosses a threshold, the backend asks for a Cloudflare Turnstile token before it goes on. The
// storefront learns it from the refusal's `challenge`, shows the widget, and sends the token with
// the retried request in CHALLENGE_HEADER. An external backend speaks the same shapes over HTTP.

/** Request header: the Turnstile token the widget gave for this attempt (single use). */
export const CHALLENGE_HEADER = "cf-turnstile-response";

/** Status of a refusal that a solved challenge lifts: no token was sent. */
export const CHALLENGE_REQUIRED_STATUS = 428;

/** Status of a refusal whose token did not pass (spent, expired, forged): the widget shows again. */
export const CHALLENGE_FAILED_STATUS = 403;

/** Cloudflare's widget script, rendered explicitly (the storefront calls turnstile.render). */
export const TURNSTILE_SCRIPT = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

/** What a challenged refusal carries beside its message: the widget's public site key and its script. */
export interface Challenge {
  site_key: string;
  /** TURNSTILE_SCRIPT, or in development and test the shop's own offline stand-in (a same-origin path). */
  script: string;
}

/**
 * The challenge a refusal's body asks for, or null. The script must be Cloudflare's or a path on
 * the shop's own origin: a backend cannot make the storefront load a script from anywhere else.
 */
export function challengeOf(body: unknown): Challenge | null {
  if (!body || typeof body !== "object") return null;
  const challenge = (body as { challenge?: unknown }).challenge;
  if (!challenge || typeof challenge !== "object") return null;
  const { site_key, script } = challenge as Record<string, unknown>;
  if (typeof site_key !== "string" || !site_key || site_key.length > 100) return null;
  if (typeof script !== "string") return null;
  const trusted = script === TURNSTILE_SCRIPT || (/^\/[^/\\]/.test(script) && !script.includes(".."));
  return trusted ? { site_key, script } : null;
}
