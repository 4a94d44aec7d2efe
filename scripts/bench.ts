// `npm run bench`: serves the built worker locally in production mode and measures the shop's pages
// on the demo seed (72 products) and on a shop of 100,000 more (scripts/seed/synthetic.ts), loopback
// only. Per page: "served" (the normal path, page cache on) at 1 and 32 connections, "rendered
// afresh" (`Cache-Control: no-cache`: the Worker renders, its data reads may come from the data
// caches) at 1, and "cold" (sequential requests to distinct URLs of the same kind, so neither the
// page cache nor the data caches answer and the database does the work) where the kind has distinct
// URLs. Latency p50 and p95 from every request's own time; the workerd process's CPU per request;
// the Worker's own CPU per request, from its isolate's CPU profile over a pass of its own.
// Then the search case (scripts/lib/search-bench.ts) on the largest catalogue. Writes the tables
// into docs/PERFORMANCE.md (sections "bench", "search-bench") and the per-route bundle table into
// docs/bundles.md; `--no-report` leaves both alone.
//
// Flags: `--products N` (only a shop of N synthetic products; 0 is the demo seed alone), `--runs N`
// (repeat, report the median and the range; with `--search-only`, repeat the search case on one
// seeded shop), `--duration S` (seconds per load row, default 3),
// `--no-build`, `--no-search`, `--search-only`, `--primary-latency MS` (the latency model below).
//
// `--primary-latency 150`: the same pages, and the shopper's writes and primary reads (add to cart,
// cart read, checkout options), sequentially, on a worker without and then with PRIMARY_LATENCY_MS
// (worker/backend/db.ts: every round trip the primary serves waits that long; replica reads do
// not). Section "latency". Runs on the demo seed unless `--products` says otherwise.
import autocannon from "autocannon";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seedSynthetic } from "./seed.ts";
import { VALUE_CHOICES } from "./seed/synthetic.ts";
import { bundleTable, measureRoutes, readBudgets } from "./lib/bundles.ts";
import { langOf, percentile, reportSearchBench, searchBench, WORDS } from "./lib/search-bench.ts";
import { BUNDLES_DOC, machine, MEASURE_NICE, raisePriority, replaceSection } from "./lib/report.ts";
import { SourceLocator } from "./lib/cpu-profile.ts";
import { Inspector, SAMPLING_INTERVAL_US, workerCpuMs } from "./lib/inspector.ts";
import { cpuTimeMs, findWorkerd, workerPids } from "./lib/worker-procs.ts";
import {
  baseEnv,
  buildDir,
  freePort,
  prepareDatabase,
  root,
  startProductionWorker,
  type RunningWorker,
} from "./lib/worker.ts";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const numberArg = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  const n = at >= 0 ? Number(args[at + 1]) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : fallback;
};
const duration = numberArg("--duration", 3);
const runs = Math.max(1, Math.round(numberArg("--runs", 1)));
const primaryLatency = Math.round(numberArg("--primary-latency", 0));
const sizes = flag("--products") ? [Math.round(numberArg("--products", 0))] : primaryLatency > 0 ? [0] : [0, 100_000];
const report = !flag("--no-report");

/** The acceptance targets at 100,000 products. */
const P95_TARGET_MS = 50;
const CPU_TARGET_MS = 10;
/** How many distinct URLs a cold row requests. */
const COLD_URLS = 40;
/** How many requests a profiled pass of a served or rendered-afresh row makes. */
const PROFILED = 20;

/** Times of a row's requests and what they cost. */
interface Sample {
  n: number;
  p50: number;
  p95: number;
  max: number;
  rps?: number;
  /** CPU time the workerd process spent per request (ms), when we know its pid. */
  cpuMs?: number;
  /** The Worker's own CPU per request (ms), from a CPU profile of its isolate over a pass of its own. */
  workerCpuMs?: number;
  failures: number;
}

function sampleOf(times: number[], failures: number, cpuMs?: number, seconds?: number): Sample {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted[sorted.length - 1] ?? 0,
    rps: seconds ? sorted.length / seconds : undefined,
    cpuMs,
    failures,
  };
}

const HEADERS = { "user-agent": "souq-bench" };
/** Asks the Worker to render afresh instead of answering from its page cache (worker/page-cache.ts). */
const RENDER_HEADERS = { "cache-control": "no-cache" };

