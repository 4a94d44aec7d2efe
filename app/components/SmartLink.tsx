import { forwardRef, startTransition, useEffect, useState, useSyncExternalStore } from "react";
import { Link, type LinkProps } from "react-router";

interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
  addEventListener?: (type: "change", cb: () => void) => void;
  removeEventListener?: (type: "change", cb: () => void) => void;
}

function connection(): NetworkInformation | undefined {
  return (navigator as Navigator & { connection?: NetworkInformation }).connection;
}

/** True when the visitor asked to save data or is on a 2g connection: no speculative fetching then. */
export function isConstrainedNetwork(c: NetworkInformation | undefined = typeof navigator === "undefined" ? undefined : connection()): boolean {
  if (!c) return false;
  return c.saveData === true || c.effectiveType === "2g" || c.effectiveType === "slow-2g";
}

function subscribe(cb: () => void): () => void {
  const c = connection();
  c?.addEventListener?.("change", cb);
  return () => c?.removeEventListener?.("change", cb);
}

/**
 * Prefetching is armed once the page has loaded and the main thread is idle, as one low-priority
 * (transition) update that React renders in small slices. Armed at hydration, every visible link
 * rendered its prefetch tags at once, each matching the URL against the whole route table: on the
 * home page a long task that Lighthouse counted as blocking time (docs/PERFORMANCE.md). Pages
 * reached later by client navigation mount already armed.
 */
let armed = false;
let scheduled = false;
const waiting = new Set<() => void>();

function armWhenIdle(): void {
  if (scheduled) return;
  scheduled = true;
  const arm = () =>
    startTransition(() => {
      armed = true;
      for (const wake of waiting) wake();
      waiting.clear();
    });
  const idle = (cb: () => void) => (typeof requestIdleCallback === "function" ? requestIdleCallback(cb, { timeout: 3000 }) : setTimeout(cb, 200));
  if (document.readyState === "complete") idle(arm);
  else addEventListener("load", () => idle(arm), { once: true });
}

/**
 * The prefetch mode for links (DESIGN §7): when visible, except on Save-Data or 2g; armed after
 * the page is idle (above). The server renders "none" (neither mode adds markup there).
 */
export function usePrefetchMode(): "viewport" | "none" {
  const [isArmed, setArmed] = useState(armed);
  const constrained = useSyncExternalStore(subscribe, () => isConstrainedNetwork(), () => false);
  useEffect(() => {
    if (armed) {
      setArmed(true);
      return;
    }
    const wake = () => setArmed(true);
    waiting.add(wake);
    armWhenIdle();
    return () => {
      waiting.delete(wake);
    };
  }, []);
  return isArmed && !constrained ? "viewport" : "none";
}

/** A `<Link>` that prefetches its page's data and modules when it scrolls into view. */
export const SmartLink = forwardRef<HTMLAnchorElement, Omit<LinkProps, "prefetch">>(function SmartLink(props, ref) {
  const prefetch = usePrefetchMode();
  return <Link ref={ref} prefetch={prefetch} {...props} />;
});
