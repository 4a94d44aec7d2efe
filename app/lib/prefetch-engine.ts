import {
  matchRoutes,
  type DataRouter,
  type UNSAFE_AssetsManifest as AssetsManifest,
  type UNSAFE_RouteModules as RouteModules,
} from "react-router";
import { whenIdle, type IdleSlice } from "./idle";
import { isConstrainedNetwork } from "./prefetch";
import { updateState } from "./update-state";

/**
 * The prefetching itself (lib/prefetch.ts says what and why), loaded when the page has gone idle:
 * it is no part of the first load's code.
 */

export interface RouterView {
  routes: DataRouter["routes"];
  basename: string;
  state: Pick<DataRouter["state"], "matches" | "loaderData" | "location">;
  manifest: AssetsManifest;
  routeModules: RouteModules;
  trailingSlashAware: boolean;
}

export interface PrefetchTargets {
  /** The single-fetch `.data` URL the navigation would request (none when no loader runs). */
  data: string[];
  /** Route modules and their imports the target needs that the current page's routes did not. */
  modules: string[];
  /** The target's route stylesheets. */
  styles: string[];
}

type Route = DataRouter["routes"][number];
type Match = NonNullable<ReturnType<typeof matchRoutes<Route>>>[number];

/**
 * The part of the route table that can match a page whose path has these (decoded) segments: a
 * route whose own path has a static segment other than the page's there, or more segments than
 * the page has left, is left out with its children; a splat or optional segment keeps the route
 * whole. React Router's matchRoutes flattens and ranks the whole table on every call, 3-5 ms here
 * for the shop's routes and most of the cost of planning a page; on the few branches left it is a
 * fraction of that, and the answer is the same (test/unit/prefetch.test.ts checks it on the shop's
 * own route table).
 */
export function candidateRoutes(routes: Route[], segments: string[]): Route[] {
  const kept: Route[] = [];
  for (const route of routes) {
    let used = 0;
    let open = false;
    let fits = true;
    for (const seg of (route.path ?? "").split("/").filter(Boolean)) {
      if (seg === "*" || seg.endsWith("?")) {
        open = true;
        break;
      }
      const at = segments[used];
      if (at === undefined || (!seg.startsWith(":") && seg.toLowerCase() !== at.toLowerCase())) {
        fits = false;
        break;
      }
      used += 1;
    }
    if (!fits) continue;
    kept.push(
      open || !route.children ? route : { ...route, children: candidateRoutes(route.children, segments.slice(used)) },
    );
  }
  return kept;
}

/** The routes worth matching `page` against: all of them when its path cannot be read plainly. */
function routesFor(page: string, view: RouterView, origin: string): Route[] {
  if (view.basename !== "/") return view.routes;
  try {
    const segments = new URL(page, origin).pathname.split("/").filter(Boolean).map(decodeURIComponent);
    return candidateRoutes(view.routes, segments);
  } catch {
    return view.routes;
  }
}

/** `/a/b?x` → `/a/b.data?x`, `/` → `/_root.data` (React Router's singleFetchUrl). */
function singleFetchUrl(page: string, basename: string, trailingSlashAware: boolean, origin: string): URL {
  const url = new URL(page, origin);
  const strip = (p: string) => p.replace(/\/+$/, "") || "/";
  if (trailingSlashAware) url.pathname = url.pathname.endsWith("/") ? `${url.pathname}_.data` : `${url.pathname}.data`;
  else if (url.pathname === "/") url.pathname = "_root.data";
  else if (basename !== "/" && strip(url.pathname) === strip(basename)) url.pathname = `${strip(basename)}/_root.data`;
  else url.pathname = `${url.pathname.replace(/\/$/, "")}.data`;
  return url;
}

/**
 * What following a link to `page` would load that the current page has not: the same answer React
 * Router's PrefetchPageLinks gives (its getNewMatchesForLinks and data URL), without the route
 * modules' `links()` (only the root exports one, and the root is always loaded).
 */