/** autocannon for `duration` s on one URL, every response's own time recorded (for p95). */
async function load(
  url: string,
  connections: number,
  workerd: number | undefined,
  headers: Record<string, string> = {},
): Promise<Sample> {
  const cpuBefore = workerd ? cpuTimeMs(workerd) : 0;
  const times: number[] = [];
  let failures = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, connections, duration, pipelining: 1, headers: { ...HEADERS, ...headers } },
      (err: unknown, res: autocannon.Result) => (err ? reject(err) : resolve(res)),
    );
    // autocannon's own percentiles skip p95 (p90, p97.5): the times are kept instead.
    instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
      times.push(ms);
      if (status < 200 || status >= 300) failures += 1;
    });
  });
  const cpuMs = workerd && times.length ? (cpuTimeMs(workerd) - cpuBefore) / times.length : undefined;
  return sampleOf(times, failures + result.errors, cpuMs, duration);
}

/** One request after another, each timed from Node (wall time through wrangler's proxy). */
async function sequential(
  url: string,
  paths: string[],
  workerd: number | undefined,
  init: (path: string, i: number) => RequestInit = () => ({}),
): Promise<Sample> {
  const cpuBefore = workerd ? cpuTimeMs(workerd) : 0;
  const times: number[] = [];
  let failures = 0;
  for (const [i, path] of paths.entries()) {
    const req = init(path, i);
    const started = performance.now();
    const res = await fetch(`${url}${path}`, {
      redirect: "manual",
      ...req,
      headers: { ...HEADERS, ...(req.headers as Record<string, string> | undefined) },
    });
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (!res.ok) failures += 1;
  }
  const cpuMs = workerd && times.length ? (cpuTimeMs(workerd) - cpuBefore) / times.length : undefined;
  return sampleOf(times, failures, cpuMs);
}

interface Target {
  key: string;
  label: string;
  path: string;
  kind: "static" | "ssr" | "backend";
  /** Distinct URLs of the same kind for the cold row of run `run` (none: no cold row); each run its own. */
  cold: (run: number) => string[];
  coldNote?: string;
}

const q = encodeURIComponent;
const CATEGORY_SLUGS = ["phones", "laptops", "tablets", "tvs", "audio", "cameras", "gaming", "wearables"];
const SORT_NAMES = ["relevance", "newest", "price_asc", "price_desc", "name"];

async function json<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { "content-language": "en", ...HEADERS } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return (await res.json()) as T;
}

/** The root stylesheet the home page links: a hashed asset served by the asset layer. */
async function staticFloor(url: string): Promise<string> {
  const html = await (await fetch(`${url}/en`)).text();
  const href = html.match(/<link[^>]*\brel="stylesheet"[^>]*\bhref="(\/assets\/[^"]+)"/)?.[1];
  if (!href) throw new Error("The home page links no hashed stylesheet");
  // React Router marks a stylesheet that is also dynamically imported with a trailing "#".
  return href.replace(/#.*$/, "");
}

const BRAND_SLUGS = [
  "samsung",
  "apple",
  "sony",
  "xiaomi",
  "huawei",
  "lenovo",
  "dell",
  "hp",
  "lg",
  "jbl",
  "anker",
  "google",
];
const none = () => [];
/**
 * Filters a cold list row adds to each category and sort, one per run: each run's URLs are its own
 * (so no cache has them), for the timed passes (runs 0…) and the profiled ones after them.
 */
const LIST_VARIANTS = [
  "",
  "&in_stock=1",
  "&min_price=500&max_price=1499.99",
  "&min_price=1500&max_price=2999.99",
  "&max_price=499.99",
  "&min_price=3000",
  "&in_stock=1&max_price=499.99",
  "&in_stock=1&min_price=3000",
];
/** The faceted row's filters beside category and brand (in stock, or a price band). */
const FACET_VARIANTS = LIST_VARIANTS.slice(1, 4);

/**
 * The attribute-filtered row's cold URLs of one run: for each category with typed values, ten of
 * its (attribute, value) pairs in turn, a sort per run, so runs do not repeat one another's.
 */
function attributeUrls(r: number): string[] {
  return Object.entries(VALUE_CHOICES).flatMap(([category, choices]) => {
    const pairs = Object.entries(choices).flatMap(([code, values]) =>
      values.map((v) => `filter.${code}=${v === true ? 1 : v === false ? 0 : String(v)}`),
    );
    return Array.from(
      { length: COLD_URLS / 4 },
      (_, j) =>
        `/en/products?category=${category}&${pairs[(10 * r + j) % pairs.length]}&sort=${SORT_NAMES[r % SORT_NAMES.length]}`,
    );
  });
}

/**
 * The pages measured; `coldRuns` is how many runs' cold URLs are needed, each run's distinct from
 * every other's.
 */
