// Runs after `react-router build` (see the `build` script in package.json). Writes into the
// client output (BUILD_DIR, default build/client), before the service worker so both are precached:
// - offline.{en,ar}.html, the offline page per locale (served at /offline.{en,ar}): static HTML in
//   the shop's look, no script;
// then runs workbox-build generateSW to write sw.js with the workbox runtime inlined (no CDN), and
// appends the cart's Background Sync handler (`cartSyncHandler`).
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateSW, type RuntimeCaching } from "workbox-build";
import { LOCALES, type Locale } from "../app/lib/locales.ts";
import { CART_SYNC_MESSAGE, CART_SYNC_TAG } from "../app/lib/offline-cart/sync-tag.ts";
import { THEME_COLOR } from "../contract/web-manifest.ts";
import { consoleOnlyFiles } from "./lib/bundles.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const clientDir = join(root, process.env.BUILD_DIR ?? "build", "client");

type Messages = Record<string, Record<string, string>>;
const messages = (locale: Locale): Messages =>
  JSON.parse(readFileSync(join(root, "locales", `${locale}.json`), "utf8"));

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The shop's stylesheet: the hashed app-*.css the root route links. */
function appStylesheet(): string {
  const file = readdirSync(join(clientDir, "assets")).find((f) => /^app-[\w-]+\.css$/.test(f));
  if (!file) throw new Error(`build-sw: no assets/app-*.css in ${clientDir}; run react-router build first`);
  return `/assets/${file}`;
}

export function offlinePage(locale: Locale, stylesheet: string): string {
  const m = messages(locale);
  const info = LOCALES[locale];
  const t = (ns: string, key: string) => escapeHtml(m[ns][key]);
  const logo = readFileSync(join(root, "public", "favicon.svg"), "utf8")
    .trim()
    .replace("<svg ", `<svg class="logo" width="36" height="36" aria-hidden="true" `);
  return `<!doctype html>
<html lang="${info.tag}" dir="${info.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="${THEME_COLOR}">
<meta name="robots" content="noindex">
<title>${t("offline", "title")} | ${t("app", "name")}</title>
<link rel="stylesheet" href="${stylesheet}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="manifest" href="/manifest.${locale}.webmanifest">
<style>
.offline-card { max-inline-size: 36rem; margin-inline: auto; margin-block: 48px; padding: 32px 24px; background: var(--bg); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow); text-align: center; }
.offline-card svg { margin-block-end: 16px; color: var(--muted); }
.offline-card__actions { display: flex; flex-wrap: wrap; gap: 12px; justify-content: center; margin-block-start: 24px; }
.offline-card__actions a { display: inline-block; padding: 10px 18px; border-radius: var(--radius-sm); border: 1px solid var(--brand); text-decoration: none; font-weight: 600; }
.offline-card__actions a.primary { background: var(--brand); color: #fff; }
</style>
</head>
<body>
<header class="site-header site-header--bare">
<div class="site-header__bar container">
<a href="/${locale}" class="site-header__logo" aria-label="${t("app", "name")}">${logo}<span class="site-header__name">${t("app", "name")}</span></a>
</div>
</header>
<main id="main" class="site-main container">
<section class="offline-card" aria-labelledby="offline-heading">
<svg viewBox="0 0 24 24" width="56" height="56" aria-hidden="true"><path d="M2 8.5a15 15 0 0 1 20 0M5 12a10 10 0 0 1 14 0M8.5 15.5a5 5 0 0 1 7 0M3 3l18 18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/><circle cx="12" cy="19" r="1.5" fill="currentColor"/></svg>
<h1 id="offline-heading">${t("offline", "heading")}</h1>
<p>${t("offline", "body")}</p>
<p class="muted">${t("offline", "hint")}</p>
<p class="offline-card__actions"><a class="primary" href="">${t("offline", "retry")}</a><a href="/${locale}">${t("offline", "home")}</a></p>
</section>
</main>
</body>
</html>
`;
}

/*
 * Runtime caching. workbox-build serialises these functions into sw.js with toString(), so each
 * one is self-contained (no outer variables) and the "never cache" list is repeated inside the
 * predicates that could otherwise match it. Requests that match no route are not touched by the
 * service worker at all: /api/*, cart, checkout, orders, payments, /backend/client/*, anything
 * with an Authorization header, and every non-GET request.
 */
