import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { haltIdleWork, whenIdle } from "../../app/client/idle";

/*
 * Its own file: halting is for the rest of the page's life, so it would stop the queue for every
 * test after it in idle.test.ts.
 */
const periods: (() => void)[] = [];
const original = (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback;

describe("haltIdleWork (app/client/idle.ts)", () => {
  beforeEach(() => {
    (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback = (cb: () => void) => periods.push(cb);
  });
  afterEach(() => {
    (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback = original;
  });

  it("drops the queued jobs, the one already asked for included, and runs none queued later", () => {
    const ran: string[] = [];
    whenIdle(() => ran.push("a"));
    whenIdle(() => ran.push("b"));
    periods.shift()?.();
    expect(ran).toEqual(["a"]);
    expect(periods).toHaveLength(1);

    // The shopper accepted an update: the page is about to reload.
    haltIdleWork();
    periods.shift()?.();
    const cancel = whenIdle(() => ran.push("c"));
    expect(periods).toHaveLength(0);
    expect(ran).toEqual(["a"]);
    expect(() => cancel()).not.toThrow();
  });
});
