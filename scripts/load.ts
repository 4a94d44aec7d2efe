// `npm run test:load`: 100 connections for 30 seconds of mixed browsing, search and cart changes
// against the built worker on loopback, then every cart is checked: its totals must equal the sum
// of its lines. Counts which answers came from the page cache (x-page-cache) and the data cache
// (x-cache). Writes the figures into docs/RELIABILITY.md and the cache hit rates into
// docs/PERFORMANCE.md (between markers) and exits non-zero on any error. Options: --no-build,
// --connections N, --duration S, --runs N (each on a fresh worker and database; the docs get the
// median run with the range of all).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { LOCAL_PUBLIC_ORIGIN, prepareDatabase, root, startWorker } from "./lib/worker.ts";
import { buildUnlessSkipped, numberArg as arg, spread } from "./lib/runs.ts";

const CONNECTIONS = arg("connections", 100);
const DURATION = arg("duration", 30);
const RUNS = arg("runs", 1);
/** Guests to spread the cart changes over. */
const GUESTS_PER_CONNECTION = 2;
/** Lines stay at or below this quantity: well inside every product's stock and per-order maximum. */
const MAX_LINE = 2;

buildUnlessSkipped();

interface Product {
  id: number;
  slug: string;
  stock: number;
  max_per_order: number;
}
interface Cart {
  products: { product_id: number; quantity: number; line_total: number }[];
  total_quantity: number;
  subtotal: number;
  discount: number;
  total: number;
}

/** How many answers of a kind said HIT, of how many that could (a MISS or a HIT). */
interface Tally {
  hit: number;
  miss: number;
  other: number;
}
const rate = (t: Tally) => (t.hit + t.miss > 0 ? (100 * t.hit) / (t.hit + t.miss) : 0);

type Figures = Record<string, string | number> & {
  rps: number;
  p50: number;
  p99: number;
  pageHitRate: number;
  dataHitRate: number;
};

/** One run on a fresh worker and database. */
async function runOnce(): Promise<{ figures: Figures; failed: boolean }> {
  const persistDir = mkdtempSync(join(tmpdir(), "souq-load-"));
  await prepareDatabase(persistDir);
  const worker = await startWorker({
    port: "any",
    persistDir,
    vars: {
      ENVIRONMENT: "production",
      AUTH_PEPPER: "load-pepper",
      PAYMENT_SECRET: "load-secret",
      PUBLIC_ORIGIN: LOCAL_PUBLIC_ORIGIN,
    },
  });
  const base = worker.url;
  // Even if autocannon throws from one of its callbacks, the worker must not outlive this run.
  const stop = () => worker.stop();
  process.on("exit", stop);
  try {
    return await measure(base);
  } finally {
    process.off("exit", stop);
    worker.stop();
    rmSync(persistDir, { recursive: true, force: true });
  }
}