const runtimeCaching: RuntimeCaching[] = [
  // Pages under /ar: the network first (with navigation preload), then the cached copy, then the
  // Arabic offline page.
  {
    urlPattern: ({ request, url }) =>
      request.mode === "navigate" &&
      (url.pathname === "/ar" || url.pathname.startsWith("/ar/")) &&
      !/^\/ar\/(checkout|shopping-cart|orders|profile|proceed-payement|payment-status|order\/|auth\/|track-order|reviews\/|admin|wishlist\/shared\/)/.test(
        url.pathname,
      ),
    handler: "NetworkFirst",
    options: {
      cacheName: "pages",
      networkTimeoutSeconds: 4,
      expiration: { maxEntries: 60, maxAgeSeconds: 7 * 24 * 3600 },
      cacheableResponse: { statuses: [200] },
      precacheFallback: { fallbackURL: "/offline.ar" },
    },
  },
  // Every other page: the same, falling back to the English offline page.
  {
    urlPattern: ({ request, url }) =>
      request.mode === "navigate" &&
      !url.pathname.startsWith("/backend/") &&
      !url.pathname.startsWith("/api/") &&
      !url.pathname.startsWith("/builds/") &&
      !/^\/(en|ar)\/(checkout|shopping-cart|orders|profile|proceed-payement|payment-status|order\/|auth\/|track-order|reviews\/|admin|wishlist\/shared\/)/.test(
        url.pathname,
      ),
    handler: "NetworkFirst",
    options: {
      cacheName: "pages",
      networkTimeoutSeconds: 4,
      expiration: { maxEntries: 60, maxAgeSeconds: 7 * 24 * 3600 },
      cacheableResponse: { statuses: [200] },
      precacheFallback: { fallbackURL: "/offline.en" },
    },
  },
  // Account, cart and checkout pages are personal: never cached, but offline they still get the
  // offline page in their locale. So is a shared wishlist: its owner may revoke the link, and a
  // copy kept here would still show it. The shopper's own wishlist page is cached like any page:
  // its HTML holds no list (the list is read from this browser's storage after hydration), so
  // offline it opens from the cache and shows what was saved.
  {
    urlPattern: ({ request, url }) =>
      request.mode === "navigate" &&
      /^\/ar\/(checkout|shopping-cart|orders|profile|proceed-payement|payment-status|order\/|auth\/|track-order|reviews\/|admin|wishlist\/shared\/)/.test(
        url.pathname,
      ),
    handler: "NetworkOnly",
    options: { precacheFallback: { fallbackURL: "/offline.ar" } },
  },
  {
    urlPattern: ({ request, url }) =>
      request.mode === "navigate" &&
      /^\/en\/(checkout|shopping-cart|orders|profile|proceed-payement|payment-status|order\/|auth\/|track-order|reviews\/|admin|wishlist\/shared\/)/.test(
        url.pathname,
      ),
    handler: "NetworkOnly",
    options: { precacheFallback: { fallbackURL: "/offline.en" } },
  },
  // React Router's data requests for pages (`*.data`), so a page visited by client navigation
  // also works offline; the same personal pages are excluded.
  {
    urlPattern: ({ request, url, sameOrigin }) =>
      sameOrigin &&
      url.pathname.endsWith(".data") &&
      !request.headers.has("authorization") &&
      !/^\/(en|ar)\/(checkout|shopping-cart|orders|profile|proceed-payement|payment-status|order\/|auth\/|track-order|reviews\/|admin|wishlist\/shared\/)/.test(
        url.pathname,
      ),
    handler: "NetworkFirst",
    options: {
      cacheName: "page-data",
      networkTimeoutSeconds: 4,
      expiration: { maxEntries: 60, maxAgeSeconds: 24 * 3600 },
      cacheableResponse: { statuses: [200] },
    },
  },
  // Product images: served from the cache at once and refreshed in the background.
  {
    urlPattern: ({ url, sameOrigin }) =>
      sameOrigin && (url.pathname.startsWith("/backend/media/") || url.pathname.startsWith("/images/")),
    handler: "StaleWhileRevalidate",
    options: {
      cacheName: "product-images",
      expiration: { maxEntries: 150, maxAgeSeconds: 30 * 24 * 3600 },
      cacheableResponse: { statuses: [200] },
    },
  },
  // Public catalogue reads: the network first, a recent copy when offline. The answer's language
  // comes from the content-language header, so it is part of the cache key.
  {
    urlPattern: ({ request, url, sameOrigin }) =>
      sameOrigin &&
      /^\/backend\/(products|categories|brands|home|search\/suggest|pages|services)(\/|$)/.test(url.pathname) &&
      !request.headers.has("authorization"),
    handler: "NetworkFirst",
    options: {
      cacheName: "catalogue",
      networkTimeoutSeconds: 3,
      expiration: { maxEntries: 80, maxAgeSeconds: 10 * 60 },
      cacheableResponse: { statuses: [200] },
      plugins: [
        {
          cacheKeyWillBeUsed: async ({ request }: { request: Request }) => {
            const key = new URL(request.url);
            key.searchParams.set("__lang", request.headers.get("content-language") ?? "");
            return key.href;
          },
        },
      ],
    },
  },
];

