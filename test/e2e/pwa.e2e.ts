import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import en from "../../locales/en.json" with { type: "json" };
import ar from "../../locales/ar.json" with { type: "json" };
import { baseEnv, freePort, root, stopWorker } from "../../scripts/lib/worker.ts";
import { expectAxeClean } from "../support/axe.ts";
import {
  CHROMIUM_PATH,
  contextWithoutServiceWorkers,
  journeyLocales,
  launchBrowser,
  LOCALES,
  SCREENSHOTS,
} from "../support/browser.ts";
import { copySeededDatabase, builtWorker } from "../support/http.ts";

const base = builtWorker().url;
const messages = { en, ar } as const;
const html = { en: { lang: "en-US", dir: "ltr" }, ar: { lang: "ar-SA", dir: "rtl" } } as const;
const BROWSER_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

let browser: Browser;
let productSlug: string;

/*
 * The deploy journey (last in this file) needs a second build with another BUILD_ID; it builds in
 * the background while the other journeys run.
 */
const buildDir = process.env.BUILD_DIR ?? "build";
const nextDir = `${buildDir}-next`;
const nextId = `e2e-next-${Date.now().toString(36)}`;
let nextBuild: Promise<void>;

function buildNext(): Promise<void> {
  return new Promise((resolve, reject) => {
    // vitest sets NODE_ENV=test, which would make this a development build of React.
    const child = spawn("npm", ["run", "build", "--silent"], {
      cwd: root,
      env: { ...baseEnv, NODE_ENV: "production", BUILD_DIR: nextDir, BUILD_ID: nextId },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`second build failed:\n${output}`))));
  });
}

beforeAll(async () => {
  nextBuild = buildNext();
  // Reported where it is awaited (the deploy journey), not as an unhandled rejection here.
  nextBuild.catch(() => undefined);
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const res = await fetch(`${base}/backend/products?per_page=1`, { headers: { "content-language": "en" } });
  productSlug = ((await res.json()) as { data: { slug: string }[] }).data[0].slug;
});
afterAll(async () => {
  await browser?.close();
  await nextBuild?.catch(() => undefined);
  rmSync(join(root, nextDir), { recursive: true, force: true });
}, 240_000);

/** Hydrated, and controlled by the service worker (which claims the page once activated). */
async function waitForServiceWorker(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 30_000 });
}

