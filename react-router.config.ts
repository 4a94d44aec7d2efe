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
  future: {
    v8_middleware: true,
    v8_viteEnvironmentApi: true,
    v8_splitRouteModules: true,
  },
} satisfies Config;
