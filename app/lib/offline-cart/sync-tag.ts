/**
 * The Background Sync tag a page registers while its cart has changes made offline, and the
 * message the service worker's `sync` handler sends the shop's open pages (scripts/build-sw.ts):
 * the pages replay their own queues, since only they hold the identity the cart calls need.
 */
export const CART_SYNC_TAG = "cart-sync";
export const CART_SYNC_MESSAGE = "souq:cart-sync";
