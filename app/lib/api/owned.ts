import { redirect } from "react-router";
import type { Locale } from "../locales";
import { browserApi, handleBrowserError } from "./browser";
import type { Api } from "./client";
import { ApiError } from "./errors";

/** What a client-only page reads of the visitor's own: found, not theirs (or none), or a failure to show. */
export type Owned<T> = { state: "found"; data: T } | { state: "missing" } | { state: "error"; message: string };

/**
 * A clientLoader's read of something the visitor owns through the tab's identity (an order, a
 * payment): a 404 or 403 is "missing", said on the page rather than on the error page; a
 * signed-out visitor is redirected by the common handler; any other failure is its message.
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
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return { state: "missing" };
    const handled = handleBrowserError(error, locale, (path) => {
      throw redirect(path);
    });
    return { state: "error", message: handled.message };
  }
}