describe("installable and offline", () => {
  it("sw.js, the manifests and HTML are no-cache; hashed assets are immutable for a year", async () => {
    for (const path of [
      "/sw.js",
      "/manifest.en.webmanifest",
      "/manifest.ar.webmanifest",
      "/offline.en",
      "/offline.ar",
      "/en",
    ]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toContain("no-cache");
    }
    expect((await fetch(`${base}/manifest.ar.webmanifest`)).headers.get("content-type")).toBe(
      "application/manifest+json",
    );
    const page = await (await fetch(`${base}/en`)).text();
    const asset = /\/assets\/[\w.-]+\.js/.exec(page)?.[0];
    expect(asset).toBeDefined();
    expect((await fetch(`${base}${asset}`)).headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await fetch(`${base}/builds/latest.json?t=${Date.now()}`)).headers.get("cache-control")).toContain(
      "no-cache",
    );
  });

  for (const locale of LOCALES) {
    it(`in ${locale}: Chromium reports no installability errors and reads the locale's manifest`, async () => {
      // An incognito context is never installable, so this one has a profile on disk.
      const profile = mkdtempSync(join(tmpdir(), "souq-pwa-profile-"));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: BROWSER_ARGS,
      });
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        await page.goto(`${base}/${locale}`);
        await waitForServiceWorker(page);
        const cdp = await context.newCDPSession(page);
        const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
        expect(installabilityErrors).toEqual([]);
        const manifest = await cdp.send("Page.getAppManifest");
        expect(manifest.url).toBe(`${base}/manifest.${locale}.webmanifest`);
        expect(manifest.errors).toEqual([]);
        const data = JSON.parse(manifest.data ?? "{}") as Record<string, unknown>;
        expect(data).toMatchObject({
          name: messages[locale].app.name,
          short_name: messages[locale].app.shortName,
          start_url: `/${locale}`,
          scope: "/",
          lang: html[locale].lang,
          dir: html[locale].dir,
          display: "standalone",
        });
        expect((data.icons as { sizes: string; purpose: string }[]).map((i) => `${i.sizes} ${i.purpose}`)).toEqual([
          "192x192 any",
          "512x512 any",
          "512x512 maskable",
        ]);
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
    });

    it(`in ${locale}: a visited product page reloads offline, an unvisited page shows the offline page in ${locale}`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      try {
        await page.goto(`${base}/${locale}`);
        await waitForServiceWorker(page);
        await expect.poll(() => page.locator(".pwa-status").getAttribute("data-sw-state")).toBe("offline-ready");
        await expect.poll(() => page.getByText(messages[locale].sw.offlineReady).isVisible()).toBe(true);

        await page.goto(`${base}/${locale}/product-details/${productSlug}`);
        const title = await page.locator("h1").first().textContent();
        expect(title).toBeTruthy();

        await context.setOffline(true);
        // Everything the page needs (scripts, styles, locale file) comes from the precache.
        const missing: string[] = [];
        page.on("requestfailed", (r) => {
          // Requests the reload cut short (ERR_ABORTED) are not misses; offline misses are other errors.
          if (new URL(r.url()).pathname.startsWith("/assets/") && r.failure()?.errorText !== "net::ERR_ABORTED")
            missing.push(`${r.url()} ${r.failure()?.errorText}`);
        });
        await page.reload();
        expect(await page.locator("h1").first().textContent()).toBe(title);
        expect(await page.getAttribute("html", "lang")).toBe(html[locale].lang);
        await expect.poll(() => page.getByText(messages[locale].sw.offline).isVisible()).toBe(true);
        await page.screenshot({ path: `${SCREENSHOTS}/pwa-offline-product-${locale}.png` });
        expect(missing).toEqual([]);

        await page.goto(`${base}/${locale}/services`);
        expect(await page.locator("h1").textContent()).toBe(messages[locale].offline.heading);
        expect(await page.getAttribute("html", "lang")).toBe(html[locale].lang);
        expect(await page.getAttribute("html", "dir")).toBe(html[locale].dir);
        expect(await page.getByRole("link", { name: messages[locale].offline.home }).getAttribute("href")).toBe(
          `/${locale}`,
        );
        await page.screenshot({ path: `${SCREENSHOTS}/pwa-offline-page-${locale}.png` });

        // Personal pages are never cached, but offline they still get the page in their locale.
        await page.goto(`${base}/${locale}/shopping-cart`);
        expect(await page.locator("h1").textContent()).toBe(messages[locale].offline.heading);
      } finally {
        await context.close();
      }
    });
  }

  for (const locale of journeyLocales("ar")) {
    it(`in ${locale}: the install prompt is offered by the shop; accepted and cancelled are both answered`, async () => {
      const context = await contextWithoutServiceWorkers(browser);
      const page = await context.newPage();
      try {
        await page.goto(`${base}/${locale}`);
        await page.waitForFunction(() => "__reactRouterRouteModules" in window);
        // Chromium fires beforeinstallprompt on its own engagement rules, and its dialog cannot be
        // clicked headless: the event is dispatched here with the shopper's answer.
        const offer = (outcome: "accepted" | "dismissed") =>
          page.evaluate((answer) => {
            const event = new Event("beforeinstallprompt", { cancelable: true });
            Object.assign(event, {
              prompt: async () => undefined,
              userChoice: Promise.resolve({ outcome: answer, platform: "web" }),
            });
            window.dispatchEvent(event);
            return event.defaultPrevented;
          }, outcome);
        const t = messages[locale].sw;

        // Until hydration has run the shop's listener, nobody takes the event: offer it until taken.
        await expect.poll(() => offer("dismissed")).toBe(true);
        await expect.poll(() => page.getByText(t.installPrompt).isVisible()).toBe(true);
        await expectAxeClean(page);
        await page.screenshot({ path: `${SCREENSHOTS}/pwa-install-${locale}.png` });
        await page.getByRole("button", { name: t.install, exact: true }).click();
        await expect.poll(() => page.locator(".pwa-status").getAttribute("data-install-state")).toBe("dismissed");
        await expect.poll(() => page.getByText(t.installDismissed).isVisible()).toBe(true);
        expect(await page.getByRole("button", { name: t.install, exact: true }).count()).toBe(0);

        expect(await offer("accepted")).toBe(true);
        await page.getByRole("button", { name: t.install, exact: true }).click();
        await expect.poll(() => page.locator(".pwa-status").getAttribute("data-install-state")).toBe("accepted");
        await expect.poll(() => page.getByText(t.installAccepted).isVisible()).toBe(true);
      } finally {
        await context.close();
      }
    });
  }

  it("§9 link prefetch is on under the service worker too: links in view prefetch their page's data", async () => {
    // The deploy journey below proves a prefetch never holds an accepted update up (client/idle.ts
    // halts idle work once the shopper accepts, and nothing starts once a newer build is live).
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(`${base}/en/products`);
      await waitForServiceWorker(page);
      await page.reload();
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      await page.waitForFunction(() => document.readyState === "complete");
      const prefetched = () =>
        page
          .locator('link[rel="prefetch"][href*=".data"]')
          .evaluateAll((els) => els.map((e) => new URL((e as HTMLLinkElement).href).pathname));
      await expect
        .poll(async () => (await prefetched()).some((p) => p.startsWith("/en/product-details/")), { timeout: 20_000 })
        .toBe(true);
    } finally {
      await context.close();
    }
  });

  it("the service worker never caches cart, checkout, account or /api calls", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${base}/en/product-details/${productSlug}`);
      await waitForServiceWorker(page);
      await page.evaluate(async () => {
        const headers = { "content-language": "en" };
        await fetch("/backend/products?per_page=2", { headers });
        await fetch("/backend/cart", { headers });
        await fetch("/backend/orders", { headers });
        await fetch("/backend/client/auth/profile", { headers: { ...headers, authorization: "Bearer nope" } });
        await fetch("/backend/products?per_page=3", { headers: { ...headers, authorization: "Bearer someone" } });
        await fetch("/api/get-user");
      });
      const cached = await page.evaluate(async () => {
        const urls: string[] = [];
        for (const name of await caches.keys()) {
          if (name.includes("precache")) continue;
          for (const req of await (await caches.open(name)).keys())
            urls.push(new URL(req.url).pathname + new URL(req.url).search);
        }
        return urls;
      });
      expect(cached).toContain("/backend/products?per_page=2&__lang=en");
      expect(cached.filter((u) => /^\/(api|backend\/(cart|orders|client|checkout|payments))/.test(u))).toEqual([]);
      expect(cached.filter((u) => u.includes("per_page=3"))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("a chunk that fails to load reloads the page once, and not in a loop", async () => {
    // Requests answered by a service worker bypass page.route, so this context has none.
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    try {
      // The lazily imported workbox-window chunk is gone, as after a deploy.
      await page.route("**/assets/workbox-window*.js", (route) => route.fulfill({ status: 404, body: "Not found" }));
      let loads = 0;
      page.on("load", () => loads++);
      const guarded = page.waitForEvent("console", {
        predicate: (m) => m.text().includes("[chunk-reload]"),
        timeout: 30_000,
      });
      await page.goto(`${base}/en`);
      await guarded;
      // The second load met the same failure inside the 10 s guard: it stayed, with the flag set.
      await expect.poll(() => page.locator(".pwa-status").getAttribute("data-sw-registration-error")).toBe("true");
      expect(loads).toBe(2);
      const stamp = await page.evaluate(() => sessionStorage.getItem("chunk-reload:/en"));
      expect(Number(stamp)).toBeGreaterThan(Date.now() - 60_000);
      await expect.poll(() => page.getByText(en.sw.registrationError).isVisible()).toBe(true);
      expect(loads).toBe(2);
    } finally {
      await context.close();
    }
  });

  it("a browser without service workers gets the shop with no error; Playwright's block alone would show one", async () => {
    /** Opens home, waits for hydration and a quiet network, and reads what the shopper is told. */
    const visit = async (locale: (typeof LOCALES)[number], removeWorkers: boolean) => {
      const context = removeWorkers
        ? await contextWithoutServiceWorkers(browser)
        : await browser.newContext({ serviceWorkers: "block" });
      const page = await context.newPage();
      const workbox: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("workbox-window")) workbox.push(r.url());
      });
      try {
        await page.goto(`${base}/${locale}`);
        await page.waitForFunction(() => "__reactRouterRouteModules" in window);
        await page.waitForLoadState("networkidle");
        const error = page.getByText(messages[locale].sw.registrationError);
        // Playwright's stub answers `register` with undefined: the error toast follows.
        if (!removeWorkers) await expect.poll(() => error.isVisible()).toBe(true);
        else await page.waitForTimeout(1_000);
        return {
          toast: await error.isVisible(),
          flag: await page.locator(".pwa-status").getAttribute("data-sw-registration-error"),
          workbox: workbox.length,
        };
      } finally {
        await context.close();
      }
    };
    for (const locale of LOCALES) {
      // Nothing to register with: workbox-window is never fetched, and nothing is said.
      expect(await visit(locale, true)).toEqual({ toast: false, flag: null, workbox: 0 });
    }
    expect(await visit("ar", false)).toMatchObject({ toast: true, flag: "true" });
  });
});

/*
 * A deploy, as honest as a local run can make it: one origin (a fixed port) first served by the
 * build under test, then by a second build with another BUILD_ID (built here, into its own
 * folder), with the same database. The page opened on the first build finds the new id when its
 * hourly poll fires (Playwright's clock runs the hour) and turns its next navigation into a full
 * load; the new service worker waits until the shopper accepts, then the page reloads.
 */
describe("a deploy while the shop is open", () => {
  let persistDir: string;
  let port: number;
  let server: ChildProcess | undefined;

  function serve(dir: string): Promise<ChildProcess> {
    const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
    const args = [
      wrangler,
      "dev",
      "-c",
      `${dir}/server/wrangler.json`,
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      persistDir,
      "--show-interactive-dev-session=false",
      "--log-level",
      "warn",
    ];
    for (const [k, v] of Object.entries({
      ENVIRONMENT: "test",
      AUTH_PEPPER: "test-pepper",
      PAYMENT_SECRET: "test-payment-secret",
    }))
      args.push("--var", `${k}:${v}`);
    const child = spawn(process.execPath, args, { cwd: root, env: baseEnv, stdio: "ignore", detached: true });
    return (async () => {
      const deadline = Date.now() + 90_000;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`wrangler dev on ${dir} exited`);
        try {
          if ((await fetch(`http://127.0.0.1:${port}/builds/latest.json`)).ok) return child;
        } catch {
          // not listening yet
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      stopWorker(child);
      throw new Error(`wrangler dev on ${dir} did not answer`);
    })();
  }

  async function stop(child: ChildProcess | undefined) {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    stopWorker(child);
    await exited;
    // The port is free once nothing answers on it any more.
    for (let i = 0; i < 40; i++) {
      try {
        await fetch(`http://127.0.0.1:${port}/builds/latest.json`);
        await new Promise((r) => setTimeout(r, 250));
      } catch {
        return;
      }
    }
  }

  beforeAll(async () => {
    await nextBuild;
    persistDir = mkdtempSync(join(tmpdir(), "souq-deploy-"));
    copySeededDatabase(persistDir);
    port = await freePort();
  }, 240_000);
  afterAll(async () => {
    await stop(server);
    if (persistDir) rmSync(persistDir, { recursive: true, force: true });
  });

  it("the client notices the new build id within the hour and reloads on the next navigation", async () => {
    server = await serve(buildDir);
    const origin = `http://127.0.0.1:${port}`;
    const before = ((await (await fetch(`${origin}/builds/latest.json`)).json()) as { id: string }).id;
    expect(before).not.toBe(nextId);

    let context: BrowserContext | undefined;
    try {
      context = await browser.newContext();
      const page = await context.newPage();
      const pageLog: string[] = [];
      page.on("console", (m) => pageLog.push(`${m.type()}: ${m.text().slice(0, 300)}`));
      page.on("pageerror", (e) => pageLog.push(`pageerror: ${String(e)}`));
      await page.clock.install();
      await page.goto(`${origin}/en`);
      await waitForServiceWorker(page);
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      const latestCalls: string[] = [];
      const metaCalls: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/builds/latest.json")) latestCalls.push(r.url());
        if (r.url().includes("/builds/meta/")) metaCalls.push(new URL(r.url()).pathname);
      });

      // An hour with the same build: a poll, nothing pending, client navigation stays in the document.
      await page.clock.runFor(3_600_000);
      await expect.poll(() => latestCalls.length).toBe(1);
      expect(latestCalls[0]).toMatch(/\/builds\/latest\.json\?t=\d+$/);
      expect(await page.locator(".pwa-status").getAttribute("data-update-pending")).toBeNull();

      // The deploy: the same origin now serves the next build.
      await stop(server);
      server = await serve(nextDir);
      expect(((await (await fetch(`${origin}/builds/latest.json`)).json()) as { id: string }).id).toBe(nextId);

      await page.clock.runFor(3_600_000);
      await expect.poll(() => page.locator(".pwa-status").getAttribute("data-update-pending")).toBe("true");
      // §7: the new build's builds/meta/{buildId}.json was fetched when it was seen (never the running one's).
      expect(metaCalls).toEqual([`/builds/meta/${nextId}.json`]);
      await expect.poll(() => page.getByText(en.sw.updatePending).isVisible()).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

      // The next navigation (a client-side link) becomes a full load of its target.
      const loaded = page.waitForEvent("load");
      await page
        .locator("header.site-header")
        .getByRole("link", { name: en.nav.products, exact: true })
        .first()
        .click();
      await loaded;
      await page.waitForURL(`${origin}/en/products`);
      expect(
        await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
      ).toBeUndefined();

      // The new service worker is installed and waits; the shopper is asked, accepts, and the
      // page reloads when it takes control.
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
      const swReport = () =>
        page.evaluate(async () => {
          const r = await navigator.serviceWorker.getRegistration();
          return `installing=${r?.installing?.state} waiting=${r?.waiting?.state} active=${r?.active?.state} state=${document.querySelector(".pwa-status")?.getAttribute("data-sw-state")} ready=${document.readyState} hydrated=${"__reactRouterRouteModules" in window} controller=${navigator.serviceWorker.controller?.state}`;
        });
      try {
        await expect
          .poll(() => page.locator(".pwa-status").getAttribute("data-sw-state"), { timeout: 30_000 })
          .toBe("need-refresh");
      } catch (error) {
        throw new Error(`no need-refresh: ${await swReport()}\n${pageLog.slice(-20).join("\n")}`, { cause: error });
      }
      await page.screenshot({ path: `${SCREENSHOTS}/pwa-need-refresh-en.png` });
      // §4 "waiting": the shopper answers "Later"; the new version waits and the page says so. A
      // later page load asks again.
      await page.getByRole("button", { name: en.sw.later }).click();
      expect(await page.locator(".pwa-status").getAttribute("data-sw-state")).toBe("waiting");
      await expect.poll(() => page.getByText(en.sw.waiting).isVisible()).toBe(true);
      expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(
        true,
      );
      await page.reload();
      await expect
        .poll(() => page.locator(".pwa-status").getAttribute("data-sw-state"), { timeout: 30_000 })
        .toBe("need-refresh");
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      const reloaded = page.waitForEvent("load");
      await page.getByRole("button", { name: en.sw.reload }).click();
      try {
        await reloaded;
      } catch (error) {
        // A second message tells a lost message from an activation the old worker holds up.
        const before = await swReport();
        await page.evaluate(async () =>
          (await navigator.serviceWorker.getRegistration())?.waiting?.postMessage({ type: "SKIP_WAITING" }),
        );
        await page.waitForTimeout(5000);
        throw new Error(
          `no reload: ${before}\n5 s after a second SKIP_WAITING: ${await swReport()}\n${pageLog.slice(-20).join("\n")}`,
          { cause: error },
        );
      }
      expect(
        await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
      ).toBeUndefined();
      await expect
        .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL))
        .toBe(`${origin}/sw.js`);
    } finally {
      await context?.close();
    }
  }, 240_000);
});
