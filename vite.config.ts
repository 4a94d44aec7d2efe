import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

/** The packages budgets.json counts as the framework (one chunk, outside the app's own budget). */
const FRAMEWORK_PACKAGES: string[] = JSON.parse(readFileSync(new URL("./budgets.json", import.meta.url), "utf8"))
  .framework.packages;
/** The shell's modules under app/, for the "shell" chunk below (jotai, the cart state's library, and contract/edge and contract/locale, which the shell's modules import, join them). */
const SHELL_MODULES = [
  "lib/(i18n|locales|use-locale|idle|update-state|chunk-reload|abort-rejections|data-retry|money|cart|nonce)",
  "lib/api/(browser|client)",
  "state/cart",
  "components/(Logo|ErrorScreen|LoadingBar|PwaStatus|Header|Footer|CartDrawer|SearchBox|SmartLink)",
].map((p) => p.replaceAll("/", "[\\\\/]"));
const APP_DIR = fileURLToPath(new URL("./app/", import.meta.url));
const LAZY_SONNER = fileURLToPath(new URL("./app/lib/lazy-sonner.tsx", import.meta.url));

/**
 * The app's `import { toast, Toaster } from "sonner"` resolves to app/lib/lazy-sonner.tsx, which
 * loads sonner after hydration: ≈ 9 KB gzip off every page's first load (the bundle budget).
 * Only the app's own modules are redirected; lazy-sonner.tsx itself imports the real package.
 */
function lazySonner(): Plugin {
  return {
    name: "souq:lazy-sonner",
    enforce: "pre",
    resolveId(source, importer) {
      if (source !== "sonner" || !importer) return null;
      const from = importer.split("?")[0];
      return from.startsWith(APP_DIR) && from !== LAZY_SONNER ? LAZY_SONNER : null;
    },
    // sonner inserts its stylesheet when it loads (after hydration). Two of its rules set the
    // toasts' direction-dependent custom properties on `html[dir=…]` as well as on the toaster
    // (`[data-sonner-toaster][dir=…]`, which sonner gives the page's direction). Custom properties
    // inherit, so the `html` half made Chromium restyle every element of the page when the sheet
    // arrived, 10-20 ms of main thread at 1×; the toaster half alone reaches every toast.
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id.split("?")[0])) return null;
      const scoped = code.replace(/(\[data-sonner-toaster\]\[dir=(?:ltr|rtl)\]),html\[dir=(?:ltr|rtl)\]/g, "$1");
      if (scoped.includes("html[dir="))
        this.error("sonner's stylesheet changed: html[dir=…] rules are left (see lazySonner in vite.config.ts)");
      return { code: scoped, map: null };
    },
  };
}

// One id per build: the client polls /builds/latest.json and reloads when it changes.
const buildTime = Date.now();
const buildId = process.env.BUILD_ID ?? buildTime.toString(36);

export default defineConfig({
  define: {
    __BUILD_ID__: JSON.stringify(buildId),
    __BUILD_TIME__: String(buildTime),
  },
  plugins: [lazySonner(), cloudflare({ viteEnvironment: { name: "ssr" } }), reactRouter()],
  // The Vite manifest is kept (React Router deletes it unless set here) so the bundle budget test
  // can see which files each route loads; public/.assetsignore keeps it out of the deployed assets.
  build: { assetsInlineLimit: 0, manifest: true },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // V8's explicit compile hint: compile every function of the file eagerly, on the
            // streaming thread, instead of each on the main thread the first time it runs. The
            // shop's chunks are what a page runs as it loads (the framework's most of all):
            // main-thread lazy compilation while `/en` loads went from 76-96 ms to 22-31 ms
            // (Chromium trace, V8.CompileCode, unthrottled). After minification, so it stays.
            postBanner: "//# allFunctionsCalledOnLoad",
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
                  // loads first. Left to the automatic split it was 15 small chunks; gzipped one
                  // by one they cost 3.7 KB more on every route (the bundle budget's own
                  // measure) and 15 more requests. Modules added to the shell later and not
                  // named here still work; they become chunks of their own.
                  name: "shell",
                  test: new RegExp(
                    `(node_modules[\\\\/]jotai[\\\\/]|app[\\\\/](${SHELL_MODULES.join("|")})\\.tsx?$|contract[\\\\/](edge|locale)\\.ts$)`,
                  ),
                  priority: 5,
                },
              ],
            },
          },
        },
      },
    },
  },
});