async function targetsOf(url: string, coldRuns: number): Promise<Target[]> {
  if (coldRuns > LIST_VARIANTS.length) throw new Error(`At most ${LIST_VARIANTS.length} runs of cold lists`);
  // Products spread over the catalogue: a few from each of pages spaced through the newest-first list.
  const need = 1 + COLD_URLS * coldRuns;
  const meta = (await json<{ meta: { last_page: number } }>(`${url}/backend/products?per_page=48`)).meta;
  const pages = Math.min(meta.last_page, Math.ceil(need / 8));
  const slugs: string[] = [];
  for (let k = 0; k < pages; k++) {
    const page = 1 + Math.floor((k * (meta.last_page - 1)) / Math.max(1, pages - 1));
    const body = await json<{ data: { slug: string }[] }>(
      `${url}/backend/products?per_page=48&page=${page}&sort=newest`,
    );
    slugs.push(...body.data.slice(0, pages === meta.last_page ? 48 : 8).map((p) => p.slug));
  }
  const [product, ...others] = [...new Set(slugs)];
  return [
    { key: "floor", label: "Static floor (hashed CSS)", path: await staticFloor(url), kind: "static", cold: none },
    { key: "home", label: "Home", path: "/en", kind: "ssr", cold: none },
    {
      key: "list",
      label: "Product list, page 1",
      path: "/en/products",
      kind: "ssr",
      cold: (r) =>
        CATEGORY_SLUGS.flatMap((c) => SORT_NAMES.map((s) => `/en/products?category=${c}&sort=${s}${LIST_VARIANTS[r]}`)),
      coldNote: "page 1 of each top category in each sort (a filter more per run)",
    },
    { key: "list2", label: "Product list, page 2", path: "/en/products?page=2", kind: "ssr", cold: none },
    {
      key: "list200",
      label: "Product list, page 200",
      path: "/en/products?page=200",
      kind: "ssr",
      cold: (r) => Array.from({ length: COLD_URLS }, (_, i) => `/en/products?page=${180 + COLD_URLS * r + i}`),
      coldNote: "pages 180–219 (then the next 40 per run)",
    },
    {
      key: "faceted",
      label: "Faceted list (category + brand + price band or in stock)",
      path: "/en/products?category=phones&brand=samsung&in_stock=1",
      kind: "ssr",
      // Run r takes pairs k = 5r…5r+4 of (brand, filter): brand k mod 12, and a filter that moves
      // on by one each time the brands come round, so no pair repeats within 36 (seven runs).
      cold: (r) =>
        CATEGORY_SLUGS.flatMap((c) =>
          [0, 1, 2, 3, 4].map((j) => {
            const k = 5 * r + j;
            const b = BRAND_SLUGS[k % BRAND_SLUGS.length];
            const f = FACET_VARIANTS[(k + Math.floor(k / BRAND_SLUGS.length)) % FACET_VARIANTS.length];
            return `/en/products?category=${c}&brand=${b}${f}`;
          }),
        ),
      coldNote: "8 categories × 5 brands, in stock or a price band",
    },
    {
      key: "attributes",
      label: "Attribute-filtered list (category + a typed value)",
      path: "/en/products?category=laptops&filter.ram=16",
      kind: "ssr",
      cold: attributeUrls,
      coldNote: "4 categories × 10 of their attribute values, a sort per run",
    },
    {
      key: "product",
      label: "Product page",
      path: `/en/product-details/${product}`,
      kind: "ssr",
      cold: (r) => others.slice(COLD_URLS * r, COLD_URLS * (r + 1)).map((s) => `/en/product-details/${s}`),
      coldNote: "distinct products across the catalogue",
    },
    {
      key: "search",
      label: "Search results page",
      path: "/en/products?q=samsung",
      kind: "ssr",
      cold: (r) => WORDS.map((w) => `/${langOf(w)}/products?q=${q(w)}${r ? `&page=${r + 1}` : ""}`),
      coldNote: "40 words in both languages (page 1, then 2, 3… per run)",
    },
    {
      key: "suggest",
      label: "Suggest (type-ahead backend call)",
      path: "/backend/search/suggest?q=sam",
      kind: "backend",
      cold: (r) => WORDS.map((w) => `/backend/search/suggest?q=${q(w.slice(0, 3))}&w=${q(w)}&run=${r}`),
      coldNote: "3-letter prefixes of 40 words",
    },
  ];
}

/** A row of the main table: each mode's sample (runs merged later). */
interface Row {
  one: Sample;
  many: Sample;
  render?: Sample;
  cold?: Sample;
}

/** The running Worker's inspector, for profiled passes. */
interface Profiler {
  inspector: Inspector;
  locator: SourceLocator;
}

/**
 * The Worker's own CPU per request over a pass of its own (one request after another, under V8's
 * sampling profiler, so the timed passes carry none of its overhead).
 */
async function profiledCpu(
  url: string,
  paths: string[],
  profiler: Profiler,
  headers: Record<string, string> = {},
): Promise<number | undefined> {
  if (!paths.length) return undefined;
  const { breakdown } = await profiler.inspector.profile(async () => {
    await sequential(url, paths, undefined, () => ({ headers }));
  }, profiler.locator);
  return workerCpuMs(breakdown, paths.length);
}

