// The locale files in two parts for the browser: `virtual:locale/{en,ar}/shop` is every
// message but the operator console's, `virtual:locale/{en,ar}/console` only the console's. The
// source of truth stays locales/{en,ar}.json (one file per language, same keys); shoppers simply
// never download the console's strings. (The messages the backend sends are its own, in
// worker/backend/messages/.) Used by vite.config.ts and vitest.config.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";

const ID = /^virtual:locale\/(en|ar)\/(shop|console)$/;

export function localeParts(root: string): Plugin {
  return {
    name: "souq-locale-parts",
    resolveId(id) {
      return ID.test(id) ? `\0${id}` : undefined;
    },
    load(id) {
      const match = ID.exec(id.replace(/^\0/, ""));
      if (!id.startsWith("\0") || !match) return undefined;
      const file = join(root, "locales", `${match[1]}.json`);
      this.addWatchFile(file);
      // `noScript` is said only in a page the server renders for a browser without JavaScript.
      const {
        console: consoleMessages,
        noScript: _noScript,
        ...shop
      } = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      const part = match[2] === "console" ? { console: consoleMessages } : shop;
      return `export default ${JSON.stringify(part)};`;
    },
  };
}
