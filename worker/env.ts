import type { NotificationJob } from "./backend/services/notifications";

/** The Worker's bindings and variables, as declared in wrangler.toml. */
export interface Env {
  ASSETS: Fetcher;
  KV: KVNamespace;
  DB: D1Database;
  /** R2: images staff upload in the console, served at /backend/media/uploads/{key}. */
  MEDIA: R2Bucket;
  AUTH_LIMITER: RateLimit;
  OTP_LIMITER: RateLimit;
  CONTACT_LIMITER: RateLimit;
  /** Guest-id minting, checkout, payment start, promo checks and order tracking. */
  SHOP_LIMITER: RateLimit;
  /** Field data per network (POST /api/rum); optional: without it beacons are not limited. */
  RUM_LIMITER?: RateLimit;
  /** Workers Analytics Engine dataset souq_rum: every field-data point, for ad-hoc queries in production. */
  RUM?: AnalyticsEngineDataset;
  /** Queue of order messages (worker/backend/services/notifications.ts); consumed by this worker. */
  NOTIFICATIONS: Queue<NotificationJob>;
  ENVIRONMENT: "production" | "development" | "test";
  BACKEND_URL: string;
  PUBLIC_ORIGIN: string;
  /**
   * The latency model: milliseconds every statement the D1 primary serves waits first
   * (writes; reads on the primary); replica reads do not. Empty (the default): off.
   */
  PRIMARY_LATENCY_MS?: string;
  /** Spec §7's separate lookup base URL for the browser's lookup GETs (absolute http(s)); empty: the backend's. */
  LOOKUP_URL?: string;
  /** Share of visits whose Core Web Vitals the storefront reports, 0 to 1 (default 0.1). */
  RUM_SAMPLE_RATE?: string;
  /** Secret: HMAC pepper mixed into password hashes. A development default is used when unset outside production. */
  AUTH_PEPPER?: string;
  /** Secret: the payment gateway's webhook key (Moyasar's secret token). Required outside development and test. */
  PAYMENT_SECRET?: string;
  /** Messenger selection: "outbox" (default; the development outbox) or "http" (a real provider). */
  MESSENGER?: string;
  /** With MESSENGER=http: the provider's send endpoint (HTTPS). */
  MESSENGER_URL?: string;
  /**
   * Secret shared by the edge and the backend (contract/edge-caller.ts): the edge sends it on every
   * backend call and forward; a backend call carrying it may name the visitor's address. Unset: no
   * call can, and each is counted under its own cf-connecting-ip.
   */
  EDGE_SECRET?: string;
  /**
   * Secret: the key of the signed links in a guest order's messages and of the order grants a tab
   * holds (backend/services/order-links.ts). Required outside development and test.
   */
  ORDER_LINK_SECRET?: string;
  /** Secret, with MESSENGER=http: the provider's API key, sent as a bearer token. */
  MESSENGER_KEY?: string;
  /** JSON list of OpenID Connect providers for social sign-in; empty by default. */
  SOCIAL_PROVIDERS?: string;
  /** Payment provider: "moyasar", or "sandbox" (the backend's own card page; the default in development and test only). */
  PAYMENT_PROVIDER?: string;
  /** "true" lets the sandbox (test cards) take payments outside development and test. Never on a shop that ships. */
  UNSAFE_SANDBOX_PAYMENTS_IN_PRODUCTION?: string;
  /** Secret, optional: the sandbox's own callback key (derived from AUTH_PEPPER when unset). */
  SANDBOX_SECRET?: string;
  /** Secret: Moyasar API secret key (sk_...), used when PAYMENT_PROVIDER is "moyasar". */
  MOYASAR_SECRET_KEY?: string;
  /*
   * VAT_RATE, SHIPPING_FLAT, FREE_SHIPPING_THRESHOLD, SHIPPING_EXPRESS, RETURN_WINDOW_DAYS and
   * SELLER_* are the defaults of the store's settings (services/settings.ts): each holds until an
   * owner saves its section in the console, whose value then wins.
   */
  /** VAT rate included in prices, e.g. "0.15" (the default). */
  VAT_RATE?: string;
  /** Standard shipping in halalas (default 2500), free from FREE_SHIPPING_THRESHOLD (default 30000). */
  SHIPPING_FLAT?: string;
  FREE_SHIPPING_THRESHOLD?: string;
  /** Express shipping in halalas (default 5000). */
  SHIPPING_EXPRESS?: string;
  /** Minutes an unpaid order holds its stock (default 30). */
  RESERVATION_MINUTES?: string;
  /** Days after delivery a shopper may ask for a return (default 14). */
  RETURN_WINDOW_DAYS?: string;
  /** Days a guest's cart lives unchanged before the cron expires it (default 30). */
  GUEST_CART_DAYS?: string;
  /** Cloudflare Access in front of the console: the team domain, https://<team>.cloudflareaccess.com. */
  ACCESS_TEAM_DOMAIN?: string;
  /** Cloudflare Access: the console application's audience (AUD) tag. */
  ACCESS_AUD?: string;
  /** Tax invoices: the seller's legal name (English, and Arabic; the QR carries the Arabic one). */
  SELLER_NAME_EN?: string;
  SELLER_NAME_AR?: string;
  /** Tax invoices: the seller's VAT registration number, 15 digits starting and ending with 3. */
  SELLER_VAT_NUMBER?: string;
  /** Tax invoices, optional: the seller's address, printed under its name. */
  SELLER_ADDRESS_EN?: string;
  SELLER_ADDRESS_AR?: string;
}

export type HonoEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    secureHeadersNonce?: string;
    language: string;
    /** The newest D1 bookmark a backend answer gave during this request (middleware/bookmark.ts). */
    d1Bookmark?: string;
    /** The freshness of the catalogue answers this request read (backend-client.ts, page cache). */
    catalogueRead?: { oldest: number | null; lowStock: Map<number, number> };
    /** The catalogue version the page cache read before this request's render (worker/page-cache.ts). */
    pageVersion?: number | null;
    /** Settles this request's render for the requests waiting on it (worker/page-cache.ts). */
    pageRender?: () => void;
    /** Whether this request's render, if its route marks it, is kept in the colo's tier (worker/page-cache.ts). */
    pageShared?: boolean;
  };
};
