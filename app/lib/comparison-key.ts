/**
 * Where the comparison pick lives and the event its change sends (app/lib/comparison.ts): apart,
 * so that every page can tell whether there is a pick without loading the pick's code.
 */
export const COMPARE_KEY = "souq.compare";
export const COMPARE_EVENT = "souq:compare";

/** Whether this browser holds a pick (a glance at storage; the pick itself is read by comparison.ts). */
export function holdsPick(): boolean {
  try {
    return localStorage.getItem(COMPARE_KEY) !== null;
  } catch {
    return false;
  }
}
