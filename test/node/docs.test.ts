import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The docs a newcomer reads stay short and their references stay true: PERFORMANCE.md holds the
// targets, the current figures and the decisions (the history is docs/perf-history.csv), keeps the
// markers the measuring scripts write between, and the conformance and security tables cite files
// and symbols, never line numbers, which drift with every edit.

const DOCS = resolve(fileURLToPath(new URL("../../docs", import.meta.url)));
const read = (name: string) => readFileSync(join(DOCS, name), "utf8");

/** Every section a script writes (`replaceSection` in scripts/lib/report.ts, `writeBetween` in scripts/load.ts). */
const WRITTEN: [file: string, section: string][] = [
  ["PERFORMANCE.md", "lighthouse"],
  ["PERFORMANCE.md", "bench"],
  ["PERFORMANCE.md", "search-bench"],
  ["PERFORMANCE.md", "latency"],
  ["PERFORMANCE.md", "render-cpu"],
  ["PERFORMANCE.md", "load-cache"],
  ["bundles.md", "bundles"],
];

describe("docs", () => {
  it("PERFORMANCE.md is under 400 lines", () => {
    expect(read("PERFORMANCE.md").split("\n").length).toBeLessThan(400);
  });

  it.each(WRITTEN)("%s keeps the markers of the section %s, once and in order", (file, section) => {
    const text = read(file);
    const start = text.indexOf(`<!-- ${section}:start -->`);
    const end = text.indexOf(`<!-- ${section}:end -->`);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    expect(text.indexOf(`<!-- ${section}:start -->`, start + 1)).toBe(-1);
  });

  it("SPEC.md and SECURITY.md cite symbols, not line numbers", () => {
    const lineCitation = /[\w.-]+\.(?:tsx?|js|sql|json|css|toml)\s*:\d+|`\s*:\d+(?:-\d+)?|_headers:\d+/g;
    for (const file of ["SPEC.md", "SECURITY.md"]) {
      expect(read(file).match(lineCitation) ?? [], file).toEqual([]);
    }
  });
});
