import { forwardRef, startTransition, useCallback, useEffect, useRef, useState, useSyncExternalStore, type ForwardedRef } from "react";
import { Link, type LinkProps } from "react-router";
import { whenIdle } from "../lib/idle";

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
 * When links prefetch (DESIGN §7). A link in the page body prefetches its page's data and modules
 * once it is half in view, after the page has loaded, except on Save-Data or 2g.
 *
 * How, and why not React Router's own `prefetch="viewport"`: that mode gives every link its own
 * IntersectionObserver, and the observers report in the same frame, so every link in view
 * rendered its prefetch tags (matching its URL against the whole route table) in one synchronous
 * render, and React inserted all the tags into the head in one commit: on the home page a 30–70 ms
 * task, the largest that Lighthouse counted as blocking time (docs/PERFORMANCE.md). Here one
 * observer watches every SmartLink, and a link seen in view queues its prefetch for an idle
 * period of its own (lib/idle.ts), where it switches to `prefetch="render"`: one link per task,
 * a millisecond or two each.
 */
function afterLoad(start: () => () => void): () => void {
  if (document.readyState === "complete") return start();
  let stop: (() => void) | undefined;
  const onLoad = () => (stop = start());
  addEventListener("load", onLoad, { once: true });
  return () => {
    removeEventListener("load", onLoad);
    stop?.();
  };
}

let observer: IntersectionObserver | undefined;
const whenSeen = new WeakMap<Element, () => void>();

function observe(element: Element, seen: () => void): () => void {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer?.unobserve(entry.target);
        whenSeen.get(entry.target)?.();
        whenSeen.delete(entry.target);
      }
    },
    { threshold: 0.5 },
  );
  whenSeen.set(element, seen);
  observer.observe(element);
  return () => {
    observer?.unobserve(element);
    whenSeen.delete(element);
  };
}

function useUnconstrained(): boolean {
  return !useSyncExternalStore(subscribe, () => isConstrainedNetwork(), () => false);
}

/** Whether intent prefetching (the header's links) is on: after load and idle, never when constrained. */
export function usePrefetchArmed(): boolean {
  const [armed, setArmed] = useState(false);
  const allowed = useUnconstrained();
  useEffect(() => afterLoad(() => whenIdle(() => startTransition(() => setArmed(true)))), []);
  return armed && allowed;
}

/** A `<Link>` that prefetches its page's data and modules once it is in view (see above). */
export const SmartLink = forwardRef<HTMLAnchorElement, Omit<LinkProps, "prefetch">>(function SmartLink(props, ref) {
  const own = useRef<HTMLAnchorElement | null>(null);
  const [seen, setSeen] = useState(false);
  const allowed = useUnconstrained();
  useEffect(() => {
    const element = own.current;
    if (!element) return;
    let cancelIdle: (() => void) | undefined;
    const stop = afterLoad(() => observe(element, () => (cancelIdle = whenIdle(() => startTransition(() => setSeen(true))))));
    return () => {
      stop();
      cancelIdle?.();
    };
  }, []);
  const setRef = useCallback((element: HTMLAnchorElement | null) => {
    own.current = element;
    assign(ref, element);
  }, [ref]);
  return <Link ref={setRef} prefetch={seen && allowed ? "render" : "none"} {...props} />;
});

function assign<T>(ref: ForwardedRef<T>, value: T | null): void {
  if (typeof ref === "function") ref(value);
  else if (ref) ref.current = value;
}
