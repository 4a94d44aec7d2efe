import { describe, expect, it } from "vitest";
import { createPrefetchQueue, type PrefetchAnchor, type PrefetchEnvironment } from "../../app/client/prefetch";

const ORIGIN = "https://shop.example";

/**
 * A page as the prefetch queue sees it, played by hand: the load event, idle periods and links
 * scrolling into view happen when the test says so.
 */
function fakePage(options: { constrained?: boolean; paused?: boolean; loaded?: boolean } = {}) {
  let loaded = options.loaded ?? false;
  const onLoad: (() => void)[] = [];
  const idle: (() => void)[] = [];
  const watching = new Map<PrefetchAnchor, () => void>();
  const state = {
    here: `${ORIGIN}/en/products`,
    constrained: options.constrained ?? false,
    paused: options.paused ?? false,
  };
  const env: PrefetchEnvironment = {
    here: () => state.here,
    afterLoad: (cb) => (loaded ? cb() : onLoad.push(cb)),
    whenIdle: (job) => void idle.push(job),
    constrained: () => state.constrained,
    paused: () => state.paused,
    whenVisible: (a, cb) => {
      watching.set(a, cb);
      return () => watching.delete(a);
    },
  };
  const queue = createPrefetchQueue(env);
  const prefetched: string[] = [];
  queue.subscribe((page, from) => prefetched.push(`${from} -> ${page}`));
  return {
    queue,
    state,
    prefetched,
    load() {
      loaded = true;
      for (const cb of onLoad.splice(0)) cb();
    },
    /** Runs the idle job queued first, as the next idle period of the browser. */
    idlePeriod() {
      idle.shift()?.();
    },
    idleJobs: () => idle.length,
    watched: () => watching.size,
    scrollIntoView(a: PrefetchAnchor) {
      const cb = watching.get(a);
      watching.delete(a);
      cb?.();
    },
  };
}

const link = (href: string, attrs: Record<string, string> = {}): PrefetchAnchor => ({
  href: new URL(href, ORIGIN).href,
  target: attrs.target ?? "",
  hasAttribute: (name: string) => name in attrs,
});

describe("link prefetching (client/prefetch.ts)", () => {
  it("watches no link before the page has loaded, and none until the browser is idle after it", () => {
    const page = fakePage();
    page.queue.watch(link("/en/product-details/phone-1"));
    expect(page.watched()).toBe(0);
    expect(page.idleJobs()).toBe(0);
    page.load();
    expect(page.watched()).toBe(0);
    page.idlePeriod();
    expect(page.watched()).toBe(1);
  });

  it("prefetches a visible link's page once the page is idle, one page per idle period, each once", () => {
    const page = fakePage({ loaded: true });
    const a = link("/en/product-details/phone-1");
    const b = link("/en/product-details/phone-2?colour=red");
    const c = link("/en/product-details/phone-1");
    for (const l of [a, b, c]) page.queue.watch(l);
    page.idlePeriod();
    page.scrollIntoView(a);
    page.scrollIntoView(b);
    page.scrollIntoView(c);
    expect(page.prefetched).toEqual([]);
    page.idlePeriod();
    expect(page.prefetched).toEqual(["/en/products -> /en/product-details/phone-1"]);
    page.idlePeriod();
    expect(page.prefetched).toEqual([
      "/en/products -> /en/product-details/phone-1",
      "/en/products -> /en/product-details/phone-2?colour=red",
    ]);
    page.idlePeriod();
    expect(page.prefetched).toHaveLength(2);
    expect(page.idleJobs()).toBe(0);
  });

  it("prefetches links that differ only in their query once: the first in view speaks for the rest", () => {
    const page = fakePage({ loaded: true });
    page.state.here = `${ORIGIN}/en`;
    const lists = ["/en/products?category=phones", "/en/products?category=tvs", "/en/products?sort=price_asc"].map(
      (h) => link(h),
    );
    const other = link("/en/services");
    for (const l of [...lists, other]) page.queue.watch(l);
    page.idlePeriod();
    for (const l of [...lists, other]) page.scrollIntoView(l);
    while (page.idleJobs() > 0) page.idlePeriod();
    expect(page.prefetched).toEqual(["/en -> /en/products?category=phones", "/en -> /en/services"]);
  });

  it("leaves out links that are not in view, to other sites, to a new tab, downloads, opted out, and the page itself", () => {
    const page = fakePage({ loaded: true });
    const below = link("/en/product-details/phone-9");
    const others = [
      link("https://elsewhere.example/en/products"),
      link("/en/about-us", { target: "_blank" }),
      link("/files/catalogue.pdf", { download: "" }),
      link("/en/cart", { "data-no-prefetch": "" }),
      link("/en/products"),
    ];
    for (const l of [below, ...others]) page.queue.watch(l);
    page.idlePeriod();
    for (const l of others) page.scrollIntoView(l);
    while (page.idleJobs() > 0) page.idlePeriod();
    expect(page.prefetched).toEqual([]);
  });

  it("never prefetches on Save-Data or 2g", () => {
    const page = fakePage({ loaded: true, constrained: true });
    const a = link("/en/product-details/phone-1");
    page.queue.watch(a);
    page.idlePeriod();
    expect(page.watched()).toBe(0);
    page.queue.watch(link("/en/product-details/phone-2"));
    expect(page.watched()).toBe(0);
    expect(page.prefetched).toEqual([]);
  });

  it("stops when the connection becomes constrained, under a service worker or with an update pending", () => {
    for (const flip of ["constrained", "paused"] as const) {
      const page = fakePage({ loaded: true });
      const a = link("/en/product-details/phone-1");
      page.queue.watch(a);
      page.idlePeriod();
      page.scrollIntoView(a);
      page.state[flip] = true;
      page.idlePeriod();
      expect(page.prefetched, flip).toEqual([]);
    }
  });

  it("drops what was found on a page the shopper has left", () => {
    const page = fakePage({ loaded: true });
    const a = link("/en/product-details/phone-1");
    page.queue.watch(a);
    page.idlePeriod();
    page.scrollIntoView(a);
    page.state.here = `${ORIGIN}/en/about-us`;
    page.idlePeriod();
    expect(page.prefetched).toEqual([]);
  });

  it("stops watching a link that unmounts", () => {
    const page = fakePage();
    const stop = page.queue.watch(link("/en/product-details/phone-1"));
    stop();
    page.load();
    page.idlePeriod();
    expect(page.watched()).toBe(0);
    const later = page.queue.watch(link("/en/product-details/phone-2"));
    expect(page.watched()).toBe(1);
    later();
    expect(page.watched()).toBe(0);
  });
});
