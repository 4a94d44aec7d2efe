import { forwardRef, useCallback, useSyncExternalStore, type ForwardedRef } from "react";
import { Link, type LinkProps } from "react-router";
import { isConstrainedNetwork, watchLink } from "../client/prefetch";

function subscribe(cb: () => void): () => void {
  const c = (navigator as Navigator & { connection?: EventTarget }).connection;
  c?.addEventListener("change", cb);
  return () => c?.removeEventListener("change", cb);
}

/** Constrained on the server, where there is no network to ask about. */
const constrainedNow = () => typeof navigator === "undefined" || isConstrainedNetwork();

/**
 * The prefetch mode for React Router links that prefetch on intent (the header's): "intent" unless
 * on Save-Data or 2g. The server renders "none". Neither mode adds markup until the shopper shows
 * intent, so hydration reads the browser's own value (the third argument) instead of the server's:
 * a snapshot that differed from the server's made React re-render the whole header synchronously
 * right after hydration (docs/PERFORMANCE.md, "Link prefetching").
 */
export function useIntentPrefetch(): "intent" | "none" {
  const constrained = useSyncExternalStore(subscribe, constrainedNow, constrainedNow);
  return constrained ? "none" : "intent";
}

function setRef<T>(ref: ForwardedRef<T>, value: T | null): void {
  if (typeof ref === "function") ref(value);
  else if (ref) ref.current = value;
}

/**
 * A `<Link>` that prefetches its page's data and modules when it scrolls into view (DESIGN §7):
 * it hands its `<a>` to client/prefetch.ts, whose one Prefetcher renders React Router's
 * `<PrefetchPageLinks>` a page per idle period, instead of each link rendering its own.
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
