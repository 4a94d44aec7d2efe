// `npm run test:load`: 100 connections for 30 seconds of mixed browsing, search and cart changes
// against the built worker on loopback, then every cart is checked: its totals must equal the sum
// of its lines. Writes the figures into docs/RELIABILITY.md (between markers) and exits non-zero
// on any error. Options: --no-build, --connections N, --duration S.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { baseEnv, freePort, prepareDatabase, root, startWorker } from "./lib/worker.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CONNECTIONS = arg("connections", 100);
const DURATION = arg("duration", 30);
/** Guests to spread the cart changes over. */
const GUESTS_PER_CONNECTION = 2;
/** Lines stay at or below this quantity: well inside every product's stock and per-order maximum. */
const MAX_LINE = 2;

if (!process.argv.includes("--no-build")) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, env: baseEnv, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const persistDir = mkdtempSync(join(tmpdir(), "souq-load-"));
await prepareDatabase(persistDir);
const worker = await startWorker({
  port: await freePort(),
  persistDir,
  vars: { ENVIRONMENT: "production", AUTH_PEPPER: "load-pepper", PAYMENT_SECRET: "load-secret" },
});
const base = worker.url;
// Even if autocannon throws from one of its callbacks, the worker must not outlive this run.
process.on("exit", () => worker.stop());

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

async function getJson<T>(path: string, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${base}${path}`, { headers });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return (await res.json()) as T;
}

let exitCode = 0;
try {
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
  type Ctx = { guest?: (typeof carts)[number] };
  const browse = (req: autocannon.Request): autocannon.Request => ({
    ...req,
    method: "GET",
    path: pick(pages),
    headers: { accept: "text/html" },
    body: "",
  });

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
          if (roll < 0.4) return browse(req);
          if (roll < 0.6) {
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
          if (guest.busy) return browse(req);
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
        onResponse: (_status: number, _body: string, ctx: object) => {
          const context = ctx as Ctx;
          if (context.guest) context.guest.busy = false;
          context.guest = undefined;
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
  const figures = {
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
  };
  console.log(JSON.stringify(figures, null, 2));
  writeFigures(figures);
  if (errors > 0 || mismatched > 0) exitCode = 1;
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  worker.stop();
  rmSync(persistDir, { recursive: true, force: true });
}
process.exit(exitCode);

function writeFigures(f: Record<string, string | number>): void {
  const file = join(root, "docs", "RELIABILITY.md");
  const start = "<!-- load:start -->";
  const end = "<!-- load:end -->";
  const table = [
    start,
    `Measured ${f.date} on ${f.machine}.`,
    "",
    "| connections | seconds | requests | req/s | p50 ms | p99 ms | errors | timeouts | non-2xx | carts checked | carts whose totals differ from their lines |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    `| ${f.connections} | ${f.seconds} | ${f.requests} | ${f.rps} | ${f.p50} | ${f.p99} | ${f.errors} | ${f.timeouts} | ${f.non2xx} | ${f.carts} | ${f.mismatched} |`,
    end,
  ].join("\n");
  let doc: string;
  try {
    doc = readFileSync(file, "utf8");
  } catch {
    doc = `# Reliability\n\n## Load\n\n${start}\n${end}\n`;
  }
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  doc = i >= 0 && j > i ? doc.slice(0, i) + table + doc.slice(j + end.length) : `${doc}\n${table}\n`;
  writeFileSync(file, doc);
}
