// The demo seed (catalogue, content, promo codes). `npm start` and the tests' global setup call
// seedIfEmpty(persistDir) for the local D1; `node scripts/seed.ts --remote` seeds the deployed
// database (README "Deployment"). Every statement is INSERT OR IGNORE, so re-running is safe.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { wrangler } from "./lib/worker.ts";
import { seedStatements } from "./seed/index.ts";

type Target = { local: true; persistDir: string } | { local: false };

const targetArgs = (target: Target) => (target.local ? ["--local", "--persist-to", target.persistDir] : ["--remote"]);

/** How many rows a table holds (the products, by default), read through `wrangler d1 execute --json`. */
export function productCount(target: Target, table: "products" | "product_search" = "products"): number {
  const out = wrangler([
    "d1",
    "execute",
    "DB",
    ...targetArgs(target),
    "--command",
    `SELECT COUNT(*) AS n FROM ${table}`,
    "--json",
    "-c",
    "wrangler.toml",
  ]);
  // The JSON is an array of statement results: [{ results: [{ n }], success, meta }].
  // Anything wrangler prints before it (warnings) is skipped: the JSON starts at a line's "[".
  const start = out.search(/^\[/m);
  const parsed = JSON.parse(start >= 0 ? out.slice(start) : out) as { results?: { n?: number }[] }[];
  return Number(parsed[0]?.results?.[0]?.n ?? 0);
}

/** Runs every seed statement from one SQL file (wrangler applies a file as one unit). */
export function runSeed(target: Target): number {
  const statements = seedStatements();
  const dir = mkdtempSync(join(tmpdir(), "souq-seed-"));
  const file = join(dir, "seed.sql");
  try {
    writeFileSync(file, statements.map((s) => `${s};`).join("\n") + "\n");
    wrangler([
      "d1",
      "execute",
      "DB",
      ...targetArgs(target),
      "--file",
      file,
      "-c",
      "wrangler.toml",
      ...(target.local ? [] : ["--yes"]),
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return statements.length;
}

/** Seeds the local database in persistDir when it holds no products yet. */
export async function seedIfEmpty(persistDir: string): Promise<void> {
  const target: Target = { local: true, persistDir };
  // Products and an index of them: nothing to do. An emptied index (a migration that changes the
  // analysis, like 0009) is filled again by the same statements, which leave existing rows alone.
  if (productCount(target) > 0 && productCount(target, "product_search") > 0) return;
  const n = runSeed(target);
  console.log(`Seeded the local database with the demo catalogue (${n} statements).`);
}

// `node scripts/seed.ts --remote` (deployed D1) or `node scripts/seed.ts [--persist-to <dir>]` (local).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  if (args.includes("--remote")) {
    const n = runSeed({ local: false });
    console.log(`Seeded the remote database (${n} statements; existing rows were left as they were).`);
  } else {
    const at = args.indexOf("--persist-to");
    const persistDir =
      at >= 0 && args[at + 1]
        ? args[at + 1]
        : join(fileURLToPath(new URL("..", import.meta.url)), ".wrangler", "state");
    await seedIfEmpty(persistDir);
  }
}
