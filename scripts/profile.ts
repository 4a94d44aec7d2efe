// `npm run profile [-- --no-build] [-- --renders 30] [-- --runs 3] [-- --interval 100] [-- --write]`:
// the CPU a page rendered afresh costs the Worker itself, and where it goes.
//
// Serves the built worker in production mode on a fresh seeded database (as `npm run bench`),
// attaches to the Worker's V8 inspector (wrangler's inspector proxy; Chrome DevTools protocol,
// Profiler domain, over a WebSocket) and renders home, the product list and a product page afresh
// (`Cache-Control: no-cache`, the page cache's miss path), one request at a time:
// - the isolate's CPU per render: the CPU profile's samples in the Worker's JavaScript (and the
//   natives it calls), over the renders; garbage collection and "(program)" (the isolate's thread
//   outside JavaScript: workerd's own work, and the waits between requests) apart;
// - where that time went, by category (scripts/lib/cpu-profile.ts) and by function (self time);
// - for comparison, the CPU of the whole workerd process per render (from /proc, as the bench
//   reads it), measured in a pass without the profiler.
// Each run renders every page `--renders` times with the profiler and as many times without; the
// figures are the medians of `--runs` runs, with their spread. `--write` puts the tables into
// docs/PERFORMANCE.md (section "render-cpu", or `--section NAME`). The raw profiles are kept in
// test-results/profiles/<build dir>/*.cpuprofile (DevTools opens them). Loopback only.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CATEGORIES, emptyBreakdown, SourceLocator, type Breakdown } from "./lib/cpu-profile.ts";
import { Inspector, SAMPLING_INTERVAL_US } from "./lib/inspector.ts";
import { machine, MEASURE_NICE, raisePriority, replaceSection } from "./lib/report.ts";
import { cpuTimeMs, findWorkerd, workerPids } from "./lib/worker-procs.ts";
import { baseEnv, buildDir, freePort, prepareDatabase, root, startProductionWorker } from "./lib/worker.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) || fallback : fallback;
const RENDERS = option("--renders", 30);
const RUNS = option("--runs", 3);
/** The sampling interval in µs (V8's default is 1000). */
const INTERVAL_US = option("--interval", SAMPLING_INTERVAL_US);
const WARMUP = 20;
/** `--write` puts the report between `<!-- render-cpu:start -->` and its end (`--section NAME` for another). */
const SECTION = args.includes("--section") ? args[args.indexOf("--section") + 1] : "render-cpu";
let seedSize = 0;
const RENDER_HEADERS = { "cache-control": "no-cache", "user-agent": "souq-profile" };

interface Page {
  label: string;
  path: string;
}

interface RunResult {
  /** Per render, ms. */
  jsMs: number;
  gcMs: number;
  programMs: number;
  processMs: number | undefined;
  breakdown: Breakdown;
}

async function render(url: string): Promise<void> {
  const res = await fetch(url, { headers: RENDER_HEADERS });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
}

async function renderMany(url: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await render(url);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n: number, digits = 2) => n.toFixed(digits);
const spread = (xs: number[]) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;

