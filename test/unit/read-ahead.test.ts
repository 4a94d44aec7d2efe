import { afterEach, describe, expect, it, vi } from "vitest";
import { ReadAhead } from "../../worker/backend/lib/read-ahead";

/** The isolate's memo of the catalogue version (worker/backend/lib/read-ahead.ts), on a counted source. */
function source(values: number[]) {
  let reads = 0;
  const pending: (() => void)[] = [];
  return {
    reads: () => reads,
    read: async () => values[Math.min(reads++, values.length - 1)],
    /** A read that waits until `release` is called. */
    slow: () => {
      const value = values[Math.min(reads++, values.length - 1)];
      return new Promise<number>((resolve) => pending.push(() => resolve(value)));
    },
    /** Lets the n-th slow read (from 0) answer. */
    release: (n: number) => pending[n](),
  };
}

afterEach(() => vi.useRealTimers());

describe("ReadAhead", () => {
  it("reads once for concurrent callers, then serves the value for its time to live", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const memo = new ReadAhead<number>(1_000);
    const src = source([1, 2]);
    expect(await Promise.all([memo.get(src.read), memo.get(src.read)])).toEqual([1, 1]);
    expect(src.reads()).toBe(1);
    vi.setSystemTime(Date.now() + 999);
    expect(await memo.get(src.read)).toBe(1);
    vi.setSystemTime(Date.now() + 1);
    expect(await memo.get(src.read)).toBe(2);
    expect(src.reads()).toBe(2);
  });

  it("past half its life, answers at once and reads again after the answer when it may", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const memo = new ReadAhead<number>(1_000);
    const src = source([1, 2]);
    await memo.get(src.read);
    vi.setSystemTime(Date.now() + 600);
    expect(await memo.get(src.read), "no waitUntil: nothing more").toBe(1);
    expect(src.reads()).toBe(1);
    const tasks: Promise<unknown>[] = [];
    expect(await memo.get(src.read, (task) => void tasks.push(task))).toBe(1);
    expect(tasks).toHaveLength(1);
    await Promise.all(tasks);
    expect(await memo.get(src.read)).toBe(2);
    expect(src.reads()).toBe(2);
  });

  it("keeps neither a failed read nor one under way when the value is forgotten", async () => {
    const memo = new ReadAhead<number>(1_000);
    await expect(memo.get(() => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(memo.last).toBeUndefined();
    const src = source([1, 2]);
    const underWay = memo.get(src.slow);
    memo.forget();
    const next = memo.get(src.slow);
    src.release(0);
    expect(await underWay, "its caller still gets its answer").toBe(1);
    expect(memo.last, "but it is not kept").toBeUndefined();
    src.release(1);
    expect(await next).toBe(2);
    expect(memo.last).toBe(2);
  });
});
