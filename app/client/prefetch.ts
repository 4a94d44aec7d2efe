import { localeOfPath } from "../../contract/locale";
import { whenIdle } from "./idle";
import { updateState } from "./update-state";

/**
 * Link prefetching (spec §4, DESIGN §7): a link in the page prefetches its page's data and code
 * once it is in view and the page has loaded and gone idle, never on Save-Data or a 2g
 * connection. This module decides which pages and when; `Prefetcher.tsx` renders React Router's
 * own `<PrefetchPageLinks>` for them, one page per idle period (client/idle.ts): a `<Link
 * prefetch="viewport">` on every link would render them all in one commit during hydration
 * (docs/PERFORMANCE.md, "Link prefetching").
 *
 * Under a service worker it works the same: the worker answers the modules from its precache and
 * the data through its network-first route. Nothing new starts once a newer build is live (the
 * next navigation is a full load, so a prefetch would be thrown away) or once the shopper has
 * accepted an update (client/idle.ts `haltIdleWork`: a request open through the old worker would
 * hold the new one's activation up; test/e2e/pwa.e2e.ts, the deploy journey).
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

/** What the queue needs of an `<a>`. */
export type PrefetchAnchor = Pick<HTMLAnchorElement, "href" | "target" | "hasAttribute">;

/** The browser as the queue sees it (tests pass fakes). */
export interface PrefetchEnvironment {
  /** The page's URL (`location.href`). */
  here: () => string;
  /** Calls `cb` once the document has finished loading (at once if it has). */
  afterLoad: (cb: () => void) => void;
  /** Runs `job` in an idle period of its own (client/idle.ts). */
  whenIdle: (job: () => void) => void;
  /** Save-Data or 2g (`isConstrainedNetwork`). */
  constrained: () => boolean;
  /** A newer build is live (the next navigation is a full load). */
  paused: () => boolean;
  /** Calls `onVisible` once, when `a` first scrolls into view; returns a cancel. */
  whenVisible: (a: PrefetchAnchor, onVisible: () => void) => () => void;
}

export interface PrefetchQueue {
  /** Watches a link; returns the cleanup. */
  watch: (a: PrefetchAnchor) => () => void;
  /** Receives one page (a path with its query) per idle period, with the page it was found on. */
  subscribe: (listener: (page: string, from: string) => void) => () => void;
}

/** The path and query of the page the browser is on (what `pages` are keyed by). */
export const pathOf = (href: string): string => {
  const url = new URL(href);
  return url.pathname + url.search;
};

export function createPrefetchQueue(env: PrefetchEnvironment): PrefetchQueue {
  const listeners = new Set<(page: string, from: string) => void>();
  /** Links mounted before the page had loaded and gone idle. */
  const early = new Set<PrefetchAnchor>();
  const cancels = new Map<PrefetchAnchor, () => void>();
  /**
   * `from|path` pairs already queued: each path once per page it is linked from. Links that
   * differ only in their query (a list's category and sort links) share the first one's prefetch:
   * their code is the same, and each prefetch costs the page a route match, a React commit of its
   * links and the visitor's data, for lists that are mostly not opened (docs/PERFORMANCE.md,
   * "Prefetching").
   */
  const queued = new Set<string>();
  const waiting: { page: string; from: string }[] = [];
  let armed = false;
  let arming = false;
  let draining = false;

  const off = () => env.constrained() || env.paused();

  function pageOf(a: PrefetchAnchor): string | undefined {
    const here = new URL(env.here());
    const url = new URL(a.href, here);
    if (url.origin !== here.origin || a.target || a.hasAttribute("download") || a.hasAttribute("data-no-prefetch"))
      return undefined;
    return url.pathname + url.search;
  }

  function drain(): void {
    if (draining) return;
    draining = true;
    env.whenIdle(() => {
      draining = false;
      if (off()) {
        waiting.length = 0;
        return;
      }
      const next = waiting.shift();
      if (next && pathOf(env.here()) === next.from) for (const l of listeners) l(next.page, next.from);
      if (waiting.length > 0) drain();
    });
  }

  function visible(a: PrefetchAnchor): void {
    cancels.delete(a);
    const page = pageOf(a);
    const from = pathOf(env.here());
    if (!page || page === from) return;
    const key = `${from}|${page.split("?")[0]}`;
    if (queued.has(key)) return;
    queued.add(key);
    waiting.push({ page, from });
    drain();
  }

  function observe(a: PrefetchAnchor): void {
    if (!cancels.has(a))
      cancels.set(
        a,
        env.whenVisible(a, () => visible(a)),
      );
  }

  function arm(): void {
    armed = true;
    const links = [...early];
    early.clear();
    if (off()) return;
    for (const a of links) observe(a);
  }

  return {
    watch(a) {
      if (armed) {
        if (!off()) observe(a);
      } else {
        early.add(a);
        if (!arming) {
          arming = true;
          env.afterLoad(() => env.whenIdle(arm));
        }
      }
      return () => {
        early.delete(a);
        cancels.get(a)?.();
        cancels.delete(a);
      };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

let observer: IntersectionObserver | undefined;
const onVisible = new Map<Element, () => void>();

const browser: PrefetchEnvironment = {
  here: () => location.href,
  afterLoad(cb) {
    if (document.readyState === "complete") cb();
    else addEventListener("load", cb, { once: true });
  },
  whenIdle: (job) => void whenIdle(job),
  constrained: () => isConstrainedNetwork(),
  paused: () => updateState.isPending(),
  whenVisible(a, cb) {
    const el = a as HTMLAnchorElement;
    observer ??= new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer?.unobserve(entry.target);
        const call = onVisible.get(entry.target);
        onVisible.delete(entry.target);
        call?.();
      }
    });
    onVisible.set(el, cb);
    observer.observe(el);
    return () => {
      onVisible.delete(el);
      observer?.unobserve(el);
    };
  },
};

