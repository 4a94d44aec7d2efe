import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cyclesOf, inside, posix, resolveFile, sourceFiles, specifiersOf } from "../support/import-graph.ts";

// The edge (worker/ outside worker/backend/: the entry, the page cache, the own server's api/,
// middleware/ and lib/) imports in no cycle either, type-only imports included, as the backend's
// house does (backend-house.test.ts): a helper both sides of a ring need (the session cookie's name,
// which the bookmark middleware and the session both read) lives below them (worker/lib/).

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const EDGE = "worker";
const BACKEND = "worker/backend";

/** The import cycles among the edge's modules under `root` (the backend's own are its house's check). */
export function edgeCycles(root: string): string[] {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(join(root, EDGE))) {
    const name = posix(relative(root, file));
    if (inside(name, BACKEND)) continue;
    const edges = new Set<string>();
    graph.set(name, edges);
    for (const specifier of specifiersOf(file, readFileSync(file, "utf8"))) {
      if (!specifier.startsWith(".")) continue;
      const target = posix(relative(root, resolveFile(file, specifier)));
      if (inside(target, EDGE) && !inside(target, BACKEND)) edges.add(target);
    }
  }
  return cyclesOf(graph);
}

describe("the edge's own modules", () => {
  it("worker/ outside worker/backend/ imports in no cycle", () => {
    expect(edgeCycles(ROOT)).toEqual([]);
  });

  it("a ring through the edge's modules is reported by name, the backend's modules left to their own check", () => {
    const scratch = mkdtempSync(join(tmpdir(), "souq-edge-house-"));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(scratch, path)), { recursive: true });
        writeFileSync(join(scratch, path), text);
      };
      write("worker/api/session.ts", 'import { call } from "../backend-client";\nexport const name = "sid";\n');
      write("worker/backend-client.ts", 'import type { b } from "./middleware/bookmark";\nexport const call = 1;\n');
      write("worker/middleware/bookmark.ts", 'import { name } from "../api/session";\nexport const b = 1;\n');
      write("worker/backend/a.ts", 'import { c } from "./c";\nexport const a = 1;\n');
      write("worker/backend/c.ts", 'import { a } from "./a";\nexport const c = 1;\n');
      expect(edgeCycles(scratch)).toEqual([
        "worker/api/session.ts → worker/backend-client.ts → worker/middleware/bookmark.ts → worker/api/session.ts",
      ]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
