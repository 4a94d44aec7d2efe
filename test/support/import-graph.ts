import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import ts from "typescript";

/**
 * The source tree's import graph, for the checks of its houses (test/node/backend-house.test.ts,
 * edge-house.test.ts): which modules a file names, the file each names, and the cycles among them.
 * Imports are read with TypeScript's own parser (static, dynamic, re-exports, `import type`), so
 * none is missed by a regex.
 */

/** The TypeScript sources under `dir`, declaration files left out. */
export function sourceFiles(dir: string): string[] {
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
export function resolveFile(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return base;
}

export const posix = (path: string) => path.split(sep).join("/");
export const inside = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

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
