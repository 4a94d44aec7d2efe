import type { StaffRole } from "../../contract/console";
import type { Locale } from "../../contract/locale";

export type Lang = Locale;

/** What goes through the order-message queue: only the `notifications` row's id (the row holds the rest). */
export interface NotificationJob {
  id: number;
}

/** A message to a shopper outside their orders: services/messages/shopper-messages.ts. */
export interface ShopperMessageJob {
  shopperMessage: number;
}

/** A stamped e-invoice to report to (or clear with) ZATCA: services/einvoicing/reporting.ts. */
export interface EInvoiceJob {
  einvoice: number;
}

/**
 * The bindings and variables the reference backend reads, as declared in wrangler.toml. A Worker
 * that hosts the backend (worker/env.ts) declares these and its own.
 */
export interface Env {
  KV: KVNamespace;
  DB: D1Database;
  /** R2: images staff upload in the console (/backend/media/uploads/{key}) and review photos (/backend/media/reviews/{key}). */
  MEDIA: R2Bucket;
  AUTH_LIMITER: RateLimit;
  OTP_LIMITER: RateLimit;
  CONTACT_LIMITER: RateLimit;
  /** Guest-id minting, checkout, payment start, promo checks and order tracking. */
  SHOP_LIMITER: RateLimit;
  /** Per-network ceilings a shared network does not reach in a sale: guest-id minting (600 a minute). */
  NETWORK_LIMITER: RateLimit;
  /** Wishlist writes, per account (60 a minute). */
  WISHLIST_LIMITER: RateLimit;
  /** Queue of order messages (worker/backend/services/messages/notifications.ts); consumed by this worker. */
  NOTIFICATIONS: Queue<NotificationJob | EInvoiceJob | ShopperMessageJob>;
  ENVIRONMENT: "production" | "development" | "test";
  PUBLIC_ORIGIN: string;
  /**
   * The latency model: milliseconds every statement the D1 primary serves waits first
   * (writes; reads on the primary); replica reads do not. Empty (the default): off.
   */
  PRIMARY_LATENCY_MS?: string;
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
   * holds (backend/services/orders/order-links.ts). Required outside development and test.
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
  /** What the payment page takes, shown as marks at checkout: mada, visa, mastercard, applepay (comma-separated). */
  PAYMENT_MARKS?: string;
  /** Methods beside the card page, comma-separated: "stcpay" (through Moyasar). Unset: the card page only. */
  PAYMENT_METHODS?: string;
  /** Secret: Tabby's secret API key (sk_…), for PAYMENT_METHODS "tabby". */
  TABBY_SECRET_KEY?: string;
  /** Tabby's merchant code for this shop (Saudi Arabia). */
  TABBY_MERCHANT_CODE?: string;
  /** Secret: the value registered as Tabby's webhook header (x-webhook-secret). */
  TABBY_WEBHOOK_SECRET?: string;
  /** The shop's Tabby limits in whole riyals (Tabby sets them per merchant). */
  TABBY_MIN_SAR?: string;
  TABBY_MAX_SAR?: string;
  /** Secret: Tamara's API token, for PAYMENT_METHODS "tamara". */
  TAMARA_API_TOKEN?: string;
  /** Secret: Tamara's notification token, the HS256 key of its webhooks' JWT. */
  TAMARA_NOTIFICATION_TOKEN?: string;
  /** Tamara's API address: https://api.tamara.co (the default) or https://api-sandbox.tamara.co. */
  TAMARA_API_URL?: string;
  /** The shop's Tamara limits in whole riyals (Tamara sets them per merchant). */
  TAMARA_MIN_SAR?: string;
  TAMARA_MAX_SAR?: string;
  /** Cloudflare Turnstile's public site key, shown to a network asked to prove it is people (DESIGN §11). */
  TURNSTILE_SITE_KEY?: string;
  /** Secret: Turnstile's secret key, for its Siteverify API. Development and test use the offline stand-in. */
  TURNSTILE_SECRET_KEY?: string;
  /** Secret: the key the local courier's app signs its webhook with (services/shipping/courier.ts). Development and test use a fixed one. */
  COURIER_WEBHOOK_SECRET?: string;
  /** Secret: encrypts the e-invoicing unit's private key and ZATCA's secrets at rest (services/einvoicing/secrets.ts). */
  EINVOICE_KEY_SECRET?: string;
  /** ZATCA's Fatoora API base (sandbox, simulation or production); absent in development and test: the stand-in. */
  ZATCA_API_BASE?: string;

