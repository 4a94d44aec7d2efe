import { forwardRef, useCallback, useSyncExternalStore, type ForwardedRef } from "react";
import { Link, type LinkProps } from "react-router";
import { isConstrainedNetwork, watchLink } from "../lib/prefetch";

function subscribe(cb: () => void): () => void {
  const c = (navigator as Navigator & { connection?: EventTarget }).connection;
  c?.addEventListener("change", cb);
  return () => c?.removeEventListener("change", cb);
}

/**
 * The prefetch mode for React Router links that prefetch on intent (the header's): "intent" unless
 * on Save-Data or 2g. The server renders "none" (neither adds markup there).
 */
export function useIntentPrefetch(): "intent" | "none" {
  const constrained = useSyncExternalStore(subscribe, () => isConstrainedNetwork(), () => true);
  return constrained ? "none" : "intent";
}

function setRef<T>(ref: ForwardedRef<T>, value: T | null): void {
  if (typeof ref === "function") ref(value);
  else if (ref) ref.current = value;
}

/**
 * A `<Link>` that prefetches its page's data and modules when it scrolls into view (DESIGN §7),
 * through lib/prefetch.ts rather than React Router's per-link prefetch markup.
 */
export const SmartLink = forwardRef<HTMLAnchorElement, Omit<LinkProps, "prefetch">>(function SmartLink(props, ref) {
  const watch = useCallback(
    (a: HTMLAnchorElement | null) => {
      setRef(ref, a);
      if (!a) return;
      const stop = watchLink(a);
      return () => {
        stop();
        setRef(ref, null);
      };
    },
    [ref],
  );
  return <Link ref={watch} prefetch="none" {...props} />;
});
