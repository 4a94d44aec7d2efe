import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  // BUILD_DIR lets parallel builds (and their tests) use separate output folders.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  // No `prerender`: every page sits under the shop layout, whose loader reads the category menu
  // from D1 and the visitor's signed-in state, and the content pages come from the operator's
  // `pages` table; none of it exists at build time. What is the same for everyone and changes only
  // with a deploy (the offline pages) is written as static files by scripts/build-sw.ts.
  // docs/PERFORMANCE.md, "Prerendering and the payload files".
  // The whole route manifest comes with the first document (about 1.5 KB gzip for ~30 routes)
  // instead of "lazy" discovery: lazy mode fetched /__manifest for the links on the page right
  // after hydration and patched the routes in, a main-thread task Lighthouse counted as blocking
  // (docs/PERFORMANCE.md, "Changes made from the measurements").
  routeDiscovery: { mode: "initial" },
  future: {
    v8_middleware: true,
    // Loaders, actions and middleware get the request as it came (React Router 8's behaviour) and
    // read the page's URL from their `url` argument, which has React Router's own parts (`.data`,
    // `index`, `_routes`) removed: two `new Request()` and their URL parses fewer per request
    // (docs/PERFORMANCE.md, "A fresh render within the CPU budget").
    v8_passThroughRequests: true,
    v8_viteEnvironmentApi: true,
    // Off: a route's client loader, action and hydration fallback stay in its module. Split into
    // chunks of their own, every first load fetched them anyway, as 1–4 more files and 90–560 bytes
    // gzip per route, and a split-out HydrateFallback was missing at hydration (React's error 418).
    // Links in view prefetch their route's module, so a navigation rarely waits for it.
    v8_splitRouteModules: false,
  },
} satisfies Config;
