import { describe, expect, it, vi } from "vitest";
import { isAbortRejection } from "../../app/client/abort-rejections";
import { installChunkReload } from "../../app/client/chunk-reload";

/** An `unhandledrejection` event as the browser sends it: cancelable, with the reason. */
function rejection(reason: unknown): Event & { reason: unknown } {
  return Object.assign(new Event("unhandledrejection", { cancelable: true }), { reason });
}

/** A window's listener list (workerd's EventTarget refuses the capture flag chunk-reload uses). */
function fakeWindow() {
  const listeners = new Map<string, Set<(e: Event) => void>>();
  return {
    addEventListener: (type: string, fn: (e: Event) => void) =>
      void (listeners.get(type) ?? listeners.set(type, new Set()).get(type)!).add(fn),
    removeEventListener: (type: string, fn: (e: Event) => void) => void listeners.get(type)?.delete(fn),
    dispatchEvent: (e: Event) => {
      for (const fn of listeners.get(e.type) ?? []) fn(e);
      return !e.defaultPrevented;
    },
  };
}

describe("unhandled rejections of aborted work", () => {
  it("recognises the reason an aborted signal gives, and nothing else", () => {
    const controller = new AbortController();
    controller.abort();
    expect(isAbortRejection(controller.signal.reason)).toBe(true);
    expect(isAbortRejection(new DOMException("The operation was aborted.", "AbortError"))).toBe(true);
    expect(isAbortRejection(new DOMException("The operation timed out.", "TimeoutError"))).toBe(false);
    expect(isAbortRejection(new TypeError("Failed to fetch"))).toBe(false);
    expect(isAbortRejection(Object.assign(new Error("aborted"), { name: "AbortError" }))).toBe(false);
    expect(isAbortRejection("AbortError")).toBe(false);
    expect(isAbortRejection(undefined)).toBe(false);
  });

  it("the window's rejection listener cancels the report of an aborted request only, and stops when removed", () => {
    const target = fakeWindow();
    const reloader = { handle: vi.fn(() => true) };
    const remove = installChunkReload(target as unknown as Window, reloader);
    const aborted = rejection(AbortSignal.abort().reason);
    target.dispatchEvent(aborted);
    expect(aborted.defaultPrevented).toBe(true);
    expect(reloader.handle).not.toHaveBeenCalled();

    const failure = rejection(new Error("the backend said no"));
    target.dispatchEvent(failure);
    expect(failure.defaultPrevented).toBe(false);
    expect(reloader.handle).not.toHaveBeenCalled();

    remove();
    const later = rejection(AbortSignal.abort().reason);
    target.dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
  });
});