async function main(): Promise<void> {
  if (!args.includes("--no-build")) {
    console.log(`Building into ${buildDir}/…`);
    const res = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, env: baseEnv, stdio: "inherit" });
    if (res.status !== 0) throw new Error("npm run build failed");
  }
  const persistDir = mkdtempSync(join(tmpdir(), "souq-profile-"));
  const inspectorPort = await freePort();
  let worker: Awaited<ReturnType<typeof startProductionWorker>> | undefined;
  let inspector: Inspector | undefined;
  try {
    await prepareDatabase(persistDir);
    worker = await startProductionWorker(persistDir, {}, inspectorPort);
    const { url } = worker;
    const first = (await (await fetch(`${url}/backend/products?per_page=1`)).json()) as {
      data: { slug: string }[];
      meta: { total: number };
    };
    seedSize = first.meta.total;
    if (!first.data[0]) throw new Error("The seeded database has no products");
    const pages: Page[] = [
      { label: "Home", path: "/en" },
      { label: "Product list", path: "/en/products" },
      { label: "Product page", path: `/en/product-details/${first.data[0].slug}` },
    ];
    const workerd = findWorkerd(worker.child.pid);
    const niced = raisePriority() !== 0;
    for (const pid of workerPids(worker.child.pid)) raisePriority(pid);
    inspector = await Inspector.profiler(inspectorPort, INTERVAL_US);
    for (const page of pages) await renderMany(`${url}${page.path}`, WARMUP);

    const locator = new SourceLocator(join(root, buildDir, "server"), root);
    const results = new Map<string, RunResult[]>(pages.map((p) => [p.path, []]));
    const profileDir = join(root, "test-results", "profiles", buildDir);
    mkdirSync(profileDir, { recursive: true });
    const startedAt = machine();
    for (let run = 0; run < RUNS; run++) {
      for (const page of pages) {
        const target = `${url}${page.path}`;
        // The whole process, without the profiler's own overhead.
        const before = workerd ? cpuTimeMs(workerd) : 0;
        await renderMany(target, RENDERS);
        const processMs = workerd ? (cpuTimeMs(workerd) - before) / RENDERS : undefined;
        // The isolate, by its CPU profile.
        const { profile, breakdown } = await inspector.profile(() => renderMany(target, RENDERS), locator);
        // Kept for DevTools (Performance panel, "Load profile") or a closer look.
        const name = page.label.toLowerCase().replaceAll(" ", "-");
        writeFileSync(join(profileDir, `${name}-run${run + 1}.cpuprofile`), JSON.stringify(profile));
        const result: RunResult = {
          jsMs: breakdown.jsUs / 1000 / RENDERS,
          gcMs: breakdown.gcUs / 1000 / RENDERS,
          programMs: breakdown.programUs / 1000 / RENDERS,
          processMs,
          breakdown,
        };
        results.get(page.path)!.push(result);
        console.log(
          `run ${run + 1} ${page.label.padEnd(13)} JS ${fmt(result.jsMs)} ms  GC ${fmt(result.gcMs)} ms  (program) ${fmt(result.programMs)} ms  process ${processMs === undefined ? "n/a" : fmt(processMs)} ms  per render`,
        );
      }
    }
    const report = [
      `Measured by \`npm run profile\` on: ${startedAt}; load average at the end ${machine().split("load average at start ")[1]?.split(";")[0] ?? ""}.`,
      "",
      `The built worker under \`wrangler dev\` (ENVIRONMENT=production, the ${seedSize}-product seed), each page requested with \`Cache-Control: no-cache\` (rendered afresh), one request at a time, after ${WARMUP} warm-up renders; ${RUNS} runs of ${RENDERS} renders per page with V8's sampling profiler (asked for ${INTERVAL_US} µs; each sample charged the time to the next one, or half a median interval when that gap is over twice the median: the isolate was not running) and ${RENDERS} without it${niced ? `; wrangler, workerd and this script at nice ${MEASURE_NICE}` : ""}. Medians of the runs, spread (min–max) beside. "Worker JS CPU" is the isolate's samples in JavaScript and the runtime APIs it called, GC and "(program)" (the isolate's thread outside JavaScript) apart; the process column is the whole workerd (local D1, caches, assets, routing included) from /proc, in the pass without the profiler.`,
      "",
      table(pages, results),
      "",
      categoryTable(pages, results),
      "",
      topFunctions(pages, results),
    ].join("\n");
    console.log(`\n${report}`);
    mkdirSync(join(root, "test-results"), { recursive: true });
    writeFileSync(join(root, "test-results", `profile-${buildDir}.md`), report);
    if (args.includes("--write")) {
      replaceSection(SECTION, report);
      console.log("Written to docs/PERFORMANCE.md.");
    }
  } finally {
    inspector?.close();
    worker?.stop();
    rmSync(persistDir, { recursive: true, force: true });
  }
}

function table(pages: Page[], results: Map<string, RunResult[]>): string {
  const lines = [
    '| Page | Path | Worker JS CPU / render (ms) | GC / render (ms) | JS + GC (ms) | "(program)" / render (ms) | workerd process CPU / render (ms) |',
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  for (const page of pages) {
    const runs = results.get(page.path)!;
    const js = runs.map((r) => r.jsMs);
    const gc = runs.map((r) => r.gcMs);
    const both = runs.map((r) => r.jsMs + r.gcMs);
    const program = runs.map((r) => r.programMs);
    const proc = runs.map((r) => r.processMs).filter((x): x is number => x !== undefined);
    lines.push(
      `| ${page.label} | \`${page.path}\` | **${fmt(median(js))}** (${spread(js)}) | ${fmt(median(gc))} (${spread(gc)}) | ${fmt(median(both))} (${spread(both)}) | ${fmt(median(program))} | ${proc.length ? `${fmt(median(proc))} (${spread(proc)})` : "n/a"} |`,
    );
  }
  return lines.join("\n");
}

function categoryTable(pages: Page[], results: Map<string, RunResult[]>): string {
  const lines = [
    `| Where the Worker's JS time went (ms / render, median of runs) | ${pages.map((p) => p.label).join(" | ")} |`,
    `|---|${pages.map(() => "---:").join("|")}|`,
  ];
  for (const category of CATEGORIES) {
    const cells = pages.map((p) =>
      fmt(median(results.get(p.path)!.map((r) => (r.breakdown.byCategory.get(category) ?? 0) / 1000 / RENDERS))),
    );
    lines.push(`| ${category} | ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

function topFunctions(pages: Page[], results: Map<string, RunResult[]>, count = 15): string {
  const all = emptyBreakdown();
  let renders = 0;
  for (const page of pages)
    for (const run of results.get(page.path)!) {
      renders += RENDERS;
      for (const [fn, us] of run.breakdown.byFunction) all.byFunction.set(fn, (all.byFunction.get(fn) ?? 0) + us);
    }
  const top = [...all.byFunction].sort((a, b) => b[1] - a[1]).slice(0, count);
  const lines = [
    `| Top self time, all three pages (µs / render) | Function (source file:line) |`,
    "|---:|---|",
    ...top.map(([fn, us]) => `| ${fmt(us / renders, 0)} | \`${fn}\` |`),
  ];
  return lines.join("\n");
}

await main();
