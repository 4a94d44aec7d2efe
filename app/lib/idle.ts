/**
 * Work that neither the first paint nor the first interaction needs (loading code that only a
 * later moment uses) runs here: one job per idle period of the browser, in the order asked. Run
 * at once after hydration, such jobs landed in one task together with every other effect, a task
 * Lighthouse counted as blocking time (docs/PERFORMANCE.md); one per idle period, each is a task
 * of a few milliseconds. A job still runs within two seconds of its turn
 * when the page never goes idle.
 */
type Job = () => void;

const queue: Job[] = [];
let scheduled = false;
let halted = false;
const TIMEOUT_MS = 2000;

function request(cb: () => void): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(cb, { timeout: TIMEOUT_MS });
  else setTimeout(cb, 50);
}

function next(): void {
  if (halted || scheduled || queue.length === 0) return;
  scheduled = true;
  request(() => {
    scheduled = false;
    if (halted) return;
    const job = queue.shift();
    try {
      job?.();
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
 * The page is about to be replaced (the shopper accepted an update, lib/pwa.ts): queued jobs are
 * dropped and none runs any more. Each job may start a request, and a request through the old
 * service worker in that moment holds the new one's activation up.
 */
export function haltIdleWork(): void {
  halted = true;
  queue.length = 0;
}
