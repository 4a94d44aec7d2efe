import { forwardRef, useSyncExternalStore } from "react";
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
 * The prefetch mode for links (DESIGN §7): when visible, except on Save-Data or 2g. The server
 * renders "viewport" (it adds no markup); the browser decides once hydrated.
 */
export function usePrefetchMode(): "viewport" | "none" {
  return useSyncExternalStore(
    subscribe,
    () => (isConstrainedNetwork() ? "none" : "viewport"),
    () => "viewport",
  );
}

/** A `<Link>` that prefetches its page's data and modules when it scrolls into view. */
export const SmartLink = forwardRef<HTMLAnchorElement, Omit<LinkProps, "prefetch">>(function SmartLink(props, ref) {
  const prefetch = usePrefetchMode();
  return <Link ref={ref} prefetch={prefetch} {...props} />;
});
