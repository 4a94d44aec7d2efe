/**
 * How many unpaid orders may hold stock at once (docs/SECURITY.md "Shared networks"). Per guest or
 * account and per email: MAX_HOLDING_ORDERS, then refused. Per network (carrier-grade NAT: many
 * phones, one address): NETWORK_HOLDS_BEFORE_CHALLENGE, then each further order needs a Turnstile
 * challenge, and MAX_NETWORK_HOLDS refuses even with one, so a network that solves challenges
 * still cannot take the shelf. Apart from checkout.ts so the sale-day script can read them.
 */
export const MAX_HOLDING_ORDERS = 3;
export const NETWORK_HOLDS_BEFORE_CHALLENGE = 3;
export const MAX_NETWORK_HOLDS = 300;