async function measure(base: string): Promise<{ figures: Figures; failed: boolean }> {
  async function getJson<T>(path: string, headers: Record<string, string> = {}): Promise<T> {
    const res = await fetch(`${base}${path}`, { headers });
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    return (await res.json()) as T;
  }
  const list = await getJson<{ data: Product[] }>("/backend/products?per_page=48&in_stock=1");
  const products = list.data.filter((p) => p.stock >= 10 && p.max_per_order >= MAX_LINE);
  if (products.length < 4) throw new Error("the seeded catalogue has too few products in stock for the load test");
  const guests: string[] = [];
  for (let i = 0; i < CONNECTIONS * GUESTS_PER_CONNECTION; i++) {
    // Each guest is a visitor of its own: minting is rate limited per network.
    guests.push(
      (
        await getJson<{ guestId: string }>("/api/cart/generate-guest-id", {
          "cf-connecting-ip": `10.9.${i >> 8}.${i & 255}`,
        })
      ).guestId,
    );
  }
  const queries = ["iphone", "ايفون", "آيفون", "galaxy", "سماعة", "lap", "tv", "كاميرا", "١٥", "watch"];
  const pages = ["/en", "/ar", "/en/products", "/ar/products?sort=price_asc", "/en/products?page=2", "/ar/services"];
  for (const p of products.slice(0, 6)) pages.push(`/en/product-details/${p.slug}`, `/ar/product-details/${p.slug}`);

  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
  // A guest is changed by one request at a time (busy until its answer), so the model of its
  // cart here is exact and no add is ever refused for passing a bound.
  const carts = guests.map((id) => ({ id, lines: new Map<number, number>(), busy: false }));
  type Ctx = { guest?: (typeof carts)[number]; kind?: "page" | "data" };
  // Which answers came from a cache: pages by the page cache's x-page-cache (HIT, or MISS when
  // rendered), the browser's catalogue reads (suggest) by the data cache's x-cache.
  const pageCache: Tally = { hit: 0, miss: 0, other: 0 };
  const dataCache: Tally = { hit: 0, miss: 0, other: 0 };
  const count = (tally: Tally, value: unknown) => {
    if (value === "HIT") tally.hit += 1;
    else if (value === "MISS") tally.miss += 1;
    else tally.other += 1;
  };
  const browse = (req: autocannon.Request, context: Ctx): autocannon.Request => {
    context.kind = "page";
    return { ...req, method: "GET", path: pick(pages), headers: { accept: "text/html" }, body: "" };
  };

  const started = Date.now();
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      {
        setupRequest: (req: autocannon.Request, ctx: object) => {
          const context = ctx as Ctx;
          const roll = Math.random();
          context.kind = undefined;
          if (roll < 0.4) return browse(req, context);
          if (roll < 0.6) {
            context.kind = "data";
            return {
              ...req,
              method: "GET",
              path: `/backend/search/suggest?q=${encodeURIComponent(pick(queries))}`,
              headers: { "content-language": pick(["en", "ar"]) },
              body: "",
            };
          }
          let guest = pick(carts);
          for (let i = 0; i < 8 && guest.busy; i++) guest = pick(carts);
          if (guest.busy) return browse(req, context);
          guest.busy = true;
          context.guest = guest;
          const product = pick(products);
          const quantity = guest.lines.get(product.id) ?? 0;
          const headers = { "content-type": "application/json", "guest-id": guest.id };
          if (quantity < MAX_LINE) {
            guest.lines.set(product.id, quantity + 1);
            return {
              ...req,
              method: "POST",
              path: "/backend/cart/add-product",
              headers,
              body: JSON.stringify({ product_id: product.id, quantity: 1 }),
            };
          }
          guest.lines.delete(product.id);
          return {
            ...req,
            method: "POST",
            path: "/backend/cart/remove-product",
            headers,
            body: JSON.stringify({ productId: product.id }),
          };
        },
        onResponse: (_status: number, _body: string, ctx: object, headers?: Record<string, unknown>) => {
          const context = ctx as Ctx;
          if (context.guest) context.guest.busy = false;
          context.guest = undefined;
          const header = (name: string) =>
            Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
          if (context.kind === "page") count(pageCache, header("x-page-cache"));
          if (context.kind === "data") count(dataCache, header("x-cache"));
        },
      },
    ],
  });
  const seconds = (Date.now() - started) / 1000;

  // Every cart: totals equal the sum of its lines, and the lines are what the connection made.
  let checked = 0;
  let mismatched = 0;
  for (const cart of carts) {
    const { data } = await getJson<{ data: Cart }>("/backend/cart", { "guest-id": cart.id });
    checked += 1;
    const quantity = data.products.reduce((s, l) => s + l.quantity, 0);
    const subtotal = data.products.reduce((s, l) => s + l.line_total, 0);
    const expected = [...cart.lines.values()].reduce((s, q) => s + q, 0);
    if (
      quantity !== data.total_quantity ||
      quantity !== expected ||
      subtotal !== data.subtotal ||
      data.total !== data.subtotal - data.discount
    )
      mismatched += 1;
  }

  const errors = result.errors + result.timeouts + result.non2xx;
  const figures: Figures = {
    date: new Date().toISOString(),
    machine: `${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    connections: CONNECTIONS,
    seconds: Math.round(seconds),
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    carts: checked,
    mismatched,
    pageHits: pageCache.hit,
    pageMisses: pageCache.miss,
    pageOther: pageCache.other,
    pageHitRate: Number(rate(pageCache).toFixed(1)),
    dataHits: dataCache.hit,
    dataMisses: dataCache.miss,
    dataOther: dataCache.other,
    dataHitRate: Number(rate(dataCache).toFixed(1)),
  };
  return { figures, failed: errors > 0 || mismatched > 0 };
}

let exitCode = 0;
try {
  const runs: Figures[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { figures, failed } = await runOnce();
    console.log(JSON.stringify(figures, null, 2));
    runs.push(figures);
    if (failed) exitCode = 1;
  }
  writeFigures(runs);
  writeCacheFigures(runs);
} catch (error) {
  console.error(error);
  exitCode = 1;
}
process.exit(exitCode);

/** The median run (by req/s) and the range of a figure over all runs, as "median (min–max)". */
function medianRun(runs: Figures[]): Figures {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Replaces what stands between `start` and `end` in a doc (or appends the block). */
function writeBetween(file: string, start: string, end: string, block: string, fallback: string): void {
  let doc: string;
  try {
    doc = readFileSync(file, "utf8");
  } catch {
    doc = `${fallback}${start}\n${end}\n`;
  }
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  const table = `${start}\n${block}\n${end}`;
  doc = i >= 0 && j > i ? doc.slice(0, i) + table + doc.slice(j + end.length) : `${doc}\n${table}\n`;
  writeFileSync(file, doc);
}

function writeFigures(runs: Figures[]): void {
  const f = medianRun(runs);
  const many = runs.length > 1;
  const block = [
    `Measured ${f.date} on ${f.machine}.${many ? ` Median of ${runs.length} runs (each on a fresh worker and database) with the range of all in brackets.` : ""}`,
    "",
    "| connections | seconds | requests | req/s | p50 ms | p99 ms | errors | timeouts | non-2xx | carts checked | carts whose totals differ from their lines |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    `| ${f.connections} | ${f.seconds} | ${spread(runs, "requests")} | ${spread(runs, "rps")} | ${spread(runs, "p50")} | ${spread(runs, "p99")} | ${spread(runs, "errors")} | ${spread(runs, "timeouts")} | ${spread(runs, "non2xx")} | ${f.carts} | ${spread(runs, "mismatched")} |`,
  ].join("\n");
  writeBetween(
    join(root, "docs", "RELIABILITY.md"),
    "<!-- load:start -->",
    "<!-- load:end -->",
    block,
    "# Reliability\n\n## Load\n\n",
  );
}

/** The cache hit rates of the same runs, into docs/PERFORMANCE.md ("Caching at the edge"). */
function writeCacheFigures(runs: Figures[]): void {
  const f = medianRun(runs);
  const block = [
    `\`npm run test:load\`, ${f.connections} connections for ${f.seconds} s, measured ${f.date} on ${f.machine}; ${runs.length > 1 ? `median of ${runs.length} runs with the range of all in brackets` : "one run"}. A hit is an answer that said HIT in its cache header; the rate is hits over hits and misses.`,
    "",
    "| layer | answers counted | hits | misses | hit rate % |",
    "| --- | --- | --- | --- | --- |",
    `| pages (\`x-page-cache\`: 12 product pages, home, lists, services in both languages) | page views | ${spread(runs, "pageHits")} | ${spread(runs, "pageMisses")} | ${spread(runs, "pageHitRate")} |`,
    `| data (\`x-cache\`: the browser's suggest reads) | catalogue reads | ${spread(runs, "dataHits")} | ${spread(runs, "dataMisses")} | ${spread(runs, "dataHitRate")} |`,
  ].join("\n");
  writeBetween(
    join(root, "docs", "PERFORMANCE.md"),
    "<!-- load-cache:start -->",
    "<!-- load-cache:end -->",
    block,
    "# Performance\n\n",
  );
}
