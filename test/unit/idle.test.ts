import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { whenIdle, type IdleSlice } from "../../app/client/idle";

/** A browser's idle periods, played by hand: each requested callback waits here until run. */
const periods: { cb: (deadline?: IdleDeadline) => void; timeout?: number }[] = [];
const original = (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback;

function nextIdlePeriod(deadline?: IdleDeadline): void {
  const period = periods.shift();
  if (!period) throw new Error("no idle callback was requested");
  period.cb(deadline);
}

const deadline = (ms: number, didTimeout = false): IdleDeadline => ({ didTimeout, timeRemaining: () => ms });

describe("whenIdle (app/client/idle.ts)", () => {
  beforeEach(() => {
    periods.length = 0;
    (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback = (
      cb: (deadline?: IdleDeadline) => void,
      options?: { timeout?: number },
    ) => {
      periods.push({ cb, timeout: options?.timeout });
      return periods.length;
    };
  });
  afterEach(() => {
    // Drain whatever a test left queued, then restore the runtime's own global.
    while (periods.length) nextIdlePeriod();
    (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback = original;
  });

  it("runs one job per idle period, in the order asked, and skips a cancelled one", () => {
    const ran: string[] = [];
    whenIdle(() => ran.push("a"));
    whenIdle(() => ran.push("b"));
    const cancelC = whenIdle(() => ran.push("c"));
    whenIdle(() => ran.push("d"));
    cancelC();
    // Only one idle callback is asked for at a time, with a deadline for a page never idle.
    expect(periods).toHaveLength(1);
    expect(periods[0]?.timeout).toBe(2000);
    nextIdlePeriod();
    expect(ran).toEqual(["a"]);
    expect(periods).toHaveLength(1);
    nextIdlePeriod();
    expect(ran).toEqual(["a", "b"]);
    nextIdlePeriod();
    expect(ran).toEqual(["a", "b", "d"]);
    expect(periods).toHaveLength(0);
  });

  it("goes on with the next job when one throws", () => {
    const ran: string[] = [];
    whenIdle(() => {
      throw new Error("broken job");
    });
    whenIdle(() => ran.push("after"));
    expect(() => nextIdlePeriod()).toThrow("broken job");
    nextIdlePeriod();
    expect(ran).toEqual(["after"]);
  });

  it("a job queued from a job runs in a later idle period, not the same one", () => {
    const ran: string[] = [];
    whenIdle(() => {
      ran.push("outer");
      whenIdle(() => ran.push("inner"));
    });
    nextIdlePeriod();
    expect(ran).toEqual(["outer"]);
    nextIdlePeriod();
    expect(ran).toEqual(["outer", "inner"]);
  });

  it("tells a job the time its idle period has left: the browser's deadline, at most 6 ms", () => {
    const left: number[] = [];
    const job = (slice: IdleSlice) => left.push(slice.timeRemaining());
    whenIdle(job);
    whenIdle(job);
    whenIdle(job);
    // A long idle period is cut to 6 ms; a shorter one (Lighthouse's 4x gives 10 ms) is kept.
    nextIdlePeriod(deadline(45));
    nextIdlePeriod(deadline(4));
    // Run because the page never went idle: no time to spare, so a job does its least.
    nextIdlePeriod(deadline(0, true));
    // At most 6 ms, less the time the job took to start (a loaded machine may take a millisecond or more).
    expect(left[0]).toBeGreaterThan(0);
    expect(left[0]).toBeLessThanOrEqual(6);
    expect(left[1]).toBe(4);
    expect(left[2]).toBe(0);
  });
});
