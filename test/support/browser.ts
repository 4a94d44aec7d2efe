import { existsSync } from "node:fs";
import { afterAll, afterEach, expect, it } from "vitest";
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  type Request,
} from "playwright-core";
import { visitorIp } from "./http.ts";

/**
 * Debian's Chromium headless shell (the `chromium-headless-shell` package, the same Chromium
 * release without the desktop browser around it: what Playwright itself runs headless), else the
 * full `chromium` in its headless mode. The full browser headless costs far more per page: on this
 * project's 2-core CI machine, Chromium 156 took 1.2 to 1.4 s to load a shop page (the worker
 * answering in 50 ms) and about 1 s of CPU per page, the shell 0.7 s and a quarter of the CPU
 * (Chromium 150, before the security update, 0.7 to 0.8 s). CHROMIUM_PATH overrides.
 */
export const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

/**
 * The browsers' time zone unless a test sets its own: the shop's (Asia/Riyadh), where its
 * shoppers and staff are, and where the worker (UTC) and the browser disagree about the clock, so a
 * date formatted without the shop's zone shows as a hydration error (`HYDRATION_ERROR`).
 * E2E_TIMEZONE overrides for a whole run.
 */
export const BROWSER_TIMEZONE = process.env.E2E_TIMEZONE ?? "Asia/Riyadh";

/**
 * React's hydration failures as the production build reports them (minified errors: 418 text or
 * markup differs, 423 the root fell back to client rendering, 425 text content did not match)
 * and as a development build words them.
 */
export const HYDRATION_ERROR = /Minified React error #(418|423|425)\b|Hydration failed|did not match/i;

/** Hydration failures seen on any page of any context since the last test ended. */
const hydrationFailures: string[] = [];

/** Takes the hydration failures seen so far (the check after each test does; a test may look sooner). */
export function takeHydrationFailures(): string[] {
  return hydrationFailures.splice(0);
}

/** Records the page errors and console errors of every page of `context` that are hydration failures. */
function watchHydration(context: BrowserContext): void {
  const seen = (text: string, url: string | undefined) => {
    if (HYDRATION_ERROR.test(text)) hydrationFailures.push(`${url ?? "(no page)"}: ${text.split("\n")[0]}`);
  };
  context.on("weberror", (e) => seen(String(e.error().stack ?? e.error()), e.page()?.url()));
  context.on("console", (m) => {
    if (m.type() === "error") seen(m.text(), m.page()?.url());
  });
}

/**
 * No page of the shop may fail to hydrate: any test during which one did fails, whether or not it
 * looked at the page's errors itself (a page left open past its test fails the file's last one).
 */
function failOnHydrationErrors(): void {
  const found = takeHydrationFailures();
  if (found.length > 0) throw new Error(`React hydration failed:\n${found.join("\n")}`);
}
afterEach(failOnHydrationErrors);
afterAll(failOnHydrationErrors);

/**
 * Debian's Chromium (CHROMIUM_PATH), headless, with nothing reaching out to the network. Every
 * context it opens runs in `BROWSER_TIMEZONE` unless told otherwise, and is watched for
 * hydration failures.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await launch();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options: BrowserContextOptions = {}) => {
    const context = await newContext({ timezoneId: BROWSER_TIMEZONE, ...options });
    watchHydration(context);
    return context;
  };
  return browser;
}

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--no-first-run",
    ],
  });
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  /**
   * The shop's service worker. Blocked unless a test is about it or about the whole shop as a
   * shopper has it: in a fresh context it installs and precaches every chunk, font and offline
   * page (about 150 files), which cost more Chromium and worker CPU than most journeys' own steps.
   * It is allowed in test/e2e/pwa.e2e.ts, the toast test that waits for "offline ready" and the
   * checkout journeys. Blocked, the page sees a browser without service workers
   * (`withoutServiceWorkers`), not Playwright's own block.
   */
  serviceWorkers?: "allow" | "block";
  /**
   * Link prefetch (spec §9). Off unless a test is about it or about the whole shop, by the
   * shopper's own setting the shop honours: Save-Data (client/prefetch.ts). On, each idle moment
   * prefetches the data and code of another link in view, a loader run in the worker each time,
   * for as long as the page stays open. On in the prefetch tests and in the checkout journeys.
   */
  prefetch?: boolean;
}

