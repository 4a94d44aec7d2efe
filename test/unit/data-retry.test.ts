import { describe, expect, it, vi } from "vitest";
import { isRetryableDataFailure, retryDataRequests } from "../../app/lib/data-retry";

const ORIGIN = "https://shop.example";
const failed = () => new TypeError("Failed to fetch");

/** A window whose fetch fails the first `failures` calls with the given error, then answers. */
function fakeWindow(failures: number, error: unknown = failed()) {
  let calls = 0;
  const fetch = vi.fn(async () => {
    calls += 1;
    if (calls <= failures) throw error;
    return new Response("ok");
  });
  const target = {
    fetch: fetch as unknown as typeof globalThis.fetch,
    location: new URL(`${ORIGIN}/en/products`) as unknown as Location,
  };
  retryDataRequests(target);
  return { target, fetch };
}

describe("a page-data request the browser cancelled", () => {
  it("is retryable only as a GET of this origin's .data URL that failed with a TypeError and was not aborted", () => {
    const data = new URL(`${ORIGIN}/en/products.data?category=phones`);
    expect(isRetryableDataFailure(failed(), "GET", data, ORIGIN)).toBe(true);
    expect(isRetryableDataFailure(failed(), "get", new URL(`${ORIGIN}/_root.data`), ORIGIN)).toBe(true);
    expect(isRetryableDataFailure(failed(), "POST", data, ORIGIN)).toBe(false);
    expect(isRetryableDataFailure(failed(), "GET", new URL(`${ORIGIN}/backend/products`), ORIGIN)).toBe(false);
    expect(isRetryableDataFailure(failed(), "GET", new URL("https://elsewhere.example/en/products.data"), ORIGIN)).toBe(
      false,
    );
    expect(isRetryableDataFailure(failed(), "GET", data, ORIGIN, AbortSignal.abort())).toBe(false);
    expect(isRetryableDataFailure(AbortSignal.abort().reason, "GET", data, ORIGIN)).toBe(false);
    expect(isRetryableDataFailure(new Error("Unable to decode turbo-stream response"), "GET", data, ORIGIN)).toBe(
      false,
    );
  });

  it("is asked once more and its answer returned", async () => {
    const { target, fetch } = fakeWindow(1);
    const res = await target.fetch("/en/products.data?category=phones", { signal: new AbortController().signal });
    expect(await res.text()).toBe("ok");
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("a second failure is reported as it was, after one repeat only", async () => {
    const { target, fetch } = fakeWindow(5);
    await expect(target.fetch(new Request(`${ORIGIN}/en/products.data`))).rejects.toThrow("Failed to fetch");
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("any other request, or any other failure, is not repeated", async () => {
    for (const [input, init, error] of [
      ["/backend/cart", undefined, failed()],
      ["/en/products.data", { method: "POST" }, failed()],
      ["/en/products.data", { signal: AbortSignal.abort() }, failed()],
      ["/en/products.data", undefined, AbortSignal.abort().reason],
    ] as const) {
      const { target, fetch } = fakeWindow(1, error);
      await expect(target.fetch(input, init)).rejects.toBe(error);
      expect(fetch, `${input} ${JSON.stringify(init)}`).toHaveBeenCalledTimes(1);
    }
  });
});
