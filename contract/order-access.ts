// Order access without an account (the guest's proof of ownership besides the tab's guest id).
// The storefront and the reference backend import this; an external backend speaks the same
// header and endpoint over HTTP.

/**
 * Request header: a short-lived grant for one order, sent by a tab that opened a message link or
 * found the order through tracking. The backend accepts it for that order's reads and its
 * self-service writes only, and only while the order has no account.
 */
export const ORDER_ACCESS_HEADER = "order-access";

/**
 * The key of a message link's fragment that carries its signed token:
 * `/{locale}/order/{number}/invoice#access=<token>`. A fragment never reaches the server's logs
 * and never travels in a Referer; the page takes it out of the address as soon as it has read it.
 */
export const LINK_FRAGMENT_KEY = "access";

/** A signed token: its expiry (Unix seconds) and a hex HMAC-SHA256, as `<expiry>.<signature>`. */
export const ORDER_ACCESS_TOKEN = /^\d{9,11}\.[0-9a-f]{64}$/;

/** POST /orders/{number}/access's answer, and the `access` meta of a tracking answer. */
export interface OrderAccessGrant {
  /** The grant, to send in ORDER_ACCESS_HEADER on this order's calls. */
  access: string;
  /** When it stops working (ISO 8601). */
  expires_at: string;
}
