import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The reference backend is a house of its own (DESIGN §1: it is replaceable, BACKEND_URL): every
// file under worker/backend/ imports only other files of the backend, the contract both sides share
// (contract/, whose server/ part holds the helpers the edge and the backend both run) and npm
// packages, never the edge that hosts it nor the storefront's locale files (its words are its own,
// worker/backend/messages/); the edge may import the backend's entry, not the other
// way. And its modules import each other in no cycle, type-only imports included: a cycle is
// where two modules cannot be read, tested or moved one without the other. Imports are read with
// TypeScript's own parser (static, dynamic, re-exports, `import type`), so none is missed by a regex.

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const HOUSE = "worker/backend";
/** Folders outside the house a backend file may import: the contract both sides share. */
const OUTSIDE_ALLOWED = ["contract"];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Every module specifier a file names: imports, re-exports, `import()` and `import x = require()`. */
export function specifiersOf(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file a relative specifier names, as the bundler resolves it (extension or index added). */
function resolveFile(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return base;
}

const posix = (path: string) => path.split(sep).join("/");
const inside = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

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

/**
 * One cycle per strongly connected component of more than one module (or a module importing
 * itself), found by Tarjan's algorithm, named by a shortest way round from its first module.
 */
export function cyclesOf(graph: Map<string, Set<string>>): string[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const strongConnect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        strongConnect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) components.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) strongConnect(node);
  return components
    .map((component) => {
      const members = new Set(component);
      const start = component[0];
      // Breadth-first from the start, within the component, back to the start.
      const previous = new Map<string, string>();
      const queue = [start];
      let closing: string | undefined;
      while (queue.length && !closing) {
        const node = queue.shift()!;
        for (const next of [...(graph.get(node) ?? [])].sort()) {
          if (!members.has(next)) continue;
          if (next === start) {
            closing = node;
            break;
          }
          if (!previous.has(next)) {
            previous.set(next, node);
            queue.push(next);
          }
        }
      }
      const way = [start];
      for (let node = closing!; node !== start; node = previous.get(node)!) way.splice(1, 0, node);
      const more = component.length > way.length ? ` (one knot of ${component.length}: ${component.join(", ")})` : "";
      return `${[...way, start].join(" → ")}${more}`;
    })
    .sort();
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
