/**
 * Local rate-limit windows are aligned to the wall-clock minute: a test that counts to a limit
 * starts well inside one, so the window cannot roll over halfway through its count. No binding
 * is needed, so the Workers tests and the built worker's tests share it.
 */
export async function awayFromMinuteEdge(margin = 15_000): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 60_000 - margin) await new Promise((resolve) => setTimeout(resolve, 60_000 - into + 100));
}

/** Time for a counting test, including a possible wait for the next window. */
export const COUNTING_TIMEOUT = 60_000;