export function prefetchTargets(page: string, view: RouterView, origin: string): PrefetchTargets {
  const none: PrefetchTargets = { data: [], modules: [], styles: [] };
  const next = matchRoutes(routesFor(page, view, origin), page, view.basename);
  if (!next) return none;
  const { matches: current, loaderData, location } = view.state;
  const isNew = (m: Match, i: number) => current[i] === undefined || m.route.id !== current[i].route.id;
  const pathChanged = (m: Match, i: number) =>
    current[i].pathname !== m.pathname ||
    (current[i].route.path?.endsWith("*") === true && current[i].params["*"] !== m.params["*"]);
  const changed = (m: Match, i: number) => isNew(m, i) || pathChanged(m, i);

  const forData = next.filter((m, i) => {
    if (!view.manifest.routes[m.route.id]?.hasLoader) return false;
    if (changed(m, i)) return true;
    const choice = m.route.shouldRevalidate?.({
      currentUrl: new URL(location.pathname + location.search + location.hash, origin),
      currentParams: current[0]?.params ?? {},
      nextUrl: new URL(page, origin),
      nextParams: m.params,
      defaultShouldRevalidate: true,
    });
    return typeof choice === "boolean" ? choice : true;
  });

  const data: string[] = [];
  if (page !== location.pathname + location.search + location.hash) {
    const ids: string[] = [];
    let optOut = false;
    for (const m of next) {
      const route = view.manifest.routes[m.route.id];
      if (!route?.hasLoader) continue;
      if (
        !forData.some((d) => d.route.id === m.route.id) &&
        m.route.id in loaderData &&
        view.routeModules[m.route.id]?.shouldRevalidate
      )
        optOut = true;
      else if (route.hasClientLoader) optOut = true;
      else ids.push(m.route.id);
    }
    if (ids.length > 0) {
      const url = singleFetchUrl(page, view.basename, view.trailingSlashAware, origin);
      if (optOut) url.searchParams.set("_routes", ids.join(","));
      data.push(url.pathname + url.search);
    }
  }

  const modules = new Set<string>();
  const styles = new Set<string>();
  for (const [i, m] of next.entries()) {
    if (!changed(m, i)) continue;
    const route = view.manifest.routes[m.route.id];
    if (!route) continue;
    for (const href of [route.module, route.clientActionModule, route.clientLoaderModule, ...(route.imports ?? [])])
      if (href) modules.add(href);
    for (const href of route.css ?? []) styles.add(href);
  }
  return { data, modules: [...modules], styles: [...styles] };
}

/** The running router, as React Router's HydratedRouter leaves it on `window`. */
function routerView(): RouterView | undefined {
  const w = window as Window & {
    __reactRouterDataRouter?: DataRouter;
    __reactRouterManifest?: AssetsManifest;
    __reactRouterRouteModules?: RouteModules;
    __reactRouterContext?: { future?: { v8_trailingSlashAwareDataRequests?: boolean } };
  };
  const router = w.__reactRouterDataRouter;
  if (!router || !w.__reactRouterManifest) return undefined;
  return {
    routes: router.routes,
    basename: router.basename ?? "/",
    state: router.state,
    manifest: w.__reactRouterManifest,
    routeModules: w.__reactRouterRouteModules ?? {},
    trailingSlashAware: w.__reactRouterContext?.future?.v8_trailingSlashAwareDataRequests === true,
  };
}

/**
 * Absolute URLs the document already has as a module, module preload, stylesheet or prefetch.
 * Vite adds preloads for lazy chunks later on, so the `<link>`s are read again when their number
 * has changed (reading every link's href for each new link was most of a prefetch's cost).
 */
const present = new Set<string>();
let linksSeen = -1;
function inDocument(): Set<string> {
  const links = document.getElementsByTagName("link");
  if (linksSeen < 0) for (const s of document.querySelectorAll<HTMLScriptElement>("script[src]")) present.add(s.src);
  if (links.length !== linksSeen) {
    for (const l of links) if (l.href) present.add(l.href);
    linksSeen = links.length;
  }
  return present;
}

type LinkSpec = { rel: "prefetch" | "modulepreload"; href: string; as?: "fetch" | "style" };

/** Adds the next of the waiting `<link>`s that the document lacks (skipping those it has). */
function addNextLink(links: LinkSpec[]): void {
  const known = inDocument();
  for (let spec = links.shift(); spec; spec = links.shift()) {
    const absolute = new URL(spec.href, location.href).href;
    if (known.has(absolute)) continue;
    known.add(absolute);
    const link = document.createElement("link");
    link.rel = spec.rel;
    if (spec.as) link.as = spec.as;
    // The CSP allows scripts by nonce ('strict-dynamic'); module preloads carry the page's nonce.
    const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
    if (nonce) link.nonce = nonce;
    link.dataset.prefetch = "";
    link.href = spec.href;
    document.head.appendChild(link);
    linksSeen = document.getElementsByTagName("link").length;
    return;
  }
}