/**
 * The Background Sync handler (app/lib/offline-cart): a page with cart changes made offline
 * registers CART_SYNC_TAG, and when the browser has a connection again it fires `sync` here. The
 * worker does not replay the changes itself: cart calls carry the tab's bearer token or guest id,
 * which live in that tab's session storage and must not be handed to a worker that outlives it.
 * It asks the shop's open pages to replay their own queues; with none open, the next page load
 * replays (and the sync counts as done: a retry would find no page either).
 */
export function cartSyncHandler(): string {
  return `
self.addEventListener("sync", (event) => {
  if (event.tag !== ${JSON.stringify(CART_SYNC_TAG)}) return;
  event.waitUntil(
    self.clients.matchAll({ type: "window" }).then((pages) => {
      for (const page of pages) page.postMessage({ type: ${JSON.stringify(CART_SYNC_MESSAGE)} });
    }),
  );
});
`;
}

async function main() {
  if (!existsSync(join(clientDir, "assets"))) throw new Error(`build-sw: ${clientDir} has no client build`);
  const stylesheet = appStylesheet();
  for (const locale of Object.keys(LOCALES) as Locale[]) {
    writeFileSync(join(clientDir, `offline.${locale}.html`), offlinePage(locale, stylesheet));
  }

  const consoleOnly = consoleOnlyFiles(process.env.BUILD_DIR ?? "build");
  const { count, size, warnings } = await generateSW({
    swDest: join(clientDir, "sw.js"),
    globDirectory: clientDir,
    // Hashed assets (route chunks, both locale files, CSS), the offline pages and the icons. The
    // manifests are the edge's (they carry the store's name: worker/manifest.ts), fetched by the
    // browser when it looks; the pages themselves are cached when visited (runtime caching above).
    globPatterns: ["assets/**/*.{js,css,svg,png,woff2}", "offline.*.html", "icons/*.{png,svg}", "favicon.svg"],
    dontCacheBustURLsMatching: /^assets\//,
    // Static hosting serves offline.en.html at /offline.en (and redirects the .html name there), so
    // the offline pages are precached under the URL that answers without a redirect.
    manifestTransforms: [
      async (entries) => ({
        // The operator console is for staff and is never offline: its code is not precached.
        manifest: entries
          .filter((entry) => !consoleOnly.has(entry.url))
          .map((entry) => {
            const offline = /^offline\.(en|ar)\.html$/.exec(entry.url);
            return offline ? { ...entry, url: `offline.${offline[1]}` } : entry;
          }),
        warnings: [],
      }),
    ],
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
    inlineWorkboxRuntime: true,
    sourcemap: false,
    mode: "production",
    navigationPreload: true,
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    // A new worker waits until the shopper accepts the update (a SKIP_WAITING message), then
    // the page reloads when it takes control (app/client/pwa.ts).
    skipWaiting: false,
    runtimeCaching,
  });
  appendFileSync(join(clientDir, "sw.js"), cartSyncHandler());
  for (const w of warnings) console.warn(`build-sw: ${w}`);
  console.log(`build-sw: ${join(clientDir, "sw.js")} precaches ${count} files (${Math.round(size / 1024)} kB)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
