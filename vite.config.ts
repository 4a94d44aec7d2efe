import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { readFileSync } from "node:fs";
import { defineConfig } from "vite";
import { localeParts } from "./scripts/lib/locale-parts.ts";

const BUDGETS = JSON.parse(readFileSync(new URL("./budgets.json", import.meta.url), "utf8")) as {
  framework: { packages: string[] };
  compileHint: { minBytes: number };
};
/** The packages budgets.json counts as the framework (one chunk, outside the app's own budget). */
const FRAMEWORK_PACKAGES = BUDGETS.framework.packages;
/** The shell's modules under app/, for the "shell" chunk below (jotai, the cart state's library, and contract/edge, contract/locale and contract/shop-clock, which the shell's modules import, join them). */
const SHELL_MODULES = [
  "lib/(i18n|locales|use-locale|money|cart|nonce|link|shop-not-found|revalidation)",
  "client/(idle|update-state|chunk-reload|abort-rejections|data-retry|prefetch|Prefetcher|toast)",
  "lib/api/(browser|client)",
  "state/(cart|store)",
  "components/(Logo|ErrorScreen|LoadingBar|PwaStatus|Header|Footer|CartDrawer|SearchBox|SmartLink|ShopChrome)",
].map((p) => p.replaceAll("/", "[\\\\/]"));

// One id per build: the client polls /builds/latest.json and reloads when it changes.
const buildTime = Date.now();
const buildId = process.env.BUILD_ID ?? buildTime.toString(36);

export default defineConfig({
  define: {
    __BUILD_ID__: JSON.stringify(buildId),
    __BUILD_TIME__: String(buildTime),
  },
  plugins: [cloudflare({ viteEnvironment: { name: "ssr" } }), reactRouter(), localeParts(import.meta.dirname)],
  // The Vite manifest is kept (React Router deletes it unless set here) so the bundle budget test
  // can see which files each route loads; public/.assetsignore keeps it out of the deployed assets.
  build: { assetsInlineLimit: 0, manifest: true },
  resolve: {
    alias: {
      // rosetta's key lookup: the package's own ES module build (its "module" field). Vite takes a
      // package's "browser" field first, which for dlv is a UMD file holding the function three
      // times behind a CommonJS wrapper, in the shell every page loads (about 0.1 KB gzip).
      dlv: "dlv/dist/dlv.es.js",
    },
  },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // V8's explicit compile hint: compile every function of the file eagerly, on the
            // streaming thread, instead of each on the main thread the first time it runs. The
            // shop's chunks are what a page runs as it loads (the framework's most of all;
            // docs/PERFORMANCE.md, "Compile hints"). After minification, so it stays. Not on a
            // chunk too small to be worth its bytes (budgets.json, compileHint).
            postBanner: (chunk) =>
              Object.values(chunk.modules).reduce((sum, m) => sum + m.renderedLength, 0) >= BUDGETS.compileHint.minBytes
                ? "//# allFunctionsCalledOnLoad"
                : "",
            codeSplitting: {
              groups: [
                {
                  // The framework changes only with a dependency upgrade: one long-cached chunk,
                  // and the line the bundle budget draws between the framework and the shop's code.
                  name: "framework",
                  test: new RegExp(`node_modules[\\\\/](${FRAMEWORK_PACKAGES.join("|")})[\\\\/]`),
                  priority: 10,
                },
                {
                  // The shop's shell: what the root and shop layouts import, which every page
                  // loads first, as one chunk instead of many small ones (docs/PERFORMANCE.md,
                  // "Bundles"). Modules added to the shell later and not named here still work;
                  // they become chunks of their own.
                  name: "shell",
                  test: new RegExp(
                    `(node_modules[\\\\/]jotai[\\\\/]|app[\\\\/](${SHELL_MODULES.join("|")})\\.tsx?$|contract[\\\\/](edge|locale|shop-clock)\\.ts$)`,
                  ),
                  priority: 5,
                },
                {
                  // What every shop page loads after the shell and the console never does: the
                  // tab's start-up (client/tab-start.ts) and the pages' meta tags (lib/seo.ts).
                  // One file instead of two small ones compresses better (docs/PERFORMANCE.md, "Bundles").
                  name: "storefront",
                  test: /app[\\/](client[\\/]tab-(start|storage)|lib[\\/]seo)\.ts$/,
                  priority: 4,
                },
              ],
            },
          },
        },
      },
    },
  },
});