const queued = new Set<string>();
const waiting: string[] = [];
/** `<link>`s worked out for queued pages, not yet in the document. */
const pendingLinks: LinkSpec[] = [];
let drainQueued = false;

/** Works out what following a link to `page` needs and queues its `<link>`s. */
function planPage(page: string): void {
  // A newer build is live: the next navigation is a full load of the new build (update-state.ts).
  if (isConstrainedNetwork() || updateState.isPending()) return;
  const view = routerView();
  if (!view) return;
  const targets = prefetchTargets(page, view, location.origin);
  for (const href of targets.modules) pendingLinks.push({ rel: "modulepreload", href });
  // Under a service worker, prefetch requests go through it, and a prefetch outlives the page
  // that started it: one still open through the old worker kept an accepted update from
  // activating (test/e2e/pwa.e2e.ts, the deploy journey). Nor would the navigation gain: its
  // data request goes through the worker too, which asks the network again (`no-cache`). So the
  // data and stylesheets are prefetched only when no worker controls the page (a first visit).
  if (!navigator.serviceWorker?.controller) {
    for (const href of targets.data) pendingLinks.push({ rel: "prefetch", href, as: "fetch" });
    for (const href of targets.styles) pendingLinks.push({ rel: "prefetch", href, as: "style" });
  }
}

/**
 * One idle period's share: a step at a time, each either a waiting `<link>` added or a queued
 * page worked out (links first, so a page planned is prefetched soon), for as long as the idle
 * period lasts (`slice`, lib/idle.ts) with room for one more step as long as the longest yet, and
 * at least one step. The rest waits for the next one.
 *
 * Matching a page against the whole route table cost 3-5 ms of main thread here unthrottled
 * (now only its candidate branches, `candidateRoutes`), and a `<link>` inserted into the document
 * some tenths of one to a few as Chromium starts its request; the first page of a route brings
 * every module of that route. In Lighthouse's traces a task that did a page and all its links took
 * 17-47 ms (71-189 ms as it simulates a phone), and a fixed share (a page, or four links) still
 * 10-27 ms on a busy machine. Lighthouse gives an idle callback 10 ms at its 4x slowdown (the
 * queue at most 6), so a drain that keeps to it stays under the 50 ms of a long task there.
 */
/** The longest step this page has taken, in ms: with Lighthouse's tracing on, a `<link>` took up to 6. */
let longestStep = 0;

function drain(slice: IdleSlice): void {
  do {
    const started = performance.now();
    if (pendingLinks.length > 0) addNextLink(pendingLinks);
    else if (waiting.length > 0) planPage(waiting.shift() ?? "");
    else break;
    longestStep = Math.max(longestStep, performance.now() - started);
    // Another step only if even the longest one so far would end within the period.
  } while (slice.timeRemaining() > longestStep);
  if (waiting.length > 0 || pendingLinks.length > 0) scheduleDrain();
}

function scheduleDrain(): void {
  if (drainQueued) return;
  drainQueued = true;
  whenIdle((slice) => {
    drainQueued = false;
    drain(slice);
  });
}

/** Queues what following a link to `page` (a path with its query) needs; `drain` prefetches it. */
function queuePage(page: string): void {
  const key = `${location.pathname}${location.search}|${page}`;
  if (queued.has(key)) return;
  queued.add(key);
  waiting.push(page);
}

let observer: IntersectionObserver | undefined;

function pageOf(a: HTMLAnchorElement): string | undefined {
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || a.target || a.hasAttribute("download") || a.hasAttribute("data-no-prefetch"))
    return undefined;
  return url.pathname + url.search;
}

/** Prefetches `a`'s page once it is in view. */
export function observe(a: HTMLAnchorElement): void {
  observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const a = entry.target as HTMLAnchorElement;
      observer?.unobserve(a);
      const page = pageOf(a);
      if (page) queuePage(page);
    }
    if (waiting.length > 0) scheduleDrain();
  });
  observer.observe(a);
}

export function unobserve(a: HTMLAnchorElement): void {
  observer?.unobserve(a);
}
