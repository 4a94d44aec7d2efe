import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// One id per build: the client polls /builds/latest.json and reloads when it changes.
const buildTime = Date.now();
const buildId = process.env.BUILD_ID ?? buildTime.toString(36);

export default defineConfig({
  define: {
    __BUILD_ID__: JSON.stringify(buildId),
    __BUILD_TIME__: String(buildTime),
  },
  plugins: [cloudflare({ viteEnvironment: { name: "ssr" } }), reactRouter()],
  build: { assetsInlineLimit: 0 },
});
