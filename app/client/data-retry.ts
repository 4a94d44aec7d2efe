import { useEffect } from "react";
import { useLocation, useRevalidator } from "react-router";

/**
 * Chromium sometimes fails a fetch that starts while the shopper steps quickly through the
 * history (two Back presses a fraction of a second apart): within a few milliseconds the request
 * is cancelled with "TypeError: Failed to fetch", and its AbortSignal is not aborted. It happens
 * without React Router too (history.pushState entries, history.go, a fetch on each popstate: 2 of
 * about 320 fetches). React Router takes it for a failed loader and renders the error boundary.
 *
 * So the error boundaries (root.tsx, routes/shop.tsx) ask for the page's data once more when the
 * error they caught is such a network failure: `useRetryFailedData` revalidates the location
 * (React Router's public `useRevalidator`, a GET of the same `.data` URL; reading is idempotent)
 * and the boundary shows nothing meanwhile. A second failure for the same location (the shopper
 * is offline) is shown as before; an aborted request never reaches a boundary, and an answer that
 * cannot be read (a decode error, an error status) is not a network failure.
 */

/** The messages browsers give a fetch that failed at the network level (Chromium, Firefox, Safari). */
const NETWORK_FAILURE = /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed)$/;

/** Whether a loader's error is a request the network failed (worth one more try). */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError && NETWORK_FAILURE.test(error.message);
}

export interface DataRetry {
  /** True (once per location) when `error`, caught for that location, should be retried. */
  shouldRetry: (error: unknown, locationKey: string) => boolean;
  /** Whether the location's data was already asked for again. */
  retried: (locationKey: string) => boolean;
}

export function createDataRetry(): DataRetry {
  const done = new Set<string>();
  return {
    shouldRetry(error, key) {
      if (done.has(key) || !isNetworkFailure(error)) return false;
      done.add(key);
      return true;
    },
    retried: (key) => done.has(key),
  };
}

const pageRetry = createDataRetry();

/**
 * For an error boundary: asks for the location's data once more when `error` is a network
 * failure seen the first time for this location. True while that retry is pending (render
 * nothing then, not the error screen); false once it has failed again, or for any other error.
 */
export function useRetryFailedData(error: unknown): boolean {
  const { key } = useLocation();
  const { revalidate, state } = useRevalidator();
  const first = isNetworkFailure(error) && !pageRetry.retried(key);
  useEffect(() => {
    if (pageRetry.shouldRetry(error, key)) void revalidate();
  }, [error, key, revalidate]);
  return first || (pageRetry.retried(key) && isNetworkFailure(error) && state === "loading");
}