/** Everything on, as a shopper's browser has it: the service worker and link prefetch. */
export const AS_SHOPPER = { serviceWorkers: "allow", prefetch: true } as const satisfies PageOptions;

/**
 * Takes service workers out of the browser before any of the page's scripts run, so the shop
 * meets what it handles: a browser without them (client/pwa.ts registers nothing, and says
 * nothing). Playwright's own block replaces `register` with a stub that answers `undefined`, which
 * no browser does: workbox-window then threw, and the shop showed its "offline mode is
 * unavailable" error toast on every page a few seconds after hydration. In Arabic that toast
 * (top-right, spec §9) covers the header's start side: a click on the back button timed out
 * under it in CI (spec-client.e2e.ts).
 */
export function withoutServiceWorkers(): void {
  delete (Navigator.prototype as { serviceWorker?: unknown }).serviceWorker;
}

/** A context whose pages meet a browser without service workers (`withoutServiceWorkers`). */
export async function contextWithoutServiceWorkers(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ ...options, serviceWorkers: "block" });
  await context.addInitScript(withoutServiceWorkers);
  return context;
}

/** Emulates the browser's Save-Data setting (and a 4G connection) before any of the page's scripts run. */
export function saveData(on: boolean): void {
  Object.defineProperty(navigator, "connection", {
    configurable: true,
    value: Object.assign(new EventTarget(), { saveData: on, effectiveType: "4g" }),
  });
}

export async function newPage(
  browser: Browser,
  opts: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const options: BrowserContextOptions = {
    viewport: opts.viewport ?? { width: 1280, height: 900 },
    // Each context is its own visitor, from its own network, as shoppers are in production.
    extraHTTPHeaders: { "cf-connecting-ip": visitorIp() },
  };
  const context =
    opts.serviceWorkers === "allow"
      ? await browser.newContext({ ...options, serviceWorkers: "allow" })
      : await contextWithoutServiceWorkers(browser, options);
  if (!opts.prefetch) await context.addInitScript(saveData, true);
  const page = await context.newPage();
  trackRequests(page);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e.stack ?? e)));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  return { context, page, errors };
}

/** The requests a page opened by `newPage` has under way, speculative ones apart (`networkQuiet`). */
const requestsOf = new WeakMap<Page, { open: Set<Request>; changed: number }>();

/** A prefetch the shop asked for on speculation (spec §9: links prefetch once in view). */
const speculative = (r: Request) => (r.headers()["sec-purpose"] ?? "").includes("prefetch");

function trackRequests(page: Page): void {
  const state = { open: new Set<Request>(), changed: Date.now() };
  page.on("request", (r) => {
    if (speculative(r)) return;
    state.open.add(r);
    state.changed = Date.now();
  });
  const settled = (r: Request) => {
    if (state.open.delete(r)) state.changed = Date.now();
  };
  page.on("requestfinished", settled);
  page.on("requestfailed", settled);
  requestsOf.set(page, state);
}

/**
 * Waits until the page has loaded and no request has been open for `quietMs`, as Playwright's
 * "networkidle" does, except that the shop's link prefetches do not count: they trickle in one
 * page per idle period for as long as links come into view (client/prefetch.ts), change nothing
 * on the page, and kept "networkidle" waiting two to three seconds longer on every page of a
 * journey. A page not opened by `newPage` falls back to "networkidle".
 */
