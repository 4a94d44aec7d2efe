/**
 * A cancelled operation is not a failure. When a shopper goes Back twice in quick succession,
 * React Router aborts the first navigation's data request. React Router 7.18 does not observe
 * every promise of that request: its turbo-stream decoder's `done` promise rejects with the abort
 * reason and nothing waits for it (found by catching it in the built framework chunk). The
 * browser then reports "Uncaught (in promise) AbortError: signal is aborted without reason",
 * though the newer navigation carries on as it should.
 *
 * The shop drops that kind of rejection only: an `AbortError` DOMException, the reason an aborted
 * `AbortSignal` gives. Every other unhandled rejection is still reported. The window listener is
 * the one client/chunk-reload.ts installs for unhandled rejections, so the entry adds no second one.
 */
export function isAbortRejection(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === "AbortError";
}
