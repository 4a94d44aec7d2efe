import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { inside, sourceFiles, specifiersOf } from "../support/import-graph.ts";

// Who may import what (STYLE.md "The map", DESIGN §10 "Contract"): the contract imports neither
// side; the storefront reaches outside app/ only for the contract and the shared messages; the
// reference backend imports nothing of the storefront or the own server, and no part of the
// edge imports the storefront (what both need lives in contract/edge.ts and contract/locale.ts). A forbidden import
// fails this test (the second test proves it on a scratch tree).

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

interface Rule {
  /** Files under this folder… */
  from: string;
  /** …may import relative paths only inside these folders (null: anywhere), and never inside `forbidden`. */
  allowed: string[] | null;
  forbidden: string[];
}

const RULES: Rule[] = [
  { from: "contract", allowed: ["contract"], forbidden: [] },
  // contract/server holds what the edge and the backend both run (hono middleware, D1 stores): server-only.
  { from: "app", allowed: ["app", "contract", "locales"], forbidden: ["contract/server"] },
  { from: "worker/backend", allowed: null, forbidden: ["app", "worker/api"] },
  // The own server reaches the backend only through worker/backend-client.ts, the transport an
  // external backend is reached by too; what both need (tokens, errors, validation) is in contract/server.
  { from: "worker/api", allowed: null, forbidden: ["app", "worker/backend"] },
  // The edge hands the storefront its context through contract/edge.ts, never by reaching into app/.
  { from: "worker", allowed: null, forbidden: ["app"] },
];

/** Every import that breaks a rule, as `file: specifier (rule)`, under `root`. */
export function forbiddenImports(root: string): string[] {
  const found: string[] = [];
  for (const rule of RULES) {
    let files: string[];
    try {
      files = sourceFiles(join(root, rule.from));
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const specifier of specifiersOf(file, text)) {
        if (!specifier.startsWith(".")) continue;
        const target = relative(root, resolve(dirname(file), specifier))
          .split(sep)
          .join("/");
        const ok =
          (!rule.allowed || rule.allowed.some((folder) => inside(target, folder))) &&
          !rule.forbidden.some((folder) => inside(target, folder));
        if (!ok)
          found.push(
            `${relative(root, file).split(sep).join("/")}: ${specifier} (${rule.from}/ may not import ${target})`,
          );
      }
    }
  }
  return found;
}

describe("import boundaries", () => {
  it("the contract imports neither side, the storefront only the contract and the messages, the backend nothing of the storefront or the own server, the own server nothing of the backend, the edge nothing of the storefront", () => {
    expect(forbiddenImports(ROOT)).toEqual([]);
  });

  // A stylesheet imported for its side effect reaches the page through React Router's <Links>,
  // which React writes after the module preloads: the storefront imports its sheets as URLs and
  // renders them with <Stylesheet> (components/Stylesheet.tsx), the first thing the head asks for.
  it("the storefront imports stylesheets only as URLs (`?url`), for <Stylesheet>", () => {
    const sideEffects = sourceFiles(join(ROOT, "app")).flatMap((file) =>
      specifiersOf(file, readFileSync(file, "utf8"))
        .filter((specifier) => /\.css(\?.*)?$/.test(specifier) && !specifier.endsWith(".css?url"))
        .map((specifier) => `${relative(ROOT, file).split(sep).join("/")}: ${specifier}`),
    );
    expect(sideEffects).toEqual([]);
  });

  it("a deliberately forbidden import is reported, with its file and what it reached", () => {
    const scratch = mkdtempSync(join(tmpdir(), "souq-boundaries-"));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(scratch, path)), { recursive: true });
        writeFileSync(join(scratch, path), text);
      };
      write(
        "app/lib/catalogue.ts",
        'import type { ProductSummary } from "../../worker/backend/services/catalogue";\nimport type { Order } from "../../contract/orders";\nimport { say } from "../../contract/server/i18n";\n',
      );
      write(
        "app/routes/home.tsx",
        'const lazy = () => import("../../worker/api/session");\nimport en from "../../locales/en.json";\n',
      );
      write("contract/orders.ts", 'import type { Env } from "../worker/env";\n');
      write(
        "worker/backend/routes/cart.ts",
        'import { readSession } from "../../api/session";\nimport type { Order } from "../../../contract/orders";\n',
      );
      write(
        "worker/api/cart.ts",
        'import { mintGuestId } from "../backend/identity";\nimport { callBackend } from "../backend-client";\n',
      );
      write(
        "worker/page-cache.ts",
        'import { localeOfPath } from "../app/lib/locales";\nimport { localeCookie } from "../contract/edge";\n',
      );
      expect(forbiddenImports(scratch)).toEqual([
        "contract/orders.ts: ../worker/env (contract/ may not import worker/env)",
        "app/lib/catalogue.ts: ../../worker/backend/services/catalogue (app/ may not import worker/backend/services/catalogue)",
        "app/lib/catalogue.ts: ../../contract/server/i18n (app/ may not import contract/server/i18n)",
        "app/routes/home.tsx: ../../worker/api/session (app/ may not import worker/api/session)",
        "worker/backend/routes/cart.ts: ../../api/session (worker/backend/ may not import worker/api/session)",
        "worker/api/cart.ts: ../backend/identity (worker/api/ may not import worker/backend/identity)",
        "worker/page-cache.ts: ../app/lib/locales (worker/ may not import app/lib/locales)",
      ]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