async function measurePages(
  url: string,
  targets: Target[],
  workerd: number | undefined,
  run: number,
  runs: number,
  profiler: Profiler,
): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  for (const t of targets) {
    // Warm-up (module instantiation, the page cache, D1's page cache) before measuring.
    await autocannon({ url: `${url}${t.path}`, connections: 1, amount: 30, headers: HEADERS });
    const one = await load(`${url}${t.path}`, 1, workerd);
    one.workerCpuMs = await profiledCpu(url, Array(PROFILED).fill(t.path), profiler);
    const many = await load(`${url}${t.path}`, 32, workerd);
    let render: Sample | undefined;
    if (t.kind === "ssr") {
      render = await load(`${url}${t.path}`, 1, workerd, RENDER_HEADERS);
      render.workerCpuMs = await profiledCpu(url, Array(PROFILED).fill(t.path), profiler, RENDER_HEADERS);
    }
    const coldUrls = t.cold(run);
    const cold = coldUrls.length ? await sequential(url, coldUrls, workerd) : undefined;
    // The profiled cold pass takes URLs of its own (those of run `runs + run`), as cold as the timed ones.
    if (cold) cold.workerCpuMs = await profiledCpu(url, t.cold(runs + run), profiler);
    rows.set(t.key, { one, many, render, cold });
    const f = (s?: Sample) =>
      s
        ? `p50 ${s.p50.toFixed(1)} p95 ${s.p95.toFixed(1)} cpu ${cpuText(s)}${s.workerCpuMs === undefined ? "" : ` worker ${s.workerCpuMs.toFixed(2)}`}`
        : "–";
    console.log(`${t.label.padEnd(58)} served@1 ${f(one)} | @32 ${f(many)} | render ${f(render)} | cold ${f(cold)}`);
  }
  return rows;
}

const cpuText = (s: Sample) => (s.cpuMs === undefined ? "n/a" : s.cpuMs.toFixed(2));

/** The median of runs' values, with their range when there were several. */
function spread(values: number[], digits = 1): string {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted[Math.floor((sorted.length - 1) / 2)];
  const text = mid.toFixed(digits);
  return sorted.length > 1
    ? `${text} (${sorted[0].toFixed(digits)}–${sorted[sorted.length - 1].toFixed(digits)})`
    : text;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

function cell(samples: (Sample | undefined)[], pick: (s: Sample) => number | undefined, digits = 1): string {
  const values = samples.filter((s): s is Sample => s !== undefined).map(pick);
  if (values.length === 0 || values.some((v) => v === undefined)) return "–";
  return spread(values as number[], digits);
}

function pageTable(targets: Target[], all: Map<string, Row>[]): string {
  const lines = [
    "| Page | Served @1 p50 / p95 (ms) | Served @1 CPU / req (ms) | Served @32 p50 / p95 (ms) | rps @32 | Rendered afresh @1 p50 / p95 (ms) | Rendered CPU / req (ms) | Cold p50 / p95 (ms) | Cold CPU / req (ms) | Cold URLs | Failed |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
  ];
  for (const t of targets) {
    const rows = all.map((m) => m.get(t.key)!);
    const pair = (pick: (r: Row) => Sample | undefined) => {
      const samples = rows.map(pick);
      return samples.every((s) => s === undefined)
        ? "–"
        : `${cell(samples, (s) => s.p50)} / ${cell(samples, (s) => s.p95)}`;
    };
    const failed = rows.reduce(
      (n, r) => n + r.one.failures + r.many.failures + (r.render?.failures ?? 0) + (r.cold?.failures ?? 0),
      0,
    );
    lines.push(
      `| ${t.label} | ${pair((r) => r.one)} | ${cell(
        rows.map((r) => r.one),
        (s) => s.cpuMs,
        2,
      )} | ${pair((r) => r.many)} | ${cell(
        rows.map((r) => r.many),
        (s) => s.rps,
        0,
      )} | ${pair((r) => r.render)} | ${cell(
        rows.map((r) => r.render),
        (s) => s.cpuMs,
        2,
      )} | ${pair((r) => r.cold)} | ${cell(
        rows.map((r) => r.cold),
        (s) => s.cpuMs,
        2,
      )} | ${t.coldNote ? `${rows[0].cold?.n ?? 0} per run: ${t.coldNote}` : "–"} | ${failed} |`,
    );
  }
  return lines.join("\n");
}

/** The Worker's own CPU per request (profiled passes), beside the table of times. */
function workerCpuTable(targets: Target[], all: Map<string, Row>[]): string {
  const lines = [
    "| Page | Worker CPU / req, served @1 (ms) | Worker CPU / req, rendered afresh (ms) | Worker CPU / req, cold (ms) |",
    "|---|---:|---:|---:|",
  ];
  for (const t of targets) {
    const rows = all.map((m) => m.get(t.key)!);
    const col = (pick: (r: Row) => Sample | undefined) => {
      const samples = rows.map(pick).filter((x) => x?.workerCpuMs !== undefined);
      return samples.length ? cell(samples, (x) => x.workerCpuMs, 2) : "–";
    };
    lines.push(`| ${t.label} | ${col((r) => r.one)} | ${col((r) => r.render)} | ${col((r) => r.cold)} |`);
  }
  return lines.join("\n");
}

/**
 * Which of the acceptance's pages miss a target at this size (median over runs): p95 for the list,
 * product, search and suggest rows; the Worker's CPU (profiled) for those and home, search apart.
 */
function verdict(targets: Target[], all: Map<string, Row>[]): string {
  const misses: string[] = [];
  const medianOf = (key: string, pick: (r: Row) => number | undefined) => {
    const values = all.map((m) => pick(m.get(key)!)).filter((v): v is number => v !== undefined);
    return values.length ? median(values) : undefined;
  };
  for (const t of targets.filter((x) =>
    ["home", "list", "list200", "faceted", "attributes", "product", "search", "suggest"].includes(x.key),
  )) {
    for (const [mode, pick] of [
      ["served @1", (r: Row) => r.one],
      ["rendered afresh", (r: Row) => r.render],
      ["cold", (r: Row) => r.cold],
    ] as const) {
      const p95 = medianOf(t.key, (r) => pick(r)?.p95);
      const cpu = medianOf(t.key, (r) => pick(r)?.workerCpuMs);
      if (p95 !== undefined && p95 >= P95_TARGET_MS && t.key !== "home")
        misses.push(`${t.label} ${mode}: p95 ${p95.toFixed(1)} ms`);
      if (cpu !== undefined && cpu >= CPU_TARGET_MS && t.key !== "search")
        misses.push(`${t.label} ${mode}: Worker CPU ${cpu.toFixed(2)} ms/request`);
    }
  }
  return misses.length
    ? `Over a target (p95 < ${P95_TARGET_MS} ms; Worker CPU < ${CPU_TARGET_MS} ms per request): ${misses.join("; ")}.`
    : `Every list, product, search and suggest row is within p95 < ${P95_TARGET_MS} ms, and every home, list, product and suggest row within Worker CPU < ${CPU_TARGET_MS} ms per request.`;
}

function build(): void {
  console.log(`Building into ${buildDir}/…`);
  const res = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, env: baseEnv, stdio: "inherit" });
  if (res.status !== 0) throw new Error("npm run build failed");
}

