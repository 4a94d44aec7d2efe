import { redirect } from "react-router";
import { LINK_FRAGMENT_KEY, ORDER_ACCESS_TOKEN } from "../../contract/order-access";
import type { Locale } from "./locales";
import { dropOrderGrant, keepOrderGrant, readOrderGrant } from "./order-grants";
import { readStored, restoreIdentity, type TabIdentity } from "./tab-storage";
import { browserApi } from "./api/browser";
import { handleBrowserError } from "./browser-errors";
import type { Api } from "./api/client";
import { ApiError } from "./api/errors";
import { openOrderLink } from "./api/orders";

/**
 * What a client-only page reads of the visitor's own: found, nothing asked for, a failure to show,
 * or (an order's pages) a link or grant that no longer opens the order.
 */
export type Owned<T> =
  | { state: "found"; data: T }
  | { state: "missing" }
  | { state: "error"; message: string }
  | { state: "refused"; number: string };

/**
 * The common handler's answer for a failed read, where its sign-in redirect comes back to this
 * page afterwards: the page's own path and query, same-origin by construction (the login page
 * follows it only through safeRedirect).
 */
function failed(error: unknown, locale: Locale): { state: "error"; message: string } {
  const login = `/${locale}/auth/login`;
  const here = typeof window === "undefined" ? "" : window.location.pathname + window.location.search;
  const handled = handleBrowserError(error, locale, (path) => {
    throw redirect(
      path === login && here.startsWith(`/${locale}/`) ? `${login}?redirect=${encodeURIComponent(here)}` : path,
    );
  });
  return { state: "error", message: handled.message };
}

/**
 * A clientLoader's read of something the visitor owns through the tab's identity (an order, a
 * payment, a tax document). Failures go through the common handler of spec §8 like every page's:
 * a 404 (unknown, or another visitor's: the backend answers both alike) redirects to /error, a
 * signed-out visitor to sign-in, coming back to this page afterwards; a 403 or anything else is
 * its message on the page. "missing" is left to the page for an address that names nothing.
 */
export async function readOwned<T>(
  locale: Locale,
  signal: AbortSignal,
  read: (api: Api) => Promise<{ data: T }>,
): Promise<Owned<T>> {
  try {
    return { state: "found", data: (await read(browserApi(locale))).data };
  } catch (error) {
    if (signal.aborted) throw error;
    return failed(error, locale);
  }
}

/**
 * The signed token of a message link, taken out of the address. It travels in the fragment
 * (`#access=`): a fragment never reaches the server, its logs or a Referer. It is then removed
 * from the address at once (history.replaceState, keeping the router's state), so it is not left
 * in the address bar, the history entry or a bookmark, and traded for a short-lived grant kept in
 * this tab's session storage (tab-storage.ts): every later call of the order sends the grant,
 * never the link's token.
 */
function takeLinkToken(): string | null {
  if (typeof window === "undefined") return null;
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const token = fragment.get(LINK_FRAGMENT_KEY);
  if (token === null) return null;
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, "", pathname + search);
  return token;
}

/**
 * An order page's read (its page, invoice or credit note), with every proof of ownership the tab
 * may have: the signed-in account (a new tab takes the session's token from `serverIdentity`, as
 * the profile does), the guest id that placed it, or a grant for this order that a message link
 * (traded here) or tracking left in the tab. A link or grant the backend refuses (tampered,
 * expired, another order's, an account's order) is "refused": the page offers tracking instead,
 * and shows nothing of any order.
 */
export async function readOwnedOrder<T>(
  locale: Locale,
  signal: AbortSignal,
  number: string,
  serverIdentity: () => Promise<TabIdentity | null>,
  read: (api: Api, access: string | null) => Promise<{ data: T }>,
): Promise<Owned<T>> {
  const token = takeLinkToken();
  if (!readStored("token")) restoreIdentity(await serverIdentity());
  if (token !== null) {
    try {
      if (!ORDER_ACCESS_TOKEN.test(token)) throw new ApiError(403, "");
      keepOrderGrant(number, (await openOrderLink(browserApi(locale), number, token, signal)).data);
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof ApiError && [403, 404, 422].includes(error.status)) {
        dropOrderGrant(number);
        return { state: "refused", number };
      }
      throw error;
    }
  }
  const access = readOrderGrant(number);
  // With a grant as the tab's only proof, its refusal is the link's: no reason to sign in.
  const grantOnly = access !== null && !readStored("token") && !readStored("guestId");
  try {
    return { state: "found", data: (await read(browserApi(locale), access)).data };
  } catch (error) {
    if (signal.aborted) throw error;
    if (grantOnly && error instanceof ApiError && [401, 403, 404].includes(error.status)) {
      dropOrderGrant(number);
      return { state: "refused", number };
    }
    return failed(error, locale);
  }
}
