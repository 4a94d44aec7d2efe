/**
 * Work that neither the first paint nor the first interaction needs (loading code that only a
 * later moment uses) runs here: one job per idle period of the browser, in the order asked. Run
 * at once after hydration, such jobs landed in one task together with every other effect, a task
 * Lighthouse counted as blocking time (docs/PERFORMANCE.md); one per idle period, each is a task
 * of a few milliseconds. A job still runs within two seconds of its turn
 * when the page never goes idle.
 *
 * A job that can split its work (the link prefetcher) reads `slice.timeRemaining()` and stops when
 * it reaches 0: the browser's own idle deadline, at most SLICE_MS. Lighthouse shortens that
 * deadline by its CPU slowdown, so work that keeps to it is never a long task in its simulation.
 */
export interface IdleSlice {
  /** Milliseconds this idle period has left for the job; 0 when the period is over. */
  timeRemaining(): number;
}
type Job = (slice: IdleSlice) => void;

const queue: Job[] = [];
let scheduled = false;
let halted = false;
const TIMEOUT_MS = 2000;
/**
 * The most one idle period's work may take, even when the browser offers more (up to 50 ms): a
 * step of work that starts just before the end runs past it, and a task is "long" at 50 ms on a
 * phone, a fraction of that unthrottled (docs/PERFORMANCE.md, "Idle queue").
 */
const SLICE_MS = 6;

function sliceOf(deadline?: IdleDeadline): IdleSlice {
  const end = performance.now() + SLICE_MS;
  return {
    timeRemaining: () => Math.max(0, Math.min(deadline ? deadline.timeRemaining() : SLICE_MS, end - performance.now())),
  };
}

function request(cb: (slice: IdleSlice) => void): void {
  if (typeof requestIdleCallback === "function")
    requestIdleCallback((deadline) => cb(sliceOf(deadline)), { timeout: TIMEOUT_MS });
  else setTimeout(() => cb(sliceOf()), 50);
}

function next(): void {
  if (halted || scheduled || queue.length === 0) return;
  scheduled = true;
  request((slice) => {
    scheduled = false;
    if (halted) return;
    const job = queue.shift();
    try {
      job?.(slice);
    } finally {
      next();
    }
  });
}

/** Queues `job` for an idle period of its own, after the jobs queued before it; returns a cancel. */
export function whenIdle(job: Job): () => void {
  if (halted) return () => undefined;
  queue.push(job);
  next();
  return () => {
    const at = queue.indexOf(job);
    if (at >= 0) queue.splice(at, 1);
  };
}

/**
 * The page is about to be replaced (the shopper accepted an update, client/pwa.ts): queued jobs are
 * dropped and none runs any more. Each job may start a request, and a request through the old
 * service worker in that moment holds the new one's activation up.
 */
export function haltIdleWork(): void {
  halted = true;
  queue.length = 0;
}
