import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The storefront's data layer (app/lib/api/) is one client for the backend and the own server
// (STYLE.md "lib/api/"): it sets the headers of spec §7, parses the envelope and throws `ApiError`
// values. It shows nothing, so a loader or an action can call it without a toast appearing: the UI
// that catches an error decides (app/lib/browser-errors.ts). No other storefront module calls
// `fetch` for the backend or the own server; the boot machinery of app/client/ fetching the
// build's own files (update-poll.ts) is not a backend call.

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx)$/.test(entry.name)) out.push(path);
  }
  return out;
}

const posix = (path: string) => path.split(sep).join("/");

describe("the storefront's data layer", () => {
  it("app/lib/api/ imports no UI: no component, no toast, no React", () => {
    const found: string[] = [];
    for (const file of sourceFiles(join(ROOT, "app/lib/api"))) {
      for (const [, specifier] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
        const target = specifier.startsWith(".") ? posix(relative(ROOT, resolve(dirname(file), specifier))) : specifier;
        if (/^app\/(client|components|routes|state)\//.test(target) || /^(react|react-dom|sonner)$/.test(target))
          found.push(`${posix(relative(ROOT, file))}: ${specifier}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("only app/lib/api/ calls fetch for the backend or the own server", () => {
    const found: string[] = [];
    for (const file of sourceFiles(join(ROOT, "app"))) {
      const path = posix(relative(ROOT, file));
      if (path.startsWith("app/lib/api/") || path === "app/client/update-poll.ts") continue;
      if (/\bfetch\s*\(/.test(readFileSync(file, "utf8"))) found.push(path);
    }
    expect(found).toEqual([]);
  });
});
