// The demo seed (catalogue, content, promo codes). `npm start` and the tests' global setup call
// seedIfEmpty(persistDir) for the local D1; `node scripts/seed.ts --remote` seeds the deployed
// database (README "Deployment"). Every statement is INSERT OR IGNORE, so re-running is safe.
// `npm run seed -- --products N` adds N synthetic products (scripts/seed/synthetic.ts) to the local
// database `npm start` uses, for trying the shop at scale; the bench seeds its own the same way.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { wrangler } from "./lib/worker.ts";
import { seedStatements } from "./seed/index.ts";
import { FIRST_ID, syntheticStatements } from "./seed/synthetic.ts";
import { sqlValue } from "./seed/sql.ts";
import { ftsQuery, synonymGroups } from "../worker/backend/services/catalogue/analysis.ts";
import {
  COMMON_PHRASES,
  KEEP_MIN_MATCHES,
  keepStatements,
  keepSuggestionStatements,
} from "../worker/backend/services/catalogue/search-ranking.ts";

type Target = { local: true; persistDir: string } | { local: false };

const targetArgs = (target: Target) => (target.local ? ["--local", "--persist-to", target.persistDir] : ["--remote"]);

/** The rows one query answers, read through `wrangler d1 execute --json`. */
function query<Row>(target: Target, sql: string): Row[] {
  const out = wrangler([
    "d1",
    "execute",
    "DB",
    ...targetArgs(target),
    "--command",
    sql,
    "--json",
    "-c",
    "wrangler.toml",
  ]);
  // The JSON is an array of statement results: [{ results: [...], success, meta }].
  // Anything wrangler prints before it (warnings) is skipped: the JSON starts at a line's "[".
  const start = out.search(/^\[/m);
  const parsed = JSON.parse(start >= 0 ? out.slice(start) : out) as { results?: Row[] }[];
  return parsed[0]?.results ?? [];
}

/** How many rows a table holds (the products, by default). */
export function productCount(
  target: Target,
  table: "products" | "product_search" = "products",
  where: "" | "synthetic" = "",
): number {
  const sql = `SELECT COUNT(*) AS n FROM ${table}${where === "synthetic" ? ` WHERE rowid >= ${FIRST_ID}` : ""}`;
  return Number(query<{ n?: number }>(target, sql)[0]?.n ?? 0);
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

/** Applies the D1 migrations to the local database in persistDir. */
export function applyMigrations(persistDir: string): void {
  wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistDir, "-c", "wrangler.toml"]);
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

/** Statements per file: wrangler applies a file as one unit, and a smaller unit keeps its memory low. */
const SYNTHETIC_ROWS_PER_FILE = 20_000;

/**
 * Brings the local database in persistDir to `count` synthetic products (beside the demo seed):
 * only the ones it lacks are added, so re-running with the same or a smaller count does nothing.
 * Returns how many were added and how long it took (s).
 */
export function seedSynthetic(persistDir: string, count: number): { added: number; seconds: number } {
  const started = Date.now();
  const have = productCount({ local: true, persistDir }, "products", "synthetic");
  if (have >= count) return { added: 0, seconds: 0 };
  const statements = syntheticStatements(count, have);
  // Each 250 products' statements (the products, their index rows, their typed values) go in one
  // file together, a file holding SYNTHETIC_ROWS_PER_FILE products.
  const groups: string[][] = [];
  for (const statement of statements) {
    if (statement.startsWith("INSERT OR IGNORE INTO products") || groups.length === 0) groups.push([]);
    groups.at(-1)!.push(statement);
  }
  const perFile = Math.max(1, Math.round(SYNTHETIC_ROWS_PER_FILE / 250));
  const dir = mkdtempSync(join(tmpdir(), "souq-synthetic-"));
  try {
    for (let i = 0; i < groups.length; i += perFile) {
      const file = join(dir, `synthetic-${i}.sql`);
      writeFileSync(
        file,
        `${groups
          .slice(i, i + perFile)
          .flat()
          .join(";\n")};\n`,
      );
      wrangler(["d1", "execute", "DB", "--local", "--persist-to", persistDir, "--file", file, "-c", "wrangler.toml"]);
      rmSync(file);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  keepCommonSearches({ local: true, persistDir });
  return { added: count - have, seconds: (Date.now() - started) / 1000 };
}

/**
 * Keeps the searches for the catalogue's common words ahead of the first shopper (services/
 * search-kept.ts): every term of the synonym table, every indexed term at least
 * KEEP_MIN_MATCHES products hold, and every two words side by side in that many products' names
 * (`COMMON_PHRASES`: "fast charger"), each as a shopper typing it would search; and type-ahead's
 * window for every prefix, from two letters on, that indexed terms held by KEEP_MIN_MATCHES
 * products or more begin with (the prefixes a shopper types on the way to a common word). Any other
 * query or prefix that matches many products is kept by the worker after its first use. Returns
 * how many searches and prefixes were kept.
 */
export function keepCommonSearches(target: Target): number {
  const synonyms = query<{ group_name: string; term: string }>(target, "SELECT group_name, term FROM search_synonyms");
  const vocabulary = query<{ term: string }>(
    target,
    `SELECT term FROM product_search_vocab WHERE doc >= ${KEEP_MIN_MATCHES}`,
  );
  const phrases = query<{ phrase: string }>(target, COMMON_PHRASES.replace("?1", String(KEEP_MIN_MATCHES)));
  const groups = synonymGroups(synonyms);
  const searches = new Map<string, [string, string]>();
  for (const term of [
    ...synonyms.map((s) => s.term),
    ...vocabulary.map((v) => v.term),
    ...phrases.map((p) => p.phrase),
  ]) {
    const names = ftsQuery(term, groups);
    const details = ftsQuery(term);
    if (names && details) searches.set(`${names}\u0000${details}`, [names, details]);
  }
  const prefixes = query<{ prefix: string }>(
    target,
    `SELECT prefix FROM (
       SELECT substr(term, 1, n) AS prefix, SUM(doc) AS docs
       FROM product_search_vocab, (WITH RECURSIVE l(n) AS (SELECT 2 UNION ALL SELECT n + 1 FROM l WHERE n < 32) SELECT n FROM l)
       WHERE length(term) >= n GROUP BY 1
     ) WHERE docs >= ${KEEP_MIN_MATCHES}`,
  );
  const suggestions = new Set(prefixes.flatMap((p) => ftsQuery(p.prefix, groups) ?? []));
  const statements = keepStatements();
  // Numbered parameters, written in as literals: ?1 the names, ?2 the details (a prefix: ?1 its match).
  const sql = [
    ...[...searches.values()].flatMap(([names, details]) =>
      statements.map((s) => s.replaceAll("?1", sqlValue(names)).replaceAll("?2", sqlValue(details))),
    ),
    ...[...suggestions].flatMap((match) =>
      keepSuggestionStatements("rank").map((s) => s.replaceAll("?1", sqlValue(match))),
    ),
  ];
  const dir = mkdtempSync(join(tmpdir(), "souq-keep-"));
  try {
    const file = join(dir, "keep.sql");
    writeFileSync(file, `${sql.join(";\n")};\n`);
    wrangler(["d1", "execute", "DB", ...targetArgs(target), "--file", file, "-c", "wrangler.toml"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return searches.size + suggestions.size;
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
    applyMigrations(persistDir);
    await seedIfEmpty(persistDir);
    const n = args.indexOf("--products");
    if (n >= 0) {
      const count = Number(args[n + 1]);
      if (!Number.isInteger(count) || count < 0) throw new Error("--products takes a whole number");
      const { added, seconds } = seedSynthetic(persistDir, count);
      console.log(
        added
          ? `Added ${added.toLocaleString("en")} synthetic products in ${seconds.toFixed(0)} s (${count.toLocaleString("en")} in all, beside the demo catalogue).`
          : `The database already holds ${count.toLocaleString("en")} or more synthetic products.`,
      );
    }
  }
}
