/**
 * Cloudflare Turnstile's server-side check (the Siteverify API): the token a shopper's widget gave
 * is POSTed with the widget's secret key to /turnstile/v0/siteverify, as JSON, and the answer says
 * whether it passed. A token is valid for 300 seconds and once only: a second check of the same
 * token answers `timeout-or-duplicate`, unless it repeats the first check's `idempotency_key`. The
 * stand-in (turnstile-stand-in.ts) speaks the same requests and answers in development and test.
 */

export const TURNSTILE_API = "https://challenges.cloudflare.com/turnstile/v0";

/** The longest token Siteverify takes; a longer one is refused without a call. */
export const MAX_TOKEN_LENGTH = 2048;

/** The request body, as Cloudflare documents it. */
export interface SiteverifyRequest {
  secret: string;
  response: string;
  remoteip?: string;
  idempotency_key?: string;
}

/** Siteverify's error codes. */
export const SITEVERIFY_ERRORS = [
  "missing-input-secret",
  "invalid-input-secret",
  "missing-input-response",
  "invalid-input-response",
  "invalid-widget-id",
  "invalid-parsed-secret",
  "bad-request",
  "timeout-or-duplicate",
  "internal-error",
] as const;
export type SiteverifyError = (typeof SITEVERIFY_ERRORS)[number];

/** The answer, as Cloudflare documents it (the fields of a passed token are absent on a failure). */
export interface SiteverifyAnswer {
  success: boolean;
  "error-codes": string[];
  challenge_ts?: string;
  hostname?: string;
  action?: string;
  cdata?: string;
  metadata?: Record<string, unknown>;
}

export interface TurnstileVerifier {
  /**
   * Checks one token. Never throws: a network failure, an answer that is not Siteverify's, or a
   * token too long to send is a failed answer (`internal-error`, `invalid-input-response`).
   */
  verify(token: string, opts?: { remoteip?: string; idempotencyKey?: string }): Promise<SiteverifyAnswer>;
}

const failed = (code: SiteverifyError): SiteverifyAnswer => ({ success: false, "error-codes": [code] });

/** The answer as Siteverify shapes it, or null when it is not one. */
export function readAnswer(value: unknown): SiteverifyAnswer | null {
  if (!value || typeof value !== "object") return null;
  const answer = value as Record<string, unknown>;
  if (typeof answer.success !== "boolean") return null;
  const codes = Array.isArray(answer["error-codes"]) ? answer["error-codes"].filter((c) => typeof c === "string") : [];
  const text = (key: string) => (typeof answer[key] === "string" ? { [key]: answer[key] as string } : {});
  return {
    success: answer.success,
    "error-codes": codes,
    ...text("challenge_ts"),
    ...text("hostname"),
    ...text("action"),
    ...text("cdata"),
  };
}

export function turnstileVerifier(config: {
  secretKey: string;
  apiBase?: string;
  /** The HTTP client: the global fetch, or the stand-in's in development and test. */
  fetcher?: typeof fetch;
}): TurnstileVerifier {
  const base = config.apiBase ?? TURNSTILE_API;
  const send = config.fetcher ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  return {
    async verify(token, opts = {}) {
      if (!token) return failed("missing-input-response");
      if (token.length > MAX_TOKEN_LENGTH) return failed("invalid-input-response");
      const body: SiteverifyRequest = {
        secret: config.secretKey,
        response: token,
        ...(opts.remoteip ? { remoteip: opts.remoteip } : {}),
        ...(opts.idempotencyKey ? { idempotency_key: opts.idempotencyKey } : {}),
      };
      try {
        const res = await send(`${base}/siteverify`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        });
        return readAnswer(await res.json()) ?? failed("internal-error");
      } catch {
        return failed("internal-error");
      }
    },
  };
}
