import { redirect } from "react-router";
import type { Locale } from "../locales";
import { browserApi, handleBrowserError } from "./browser";
import type { Api } from "./client";

/** What a client-only page reads of the visitor's own: found, nothing asked for, or a failure to show. */
export type Owned<T> = { state: "found"; data: T } | { state: "missing" } | { state: "error"; message: string };

/**
 * A clientLoader's read of something the visitor owns through the tab's identity (an order, a
 * payment, a tax document). Failures go through the common handler of spec §8 like every page's:
 * a 404 (unknown, or another visitor's: the backend answers both alike) redirects to /error, a
 * signed-out visitor to sign-in; a 403 or anything else is its message on the page. "missing" is
 * left to the page for an address that names nothing (no order number).
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
    const handled = handleBrowserError(error, locale, (path) => {
      throw redirect(path);
    });
    return { state: "error", message: handled.message };
  }
}