/** The page's one queue (`watchLinksIn` watches, Prefetcher renders). */
export const prefetchQueue: PrefetchQueue = createPrefetchQueue(browser);

/**
 * Whether a link leads to a shop page that prefetching is for: same origin, under a locale, not
 * the console. The console's pages are staff-only reads that no cache answers (each sort and page
 * link of its tables would cost one); its navigation prefetches on intent instead (ConsoleNav).
 * A link, or anything around it, marked `data-no-prefetch` opts out.
 */
export function isShopLink(a: HTMLAnchorElement, origin: string = location.origin): boolean {
  if (!a.href || a.closest("[data-no-prefetch]")) return false;
  const url = new URL(a.href, origin);
  const locale = localeOfPath(url.pathname);
  return url.origin === origin && locale !== undefined && !url.pathname.startsWith(`/${locale}/admin`);
}

/**
 * Prefetching is on by default (spec §9): every shop link in `root`, now and as the page
 * changes, is watched, so no component has to opt in. A link whose address changes (a
 * paginator's after a navigation) is watched again for its new page; a removed one is let go.
 * Returns the cleanup.
 */
export function watchLinksIn(root: Element): () => void {
  const stops = new Map<HTMLAnchorElement, () => void>();
  const watch = (a: HTMLAnchorElement) => {
    stops.get(a)?.();
    stops.delete(a);
    if (isShopLink(a)) stops.set(a, prefetchQueue.watch(a));
  };
  const scan = (node: Node) => {
    if (node instanceof HTMLAnchorElement) watch(node);
    else if (node instanceof Element) for (const a of node.querySelectorAll("a[href]")) watch(a as HTMLAnchorElement);
  };
  scan(root);
  const mutations = new MutationObserver((records) => {
    let removed = false;
    for (const r of records) {
      if (r.type === "attributes") scan(r.target);
      for (const n of r.addedNodes) scan(n);
      removed ||= r.removedNodes.length > 0;
    }
    if (!removed) return;
    for (const [a, stop] of stops)
      if (!a.isConnected) {
        stop();
        stops.delete(a);
      }
  });
  mutations.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ["href"] });
  return () => {
    mutations.disconnect();
    for (const stop of stops.values()) stop();
    stops.clear();
  };
}

/**
 * The most links one idle period inserts: a link to a module not fetched yet costs about a
 * millisecond of the main thread as it goes in, four under Lighthouse's 4× CPU.
 */
export const LINKS_PER_SLICE = 4;

/**
 * Copies the `<link>`s React puts in `source` (the head of an inert document, where a link
 * fetches nothing: Prefetcher.tsx) into this document's head, `LINKS_PER_SLICE` per idle period
 * or fewer when the slice runs out (client/idle.ts), and takes a copy out again when React
 * removes its original. A prefetched page names a dozen or more modules this page does not have
 * yet, and each link starts its request as it is inserted: all of them in React's one commit made
 * a task of 50 to 250 ms under Lighthouse's 4× CPU, most of the blocking time a page had after
 * its first paint (docs/PERFORMANCE.md, "Link prefetching"). Returns the cleanup.
 */
export function copyLinksToHead(source: Element): () => void {
  const copies = new Map<Element, HTMLLinkElement>();
  const waiting: HTMLLinkElement[] = [];
  let draining = false;

  const drain = () => {
    if (draining) return;
    draining = true;
    whenIdle((slice) => {
      draining = false;
      let copied = 0;
      do {
        const original = waiting.shift();
        if (!original) return;
        // Imported, not moved: React keeps its own. The copy keeps the original's nonce.
        const copy = document.importNode(original);
        copies.set(original, copy);
        document.head.appendChild(copy);
      } while (++copied < LINKS_PER_SLICE && slice.timeRemaining() > 0);
      if (waiting.length > 0) drain();
    });
  };
  const linksIn = (node: Node): HTMLLinkElement[] =>
    node instanceof HTMLLinkElement ? [node] : node instanceof Element ? [...node.querySelectorAll("link")] : [];
  const add = (node: Node) => {
    for (const l of linksIn(node)) if (!copies.has(l) && !waiting.includes(l)) waiting.push(l);
  };
  const remove = (node: Node) => {
    for (const l of linksIn(node)) {
      copies.get(l)?.remove();
      copies.delete(l);
      const at = waiting.indexOf(l);
      if (at >= 0) waiting.splice(at, 1);
    }
  };

  // What is there already, then what React adds or removes.
  add(source);
  if (waiting.length > 0) drain();
  const mutations = new MutationObserver((records) => {
    for (const r of records) {
      r.removedNodes.forEach(remove);
      r.addedNodes.forEach(add);
    }
    if (waiting.length > 0) drain();
  });
  mutations.observe(source, { childList: true, subtree: true });
  return () => {
    mutations.disconnect();
    waiting.length = 0;
    for (const copy of copies.values()) copy.remove();
    copies.clear();
  };
}
