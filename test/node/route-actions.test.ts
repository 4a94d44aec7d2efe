import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Mutations go through React Router's route actions (STYLE.md "A route module"): the console's
// order, customer, promo code, inventory and staff pages and the sign-in forms each export a
// `clientAction` (the tab holds the bearer token) that switches over the form's `intent`, and the
// backend is called from loaders and actions only, never from a click handler, a submit handler or
// an effect. The components these pages render submit to the route's action instead of calling the
// backend themselves. Read from the source tree with TypeScript's own parser.

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** The route modules whose mutations are their `clientAction`'s intents. */
const ROUTES = [
  "app/routes/admin/order.tsx",
  "app/routes/admin/customer.tsx",
  "app/routes/admin/promo-code.tsx",
  "app/routes/admin/inventory.tsx",
  "app/routes/admin/staff.tsx",
  "app/routes/admin/reviews.tsx",
  "app/routes/auth.login.tsx",
  "app/routes/auth.register.tsx",
  "app/routes/auth.otp.tsx",
  "app/routes/auth.forget-password.tsx",
  "app/routes/auth.confirm-password.tsx",
];

/** Reads a handler may still make: the inventory's product search answers as the manager types. */
const HANDLER_READS: Record<string, string[]> = { "app/routes/admin/inventory.tsx": ["findStockProducts"] };

/** Components those routes render that used to call the backend from their handlers. */
const COMPONENTS = ["app/components/console/StaffNotes.tsx", "app/components/console/OrderReturns.tsx"];

/** Functions of a route module that may call the backend: React Router calls them, not an event. */
const DATA_FUNCTIONS = new Set(["loader", "clientLoader", "action", "clientAction"]);

const posix = (path: string) => path.split(sep).join("/");

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(
    path,
    readFileSync(join(ROOT, path), "utf8"),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
}

/** Names a module imports as values (not `import type`) from the data layer, app/lib/api/. */
function dataLayerImports(file: ts.SourceFile, path: string): Set<string> {
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const target = posix(relative(ROOT, resolve(dirname(join(ROOT, path)), statement.moduleSpecifier.text)));
    const clause = statement.importClause;
    if (!target.startsWith("app/lib/api/") || !clause || clause.isTypeOnly) continue;
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements) if (!element.isTypeOnly) names.add(element.name.text);
  }
  return names;
}

/** The data function a node sits in, if any. */
function enclosingDataFunction(node: ts.Node): string | null {
  for (let at: ts.Node | undefined = node; at; at = at.parent)
    if (ts.isFunctionDeclaration(at) && at.name && DATA_FUNCTIONS.has(at.name.text)) return at.name.text;
  return null;
}

/** Every call of a data-layer function outside the module's loaders and actions, as "file:line name". */
function backendCallsOutsideData(path: string, file = parse(path)): string[] {
  const api = dataLayerImports(file, path);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && api.has(node.expression.text)) {
      const read = (HANDLER_READS[path] ?? []).includes(node.expression.text);
      // The client a handler's read goes through, as an argument of that read.
      const forRead =
        node.expression.text === "browserApi" &&
        ts.isCallExpression(node.parent) &&
        ts.isIdentifier(node.parent.expression) &&
        (HANDLER_READS[path] ?? []).includes(node.parent.expression.text);
      if (!read && !forRead && !enclosingDataFunction(node)) {
        const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push(`${path}:${line} ${node.expression.text}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function exportedFunction(file: ts.SourceFile, name: string): ts.FunctionDeclaration | undefined {
  return file.statements.find(
    (s): s is ts.FunctionDeclaration =>
      ts.isFunctionDeclaration(s) &&
      s.name?.text === name &&
      (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword),
  );
}

describe("mutations go through route actions", () => {
  it("each converted route module exports a clientAction that reads the form's intent", () => {
    const missing: string[] = [];
    for (const path of ROUTES) {
      const action = exportedFunction(parse(path), "clientAction");
      if (!action) missing.push(`${path}: no exported clientAction`);
      else if (!/\bintentOf\(/.test(action.getText())) missing.push(`${path}: its clientAction reads no intent`);
    }
    expect(missing).toEqual([]);
  });

  it("their backend calls run in loaders and actions only, never in a handler or an effect", () => {
    expect(ROUTES.flatMap((path) => backendCallsOutsideData(path))).toEqual([]);
  });

  it("the components they render submit to the route's action rather than calling the backend", () => {
    const found: string[] = [];
    for (const path of COMPONENTS) {
      const file = parse(path);
      for (const name of dataLayerImports(file, path)) found.push(`${path}: imports ${name}`);
      if (!/\buseRouteAction\(/.test(file.getText())) found.push(`${path}: submits to no route action`);
    }
    expect(found).toEqual([]);
  });

  it("the check sees a backend call in a click handler", () => {
    // The rule's own proof: a call like the ones this change removed is reported.
    const source = `import { browserApi } from "../../lib/api/browser";
import { shipOrder } from "../../lib/api/console-orders";
export async function clientAction() { return shipOrder(browserApi("en"), "1", { carrier: "", tracking_number: "" }); }
export default function Page() {
  return <button onClick={() => void shipOrder(browserApi("en"), "1", { carrier: "", tracking_number: "" })} />;
}`;
    const path = "app/routes/admin/example.tsx";
    const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    expect(backendCallsOutsideData(path, file)).toEqual([`${path}:5 shipOrder`, `${path}:5 browserApi`]);
  });
});