export async function networkQuiet(page: Page, quietMs = 500, timeout = 30_000): Promise<void> {
  const state = requestsOf.get(page);
  if (!state) return page.waitForLoadState("networkidle");
  await page.waitForLoadState("load");
  const deadline = Date.now() + timeout;
  while (state.open.size > 0 || Date.now() - state.changed < quietMs) {
    if (Date.now() > deadline)
      throw new Error(`network not quiet after ${timeout} ms: ${[...state.open].map((r) => r.url()).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const LOCALES = ["en", "ar"] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * A journey proves behaviour, not a language, so it runs in one locale (docs/TESTING.md): `runIn`,
 * chosen per journey so that about half of them walk the Arabic, right-to-left shop. Checks whose
 * point is the locale (direction, wording, Arabic input, the per-area smoke with axe) keep looping
 * over LOCALES. `E2E_LOCALES=both` runs every journey in both locales again, as before a release.
 */
export const BOTH_LOCALES = process.env.E2E_LOCALES === "both";
export function journeyLocales(runIn: Locale): readonly Locale[] {
  return BOTH_LOCALES ? LOCALES : [runIn];
}

/** Registers nothing: a journey inside a loop over LOCALES, for the locale it does not run in. */
const notHere = ((..._args: unknown[]) => undefined) as unknown as typeof it;
/** `it` inside a loop over LOCALES for a journey that runs in `runIn` only (see `journeyLocales`). */
export function journeyIt(locale: Locale, runIn: Locale): typeof it {
  return BOTH_LOCALES || locale === runIn ? it : notHere;
}
export const SCREENSHOTS = "test-results/screenshots";

/**
 * Waits until React has attached its handlers to an element (hydration finished there). A click
 * before that is the browser's own: a link would load a whole new document.
 */
export async function hydrated(page: Page, selector: string, timeout = 20_000): Promise<void> {
  await page.waitForFunction(
    (sel) => {
      const el = document.querySelector(sel);
      return el !== null && Object.keys(el).some((k) => k.startsWith("__reactProps"));
    },
    selector,
    { timeout },
  );
}

/**
 * Whether `selector`'s element sits where a link to it should bring it: just below the sticky
 * header (its top at most 48 px under the header's bottom edge, never behind it), or as near as
 * the end of the page lets it come.
 */
export function belowStickyHeader(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((s) => {
    const gap =
      document.querySelector(s)!.getBoundingClientRect().top -
      document.querySelector(".site-header")!.getBoundingClientRect().bottom;
    const atEnd = Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight - 1;
    return gap >= -1 && (gap <= 48 || atEnd);
  }, selector);
}

/** Resolves once the page has painted a frame and been idle: work queued after an event has run. */
export async function pageIdle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestIdleCallback(done))));
}

/** Waits until one of the page's toasts says `text` (15 s: a console save on a loaded machine). */
export async function toastSays(page: Page, text: string): Promise<void> {
  await expect
    .poll(() => page.locator("[data-sonner-toast]").allTextContents(), { timeout: 15_000, interval: 150 })
    .toEqual(expect.arrayContaining([expect.stringContaining(text)]));
}

/**
 * A full-page screenshot with everything painted. Playwright's `fullPage` captures beyond the
 * viewport without moving it, so what the shop lets the browser skip while out of view
 * (`content-visibility: auto`: product cards, the footer; docs/PERFORMANCE.md) would come out
 * blank. The viewport is made as tall as the page for the shot instead, then restored.
 */
export async function fullPageScreenshot(page: Page, path: string): Promise<void> {
  const size = page.viewportSize();
  if (!size) {
    await page.screenshot({ path, fullPage: true });
    return;
  }
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.min(Math.max(height, size.height), 16_000) });
  // Two frames: the newly visible content is laid out and painted; images now in view load.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  await page
    .waitForFunction(() => [...document.images].every((img) => img.complete), undefined, { timeout: 5_000 })
    .catch(() => undefined);
  await page.screenshot({ path, fullPage: true });
  await page.setViewportSize(size);
}