  /** WhatsApp for shoppers who chose it (services/messages/whatsapp.ts): "cloud" is on; unset is off. */
  WHATSAPP?: string;
  /** The Cloud API's base: https://graph.facebook.com (the default); development and test: the stand-in. */
  WHATSAPP_API_URL?: string;
  /** The WhatsApp Business phone number's id (the sender), from the app's WhatsApp settings. */
  WHATSAPP_PHONE_NUMBER_ID?: string;
  /** Secret: the system user's access token, sent as a bearer token. */
  WHATSAPP_TOKEN?: string;
  /** Secret: the Meta app's secret, the HMAC key of the webhook's X-Hub-Signature-256. */
  WHATSAPP_APP_SECRET?: string;
  /** Secret: the verify token typed into the app's webhook settings (the subscription handshake). */
  WHATSAPP_VERIFY_TOKEN?: string;

  /** Secret: Moyasar API secret key (sk_...), used when PAYMENT_PROVIDER is "moyasar". */
  MOYASAR_SECRET_KEY?: string;
  /*
   * VAT_RATE, SHIPPING_FLAT, FREE_SHIPPING_THRESHOLD, SHIPPING_EXPRESS, RETURN_WINDOW_DAYS and
   * SELLER_* are the defaults of the store's settings (services/shared/settings.ts): each holds until an
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
  /** Secret: the Aramex API user (ClientInfo.UserName); unset in development and test: the offline stand-in. */
  ARAMEX_USERNAME?: string;
  /** Secret: that user's password (ClientInfo.Password). */
  ARAMEX_PASSWORD?: string;
  /** The shop's Aramex account number (ClientInfo.AccountNumber), which pays for its shipments. */
  ARAMEX_ACCOUNT_NUMBER?: string;
  /** Secret: the account's PIN (ClientInfo.AccountPin). */
  ARAMEX_ACCOUNT_PIN?: string;
  /** The account's entity, Aramex's station code for it (ClientInfo.AccountEntity), e.g. RUH. */
  ARAMEX_ACCOUNT_ENTITY?: string;
  /** The account's country (ClientInfo.AccountCountryCode); SA when unset. */
  ARAMEX_ACCOUNT_COUNTRY_CODE?: string;
  /** Aramex's API base: https://ws.aramex.net/ShippingAPI.V2 (the default) or https://ws.dev.aramex.net/ShippingAPI.V2 to test. */
  ARAMEX_API_URL?: string;
}

/** A staff member calling the console (services/console/staff.ts). */
export interface StaffCaller {
  user_id: number;
  name: string;
  email: string;
  role: StaffRole;
  /** Whether the console session is open (the code was entered, or Cloudflare Access vouched). */
  elevated: boolean;
  via: "code" | "access" | null;
  /** When the console session ends (Unix seconds). */
  expiresAt: number | null;
  /**
   * Why the console cannot be opened with a code now, if it cannot: the account's email is not
   * the one its seat was granted for, or its password changed less than CONSOLE_FREEZE_SECONDS ago.
   */
  locked: StaffLock | null;
  /** With `locked` "password_changed": when the console may be opened again (Unix seconds). */
  frozenUntil: number | null;
}

export type StaffLock = "email_changed" | "password_changed";

/** Hono typing for the backend app: bindings, plus what its middleware puts on the context. */
export type BackendEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** From `content-language`: localized fields come back in this language. */
    lang: Lang;
    /** The 1/2 `device-type` header. */
    deviceType: 1 | 2;
    /** Set by `staffOnly` on console routes. */
    staff?: StaffCaller;
    /** The visitor's network key as the shop's edge vouched for it (edge-caller.ts); unset otherwise. */
    visitorNetwork?: string;
  };
};
