import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cyclesOf, inside, posix, resolveFile, sourceFiles, specifiersOf } from "../support/import-graph.ts";

// The reference backend is a house of its own (DESIGN §1: it is replaceable, BACKEND_URL): every
// file under worker/backend/ imports only other files of the backend, the contract both sides share
// (contract/, whose server/ part holds the helpers the edge and the backend both run) and npm
// packages, never the edge that hosts it nor the storefront's locale files (its words are its own,
// worker/backend/messages/); the edge may import the backend's entry, not the other
// way. And its modules import each other in no cycle, type-only imports included: a cycle is
// where two modules cannot be read, tested or moved one without the other. Imports are read with
// TypeScript's own parser (test/support/import-graph.ts), so none is missed by a regex.

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const HOUSE = "worker/backend";
/** Folders outside the house a backend file may import: the contract both sides share. */
const OUTSIDE_ALLOWED = ["contract"];

export interface HouseReport {
  /** `file: specifier (reaches target)` for every import of something outside the house and the contract. */
  outside: string[];
  /** Each cycle among the house's modules, as `a.ts → b.ts → a.ts`. */
  cycles: string[];
}

/** The imports that leave the backend's house, and the import cycles inside it, under `root`. */
export function backendHouse(root: string): HouseReport {
  const outside: string[] = [];
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(join(root, HOUSE))) {
    const name = posix(relative(root, file));
    const edges = new Set<string>();
    graph.set(name, edges);
    for (const specifier of specifiersOf(file, readFileSync(file, "utf8"))) {
      // A bare specifier is an npm package (or the runtime's own, `cloudflare:workers`).
      if (!specifier.startsWith(".")) continue;
      const target = posix(relative(root, resolveFile(file, specifier)));
      if (inside(target, HOUSE)) edges.add(target);
      else if (!OUTSIDE_ALLOWED.some((folder) => inside(target, folder)))
        outside.push(`${name}: ${specifier} (reaches ${target})`);
    }
  }
  return { outside: outside.sort(), cycles: cyclesOf(graph) };
}

describe("the backend's own house", () => {
  it("worker/backend imports nothing but itself, contract/ and npm packages, and its modules import each other in no cycle", () => {
    const report = backendHouse(ROOT);
    expect(report.outside).toEqual([]);
    expect(report.cycles).toEqual([]);
  });

  it("an import of the edge and a cycle (type-only, dynamic and re-export alike) are each reported by name", () => {
    const scratch = mkdtempSync(join(tmpdir(), "souq-backend-house-"));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(scratch, path)), { recursive: true });
        writeFileSync(join(scratch, path), text);
      };
      write("worker/env.ts", "export interface Env { DB: unknown }\n");
      write("worker/lib/i18n.ts", "export const say = 1;\n");
      write("contract/orders.ts", "export type Order = { id: number };\n");
      write(
        "worker/backend/services/a.ts",
        'import type { Env } from "../../env";\nimport { b } from "./b";\nimport type { Order } from "../../../contract/orders";\nimport { Hono } from "hono";\nexport const a = 1;\n',
      );
      write("worker/backend/services/b.ts", 'export { c as b } from "./c";\n');
      write("worker/backend/services/c.ts", 'import type { a } from "./a";\nexport const c = 2;\n');
      write("worker/backend/routes/d.ts", 'const later = () => import("./e");\nexport const d = 1;\n');
      write(
        "worker/backend/routes/e.ts",
        'import { d } from "./d";\nimport { say } from "../../lib/i18n";\nimport { a } from "../services/a";\n',
      );
      write("worker/backend/index.ts", 'import { d } from "./routes/d";\n');
      expect(backendHouse(scratch)).toEqual({
        outside: [
          "worker/backend/routes/e.ts: ../../lib/i18n (reaches worker/lib/i18n.ts)",
          "worker/backend/services/a.ts: ../../env (reaches worker/env.ts)",
        ],
        cycles: [
          "worker/backend/routes/d.ts → worker/backend/routes/e.ts → worker/backend/routes/d.ts",
          "worker/backend/services/a.ts → worker/backend/services/b.ts → worker/backend/services/c.ts → worker/backend/services/a.ts",
        ],
      });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
