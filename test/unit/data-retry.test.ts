import { describe, expect, it } from "vitest";
import { createDataRetry, isNetworkFailure } from "../../app/client/data-retry";

const failed = () => new TypeError("Failed to fetch");

describe("a page-data request the browser cancelled", () => {
  it("is a network failure only as the TypeError a failed fetch gives, never an abort, a decode error or a render error", () => {
    expect(isNetworkFailure(failed())).toBe(true);
    expect(isNetworkFailure(new TypeError("NetworkError when attempting to fetch resource."))).toBe(true);
    expect(isNetworkFailure(new TypeError("Load failed"))).toBe(true);
    expect(isNetworkFailure(AbortSignal.abort().reason)).toBe(false);
    expect(isNetworkFailure(new Error("Unable to decode turbo-stream response"))).toBe(false);
    expect(isNetworkFailure(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(isNetworkFailure({ status: 500, statusText: "Server Error" })).toBe(false);
  });

  it("is asked once more", () => {
    const retry = createDataRetry();
    expect(retry.shouldRetry(failed(), "page-2")).toBe(true);
    expect(retry.retried("page-2")).toBe(true);
  });

  it("a second failure is reported as it was, after one repeat only", () => {
    const retry = createDataRetry();
    expect(retry.shouldRetry(failed(), "page-2")).toBe(true);
    expect(retry.shouldRetry(failed(), "page-2")).toBe(false);
    // Another location gets its own one retry.
    expect(retry.shouldRetry(failed(), "page-3")).toBe(true);
  });

  it("any other failure is not repeated", () => {
    const retry = createDataRetry();
    for (const error of [
      AbortSignal.abort().reason,
      new Error("Unable to decode turbo-stream response"),
      new TypeError("x is not a function"),
    ])
      expect(retry.shouldRetry(error, "page-2"), String(error)).toBe(false);
    expect(retry.retried("page-2")).toBe(false);
  });
});
