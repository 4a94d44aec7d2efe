/** The Worker's bindings and variables, as declared in wrangler.toml. */
export interface Env {
  ASSETS: Fetcher;
  KV: KVNamespace;
  DB: D1Database;
  AUTH_LIMITER: RateLimit;
  OTP_LIMITER: RateLimit;
  CONTACT_LIMITER: RateLimit;
  ENVIRONMENT: "production" | "development" | "test";
  BACKEND_URL: string;
  PUBLIC_ORIGIN: string;
  /** Secret: HMAC pepper mixed into password hashes. A development default is used when unset outside production. */
  AUTH_PEPPER?: string;
  /** Secret: HMAC key the payment provider signs callbacks with. */
  PAYMENT_SECRET?: string;
  /** Messenger selection: "outbox" (default) or a real provider name. */
  MESSENGER?: string;
  /** JSON list of OpenID Connect providers for social sign-in; empty by default. */
  SOCIAL_PROVIDERS?: string;
}

export type HonoEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    secureHeadersNonce?: string;
    language: string;
  };
};
