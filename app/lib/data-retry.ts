/**
 * Chromium sometimes fails a fetch that starts while the shopper steps quickly through the
 * history (two Back presses a fraction of a second apart): within a few milliseconds the request
 * is cancelled with "TypeError: Failed to fetch", and its AbortSignal is not aborted. It happens
 * without React Router too (history.pushState entries, history.go, a fetch on each popstate: 2 of
 * about 320 fetches). React Router takes it for a failed loader and shows the error screen.
 *
 * So a page-data request (React Router's single fetch: a GET of a `.data` URL on this origin)
 * that fails that way is asked once more; reading is idempotent. A second failure (the shopper is
 * offline) is reported as before, and an aborted request is never repeated.
 */
export function isRetryableDataFailure(
  error: unknown,
  method: string,
  url: URL,
  origin: string,
  signal?: AbortSignal | null,
): boolean {
  return (
    error instanceof TypeError &&
    !signal?.aborted &&
    method.toUpperCase() === "GET" &&
    url.origin === origin &&
    url.pathname.endsWith(".data")
  );
}

/** Wraps the window's fetch so a failed page-data request is asked once more. */
export function retryDataRequests(target: Pick<Window, "fetch" | "location"> = window): void {
  const native = target.fetch.bind(target);
  target.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    try {
      return await native(input, init);
    } catch (error) {
      const request = input instanceof Request ? input : undefined;
      const url = new URL(request?.url ?? String(input), target.location.href);
      const method = init?.method ?? request?.method ?? "GET";
      if (!isRetryableDataFailure(error, method, url, target.location.origin, init?.signal ?? request?.signal))
        throw error;
      return native(input, init);
    }
  };
}