async function checkTargets(url: string, targets: Target[]): Promise<void> {
  for (const t of targets) {
    const res = await fetch(`${url}${t.path}`, { redirect: "manual" });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${t.path} answered ${res.status}, not 200: fix it before benchmarking`);
  }
}

interface Shop {
  persistDir: string;
  products: number;
  synthetic: number;
  seededIn: number;
}

async function prepareShop(synthetic: number): Promise<Shop> {
  const persistDir = mkdtempSync(join(tmpdir(), "souq-bench-"));
  await prepareDatabase(persistDir);
  const { seconds } = synthetic > 0 ? seedSynthetic(persistDir, synthetic) : { seconds: 0 };
  if (synthetic > 0)
    console.log(`Seeded ${synthetic.toLocaleString("en")} synthetic products in ${seconds.toFixed(0)} s.`);
  return { persistDir, products: 0, synthetic, seededIn: seconds };
}

async function withWorker<T>(
  shop: Shop,
  vars: Record<string, string>,
  run: (url: string, workerd: number | undefined, profiler: Profiler) => Promise<T>,
): Promise<T> {
  const inspectorPort = await freePort();
  const worker: RunningWorker = await startProductionWorker(shop.persistDir, vars, inspectorPort);
  let inspector: Inspector | undefined;
  try {
    const workerd = findWorkerd(worker.child.pid);
    for (const pid of workerPids(worker.child.pid)) raisePriority(pid);
    shop.products = (await json<{ meta: { total: number } }>(`${worker.url}/backend/products?per_page=1`)).meta.total;
    inspector = await Inspector.profiler(inspectorPort);
    const locator = new SourceLocator(join(root, buildDir, "server"), root);
    return await run(worker.url, workerd, { inspector, locator });
  } finally {
    inspector?.close();
    worker.stop();
  }
}

const niced = raisePriority() !== 0;
const HOW = `Worker served by \`wrangler dev\` (workerd, local D1/KV, ENVIRONMENT=production) on 127.0.0.1${niced ? `; the worker and the load generator at nice ${MEASURE_NICE} (the machine is shared)` : ""}; no compression requested. Latency is wall time from Node through wrangler's local proxy (a second workerd in front of the Worker's), so it moves with the machine's load. p50 and p95 are computed from every request's own time (autocannon reports p90 and p97.5 but no p95, so its per-response times are kept). "Served": ${duration} s of autocannon on the URL, after 30 warm-up requests: the page as an anonymous visitor gets it, page cache included (\`worker/page-cache.ts\`: a page is rendered once per catalogue version and at most once per \`PAGE_TTL_MS\`, 60 s, and copied in between). "Rendered afresh": the same with \`Cache-Control: no-cache\`, which makes the Worker render it (its data reads may still come from the data caches, as on a page-cache miss). "Cold": one request after another to distinct URLs of the same kind (listed), so neither cache has them and D1 does the work. "CPU / req" is the CPU time of the workerd process that runs the Worker per request (from /proc, 10 ms ticks over the row): it includes the local D1's SQLite work, the Cache API and wrangler's routing, which run outside the Worker in production and are not billed as its CPU, so it is an upper bound on the Worker's own CPU time; the static floor's row is what that runtime spends on a request the Worker never sees. "Worker CPU / req" is the Worker's own: after each timed pass, a pass of its own under V8's sampling profiler (the Worker's inspector, ${SAMPLING_INTERVAL_US} µs; scripts/lib/inspector.ts and cpu-profile.ts, as \`npm run profile\` reads it), one request after another (${PROFILED} of the served or rendered-afresh URL; for cold, as many distinct URLs as the timed pass, never requested before): the isolate's samples in JavaScript and the runtime APIs it called, garbage collection and "(program)", per request. That is the time Cloudflare bills as a Worker's CPU; waiting on D1 or the cache is not in it.`;

async function mainBench(): Promise<void> {
  const sections: string[] = [
    `Measured by \`npm run bench\` on: ${machine()}. ${runs} run${runs > 1 ? "s" : ""} per figure${runs > 1 ? ": the median, with the range of the runs in brackets" : ""}.`,
    "",
    HOW,
  ];
  let searchBody: string | undefined;
  const record: Record<string, unknown> = { machine: machine(), duration, runs };
  for (const synthetic of sizes) {
    const shop = await prepareShop(synthetic);
    try {
      const results: Map<string, Row>[] = [];
      let targets: Target[] = [];
      await withWorker(shop, {}, async (url, workerd, profiler) => {
        // Each run's cold URLs twice over: for the timed pass, and for the profiled pass after it.
        targets = await targetsOf(url, 2 * runs);
        await checkTargets(url, targets);
        for (let r = 0; r < runs; r++) {
          console.log(
            `\n${shop.products.toLocaleString("en")} products, run ${r + 1} of ${runs} (load ${loadText()}):`,
          );
          results.push(await measurePages(url, targets, workerd, r, runs, profiler));
        }
        if (!flag("--no-search") && synthetic === Math.max(...sizes) && synthetic > 0) {
          searchBody = await searchBench(url, shop.products, synthetic, shop.seededIn);
        }
      });
      sections.push(
        "",
        `### ${shop.products.toLocaleString("en")} products${synthetic ? ` (the demo seed and ${synthetic.toLocaleString("en")} synthetic, seeded in ${shop.seededIn.toFixed(0)} s)` : " (the demo seed)"}`,
        "",
        `Load average after the runs: ${loadText()}.`,
        "",
        pageTable(targets, results),
        "",
        workerCpuTable(targets, results),
        "",
        verdict(targets, results),
      );
      record[String(shop.products)] = results.map((m) => Object.fromEntries(m));
    } finally {
      rmSync(shop.persistDir, { recursive: true, force: true });
    }
  }
  const body = sections.join("\n");
  console.log(`\n${body}`);
  if (searchBody) console.log(`\n${searchBody}`);
  mkdirSync(join(root, "test-results"), { recursive: true });
  writeFileSync(join(root, "test-results", "bench.json"), JSON.stringify(record, null, 2));
  if (!report) return;
  replaceSection("bench", body);
  if (searchBody) reportSearchBench(searchBody);
  const budgets = readBudgets();
  replaceSection(
    "bundles",
    `Measured from \`${buildDir}/client\` (gzip level ${budgets.gzipLevel}, KB = 1024 bytes):\n\n${bundleTable(measureRoutes(buildDir, budgets), budgets)}`,
    BUNDLES_DOC,
  );
  console.log("Written to docs/PERFORMANCE.md and docs/bundles.md.");
}

const loadText = () => (process.platform === "linux" ? readLoad() : [0, 0, 0]).map((l) => l.toFixed(2)).join(" ");
function readLoad(): number[] {
  return spawnSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).stdout.split(" ").slice(0, 3).map(Number);
}

/** Guests minted once per worker: the shop mints at most 20 a minute per network (SHOP_LIMITER). */
async function mintGuests(url: string, n: number): Promise<{ id: string; bookmark?: string }[]> {
  const guests: { id: string; bookmark?: string }[] = [];
  for (let i = 0; i < n; i++)
    guests.push({ id: (await json<{ guestId: string }>(`${url}/api/cart/generate-guest-id`)).guestId });
  return guests;
}

/** The shopper's calls that the primary serves, and the cart read after them, for the latency model. */
async function latencyRows(
  url: string,
  workerd: number | undefined,
  productIds: number[],
  guests: { id: string; bookmark?: string }[],
  run: number,
) {
  const n = guests.length;
  const headers = (i: number) => ({
    "content-language": "en",
    "guest-id": guests[i].id,
    ...(guests[i].bookmark ? { "x-d1-bookmark": guests[i].bookmark! } : {}),
  });
  const paths = (path: string) => Array.from({ length: n }, () => path);
  const add = await sequential(url, paths("/backend/cart/add-product"), workerd, (_p, i) => ({
    method: "POST",
    headers: { ...headers(i), "content-type": "application/json", origin: url },
    // Each run adds other products to the same carts.
    body: JSON.stringify({ product_id: productIds[(run * n + i) % productIds.length], quantity: 1 }),
  }));
  // The bookmark each add answered, as the edge's cookie would carry it.
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${url}/backend/cart`, { headers: { ...headers(i), ...HEADERS } });
    await res.arrayBuffer();
    guests[i].bookmark = res.headers.get("x-d1-bookmark") ?? guests[i].bookmark;
  }
  const cart = await sequential(url, paths("/backend/cart"), workerd, (_p, i) => ({ headers: headers(i) }));
  const options = await sequential(url, paths("/backend/checkout/options"), workerd, (_p, i) => ({
    headers: headers(i),
  }));
  return { add, cart, options };
}

async function latencyBench(): Promise<void> {
  const out: string[] = [
    `Measured by \`npm run bench -- --primary-latency ${primaryLatency}\` on: ${machine()}. ${runs} run${runs > 1 ? "s" : ""} per figure${runs > 1 ? " (median, range in brackets)" : ""}.`,
    "",
    `The same worker twice on the same database: without, then with \`PRIMARY_LATENCY_MS=${primaryLatency}\` (worker/backend/db.ts: every round trip the primary serves, a statement or a batch, waits ${primaryLatency} ms first; reads in an unconstrained or bookmarked session, the replica path, do not). Pages: served (page cache on, ${duration} s of autocannon at 1 connection), rendered afresh (\`Cache-Control: no-cache\`) and cold (distinct URLs, sequential), as in the bench section. The shopper's calls, 20 each, sequential, a fresh guest per add: add to cart (a write), the cart read after it (with the bookmark the add answered, as the edge's cookie carries it), checkout options (on the primary by rule: checkout reads where it reserves). Wall time through wrangler's proxy; p50 / p95 in ms.`,
  ];
  for (const synthetic of sizes) {
    const shop = await prepareShop(synthetic);
    try {
      const measured: { pages: Map<string, Row>[]; calls: Awaited<ReturnType<typeof latencyRows>>[] }[] = [];
      let targets: Target[] = [];
      for (const latency of [0, primaryLatency]) {
        const pages: Map<string, Row>[] = [];
        const calls: Awaited<ReturnType<typeof latencyRows>>[] = [];
        await withWorker(shop, latency ? { PRIMARY_LATENCY_MS: String(latency) } : {}, async (url, workerd) => {
          targets = (await targetsOf(url, 2 * runs)).filter((t) => t.kind !== "static");
          await checkTargets(url, targets);
          const ids: number[] = [];
          for (const page of [1, 2])
            ids.push(
              ...(
                await json<{ data: { id: number }[] }>(
                  `${url}/backend/products?in_stock=1&per_page=48&sort=newest&page=${page}`,
                )
              ).data.map((p) => p.id),
            );
          const guests = await mintGuests(url, 20);
          for (let r = 0; r < runs; r++) {
            console.log(`\nPRIMARY_LATENCY_MS=${latency}, run ${r + 1} of ${runs} (load ${loadText()}):`);
            const rows = new Map<string, Row>();
            for (const t of targets) {
              await autocannon({ url: `${url}${t.path}`, connections: 1, amount: 20, headers: HEADERS });
              const one = await load(`${url}${t.path}`, 1, workerd);
              const render = t.kind === "ssr" ? await load(`${url}${t.path}`, 1, workerd, RENDER_HEADERS) : undefined;
              // A cold URL is cold once (the Cache API persists between the two workers): each run,
              // with and without the latency, takes its own.
              const coldUrls = t.cold(r + (latency ? runs : 0));
              const cold = coldUrls.length ? await sequential(url, coldUrls, workerd) : undefined;
              rows.set(t.key, { one, many: one, render, cold });
              console.log(
                `${t.label.padEnd(58)} served p50 ${one.p50.toFixed(1)} p95 ${one.p95.toFixed(1)}${render ? ` | render p50 ${render.p50.toFixed(1)} p95 ${render.p95.toFixed(1)}` : ""}${cold ? ` | cold p50 ${cold.p50.toFixed(1)} p95 ${cold.p95.toFixed(1)}` : ""}`,
              );
            }
            pages.push(rows);
            const c = await latencyRows(url, workerd, ids, guests, r);
            console.log(
              `add p50 ${c.add.p50.toFixed(1)} p95 ${c.add.p95.toFixed(1)} (failed ${c.add.failures}) | cart p50 ${c.cart.p50.toFixed(1)} p95 ${c.cart.p95.toFixed(1)} | options p50 ${c.options.p50.toFixed(1)} p95 ${c.options.p95.toFixed(1)} (failed ${c.options.failures})`,
            );
            calls.push(c);
          }
        });
        measured.push({ pages, calls });
      }
      const [off, on] = measured;
      const pair = (samples: (Sample | undefined)[]) =>
        samples.every((s) => s === undefined) ? "–" : `${cell(samples, (s) => s.p50)} / ${cell(samples, (s) => s.p95)}`;
      const within = (a: (Sample | undefined)[], b: (Sample | undefined)[]) => {
        const x = a.filter((s): s is Sample => s !== undefined);
        const y = b.filter((s): s is Sample => s !== undefined);
        if (!x.length || !y.length) return "–";
        const d = median(y.map((s) => s.p95)) - median(x.map((s) => s.p95));
        // Only slower counts: a faster p95 with the latency is the machine's load moving, not a replica.
        return `${d >= 0 ? "+" : ""}${d.toFixed(1)}${d <= 20 ? " (within 20 ms)" : " (**primary**)"}`;
      };
      const lines = [
        "",
        `### ${shop.products.toLocaleString("en")} products`,
        "",
        `Load average after the runs: ${loadText()}.`,
        "",
        `| Request | p50 / p95 without (ms) | p50 / p95 with ${primaryLatency} ms (ms) | p95 change (ms) | Failed |`,
        "|---|---:|---:|---:|---:|",
      ];
      for (const t of targets) {
        for (const [mode, pick] of [
          ["served", (r: Row) => r.one],
          ["rendered afresh", (r: Row) => r.render],
          ["cold", (r: Row) => r.cold],
        ] as const) {
          const a = off.pages.map((m) => pick(m.get(t.key)!));
          const b = on.pages.map((m) => pick(m.get(t.key)!));
          if (a.every((s) => s === undefined)) continue;
          const failed = [...a, ...b].reduce((n, s) => n + (s?.failures ?? 0), 0);
          lines.push(`| ${t.label}, ${mode} | ${pair(a)} | ${pair(b)} | ${within(a, b)} | ${failed} |`);
        }
      }
      for (const [key, label] of [
        ["add", "Add to cart (`POST /backend/cart/add-product`)"],
        ["cart", "Cart read after it (`GET /backend/cart`, with the add's bookmark)"],
        ["options", "Checkout options (`GET /backend/checkout/options`)"],
      ] as const) {
        const a = off.calls.map((c) => c[key]);
        const b = on.calls.map((c) => c[key]);
        const failed = [...a, ...b].reduce((n, s) => n + s.failures, 0);
        lines.push(`| ${label} | ${pair(a)} | ${pair(b)} | ${within(a, b)} | ${failed} |`);
      }
      out.push(...lines);
    } finally {
      rmSync(shop.persistDir, { recursive: true, force: true });
    }
  }
  const body = out.join("\n");
  console.log(`\n${body}`);
  if (report) {
    replaceSection("latency", body);
    console.log("Written to docs/PERFORMANCE.md.");
  }
}

if (!flag("--no-build")) build();
if (primaryLatency > 0) await latencyBench();
else if (flag("--search-only")) {
  const count = sizes[sizes.length - 1] || 100_000;
  const shop = await prepareShop(count);
  try {
    // `--runs N` repeats the case on the same shop (seeding 100,000 products takes minutes); each
    // run prints its table, and the report holds the last one.
    const body = await withWorker(shop, {}, async (url) => {
      let last = "";
      for (let r = 0; r < runs; r++) {
        console.log(`\nSearch case, run ${r + 1} of ${runs} (load ${loadText()}):`);
        last = await searchBench(url, shop.products, count, shop.seededIn, r);
      }
      return last;
    });
    console.log(`\n${body}`);
    if (report) reportSearchBench(body);
  } finally {
    rmSync(shop.persistDir, { recursive: true, force: true });
  }
} else await mainBench();
