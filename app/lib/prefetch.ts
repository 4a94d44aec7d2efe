import type * as EngineModule from "./prefetch-engine";
import { whenIdle } from "./idle";

/**
 * Link prefetching (spec §4, DESIGN §7): a link in the page prefetches its page's data and code
 * when it scrolls into view, never on Save-Data or a 2g connection.
 *
 * Not React Router's `<Link prefetch="viewport">`: each visible link rendered its own
 * `<PrefetchPageLinks>`, which matched the URL against the route table, imported the target's route
 * modules, and hoisted into `<head>` one `<link>` for the data and one per module, the framework and
 * modules already running included: on the home page about 150 elements in one React commit, the
 * task that made most of Lighthouse's blocking time (docs/PERFORMANCE.md). Here one
 * IntersectionObserver watches every link, armed once the page has loaded and gone idle; a link in
 * view queues its page; pages are prefetched a few milliseconds' worth at a time (the rest in later
 * idle periods, lib/idle.ts), adding only the `<link>`s the document lacks. No React render. That
 * work lives in lib/prefetch-engine.ts, loaded once the page is idle; this module only collects
 * the links and decides when.
 *
 * The data URL is the one React Router fetches when the link is followed, worked out as its
 * PrefetchPageLinks does (react-router 7.18), so the navigation finds the response in the prefetch
 * cache; test/e2e/storefront.e2e.ts follows a prefetched link and compares the two.
 */

interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
}

/** True when the visitor asked to save data or is on a 2g connection: no speculative fetching then. */
export function isConstrainedNetwork(
  c: NetworkInformation | undefined = typeof navigator === "undefined"
    ? undefined
    : (navigator as Navigator & { connection?: NetworkInformation }).connection,
): boolean {
  if (!c) return false;
  return c.saveData === true || c.effectiveType === "2g" || c.effectiveType === "slow-2g";
}

type Engine = typeof EngineModule;
let engine: Engine | undefined;
/** Links mounted before the engine has loaded. */
const watched = new Set<HTMLAnchorElement>();
let armed = false;
let scheduled = false;

function arm(): void {
  armed = true;
  if (isConstrainedNetwork()) return;
  void import("./prefetch-engine").then((loaded) => {
    engine = loaded;
    for (const a of watched) loaded.observe(a);
    watched.clear();
  });
}

function armWhenIdle(): void {
  if (scheduled) return;
  scheduled = true;
  const idle = () => whenIdle(arm);
  if (document.readyState === "complete") idle();
  else addEventListener("load", idle, { once: true });
}

/**
 * Watches a link for prefetching once it is in view; returns the cleanup. Links mounted before the
 * page has loaded and gone idle are watched from then on; later ones (client navigations) at once.
 */
export function watchLink(a: HTMLAnchorElement): () => void {
  if (engine) {
    if (!isConstrainedNetwork()) engine.observe(a);
  } else {
    watched.add(a);
    if (!armed) armWhenIdle();
  }
  return () => {
    watched.delete(a);
    engine?.unobserve(a);
  };
}
