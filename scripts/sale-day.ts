// `npm run test:sale-day`: a sale day on Saudi mobile networks, where a carrier puts thousands of
// phones behind one address (carrier-grade NAT). 300 shoppers behind 3 addresses each mint a guest
// id, add the sale item to their cart, place an order and pay it (two in three by card on the
// sandbox's card page, one in three with STC Pay through the Moyasar adapter and its stand-in),
// solving the Turnstile challenge with the stand-in's token whenever their network is asked for
// one; none may be refused. Meanwhile one script behind an address of its own tries to hold every
// unit of another product with fresh guest ids, never solving a challenge: it must hold no more
// than the caps allow. Prints orders, refusals, challenges and the p50/p99 latency of the
// shoppers' requests; exits non-zero when a shopper was refused or the script held too much.
// Runs the built worker on a free port with a fresh database and stops it at the end. Options:
// --no-build, --shoppers N (300), --concurrency N (24), --runs N (each on a fresh worker and
// database; prints the median with the range of all). Not part of `npm test`.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { prepareDatabase, startWorker, wrangler } from "./lib/worker.ts";
import { buildUnlessSkipped, numberArg as arg, percentile, spread } from "./lib/runs.ts";
import { CHALLENGE_HEADER } from "../contract/challenge.ts";
import { NETWORK_HOLDS_BEFORE_CHALLENGE } from "../worker/backend/services/orders/hold-caps.ts";

/** A token as the stand-in widget makes them (turnstile-stand-in.ts): Cloudflare's dummy token, a random tail. */
const dummyToken = () => `XXXX.DUMMY.TOKEN.XXXX.${crypto.randomUUID()}`;

const SHOPPERS = arg("shoppers", 300);
const CONCURRENCY = arg("concurrency", 24);
const RUNS = arg("runs", 1);
/** The three carrier addresses the shoppers share. */
const NETWORKS = ["10.77.0.1", "10.77.0.2", "10.77.0.3"];
/** The hoarding script's own address. */
const HOARDER = "10.66.0.1";
/** Checkouts the hoarding script tries before it gives up. */
const HOARD_TRIES = 40;

buildUnlessSkipped();

interface Figures {
  date: string;
  machine: string;
  shoppers: number;
  seconds: number;
  requests: number;
  placed: number;
  paid: number;
  refused: number;
  challenges: number;
  p50: number;
  p99: number;
  hoardTries: number;
  hoardChallenged: number;
  hoardOrders: number;
  hoardHeld: number;
  hoardStock: number;
  hoardCap: number;
}

/** The rows of one query on the run's local database, before the worker starts. */
function d1(persistDir: string, sql: string): Record<string, unknown>[] {
  const out = wrangler(["d1", "execute", "DB", "--local", "--persist-to", persistDir, "--command", sql, "--json"]);
  const start = out.search(/^\[/m);
  return (
    (JSON.parse(start >= 0 ? out.slice(start) : out) as { results?: Record<string, unknown>[] }[])[0]?.results ?? []
  );
}

async function runOnce(): Promise<{ figures: Figures; failed: string[] }> {
  const persistDir = mkdtempSync(join(tmpdir(), "souq-sale-day-"));
  await prepareDatabase(persistDir);
  // Two single-variant products: the sale item, stocked for every shopper, and the one the script
  // tries to take off the shelf, with its seeded stock.
  const picked = d1(
    persistDir,
    "SELECT p.id, p.slug, p.stock FROM products p WHERE p.stock >= 10 AND (SELECT COUNT(*) FROM product_variants v WHERE v.product_id = p.id) = 1 ORDER BY p.id LIMIT 2",
  ) as { id: number; slug: string; stock: number }[];
  if (picked.length < 2) throw new Error("the seeded catalogue has too few products in stock");
  const [sale, hoarded] = picked;
  d1(persistDir, `UPDATE product_variants SET stock = ${SHOPPERS + 50} WHERE product_id = ${sale.id}`);
  const hoardMax = Number(
    d1(persistDir, `SELECT max_per_order AS m FROM product_variants WHERE product_id = ${hoarded.id}`)[0]?.m ?? 1,
  );

  const worker = await startWorker({
    port: "any",
    persistDir,
    logLevel: "warn",
    vars: {
      ENVIRONMENT: "test",
      AUTH_PEPPER: "sale-day-pepper",
      PAYMENT_SECRET: "sale-day-secret",
      RUM_SAMPLE_RATE: "0",
    },
  });
  const stop = () => worker.stop();
  process.on("exit", stop);
  try {
    return await saleDay(worker.url, sale.id, { id: hoarded.id, stock: hoarded.stock, max: hoardMax });
  } finally {
    process.off("exit", stop);
    worker.stop();
    rmSync(persistDir, { recursive: true, force: true });
  }
}

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field
  body: any;
}

async function saleDay(
  base: string,
  saleId: number,
  hoarded: { id: number; stock: number; max: number },
): Promise<{ figures: Figures; failed: string[] }> {
  const latencies: number[] = [];
  const refusals: string[] = [];
  let challenges = 0;
  let placed = 0;
  let paid = 0;

  /** One request of a shopper, timed; a challenged one is solved with the stand-in's token and sent again. */
  async function send(
    ip: string,
    path: string,
    init: { method?: string; headers?: Record<string, string>; json?: unknown; form?: Record<string, string> } = {},
    solve = true,
  ): Promise<Answer> {
    const headers: Record<string, string> = { accept: "application/json", origin: base, "cf-connecting-ip": ip };
    let body: string | undefined;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    }
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      const res = await fetch(`${base}${path}`, {
        method: init.method ?? (body === undefined ? "GET" : "POST"),
        headers: { ...headers, ...init.headers },
        body,
        redirect: "manual",
      });
      const text = await res.text();
      latencies.push(performance.now() - started);
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // a page or a redirect
      }
      const challenged = (res.status === 428 || res.status === 403) && !!(parsed as { challenge?: unknown })?.challenge;
      if (challenged && solve && attempt < 3) {
        challenges += 1;
        headers[CHALLENGE_HEADER] = dummyToken();
        continue;
      }
      return { status: res.status, body: parsed };
    }
  }

  const refuse = (who: number, step: string, answer: Answer) =>
    refusals.push(`shopper ${who} ${step}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);

  async function shop(i: number): Promise<void> {
    const ip = NETWORKS[i % NETWORKS.length];
    const minted = await send(ip, "/api/cart/generate-guest-id");
    if (minted.status !== 200) return void refuse(i, "guest id", minted);
    const guest = { "guest-id": String(minted.body.guestId), "content-language": i % 2 ? "ar" : "en" };
    const added = await send(ip, "/backend/cart/add-product", {
      headers: guest,
      json: { product_id: saleId, quantity: 1 },
    });
    if (added.status !== 200) return void refuse(i, "add", added);
    const order = await send(ip, "/backend/checkout", {
      headers: guest,
      json: {
        idempotency_key: crypto.randomUUID(),
        email: `sale-${i}-${guest["guest-id"].slice(0, 8)}@example.com`,
        address: { name: "Sale Shopper", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
        shipping_method: "standard",
        payment_method: i % 3 === 2 ? "stcpay" : "card",
      },
    });
    if (order.status !== 201) return void refuse(i, "checkout", order);
    placed += 1;
    const number = String(order.body.data.number);
    const stcpay = i % 3 === 2;
    const started = await send(ip, `/backend/payments/${number}/start`, {
      headers: guest,
      json: { return_url: "/en/payment-status", ...(stcpay ? { method: "stcpay" } : {}) },
    });
    if (started.status !== 200) return void refuse(i, "payment start", started);
    const paymentId = String(started.body.data.payment_id);
    if (stcpay) {
      // STC Pay through the Moyasar adapter and its stand-in: the wallet's number, then its code.
      const mobile = await send(ip, `/backend/payments/${paymentId}/stcpay`, {
        headers: guest,
        json: { mobile: "0501234567" },
      });
      if (mobile.status !== 200) return void refuse(i, "stc pay number", mobile);
      const code = await send(ip, `/backend/payments/${paymentId}/stcpay/otp`, {
        headers: guest,
        json: { otp: "123456" },
      });
      if (code.status !== 200) return void refuse(i, "stc pay code", code);
    } else {
      // The card on the sandbox provider's own page, as the shopper's browser submits it.
      const card = await send(ip, String(started.body.data.redirect_url), {
        form: { card_number: "4242 4242 4242 4242", expiry: "12/39", cvc: "123", name: "Sale Shopper", action: "pay" },
      });
      if (card.status !== 303) return void refuse(i, "card page", card);
    }
    const status = await send(ip, `/backend/payments/${paymentId}/status`, { headers: guest });
    if (status.status !== 200 || status.body.data.status !== "paid") return void refuse(i, "payment status", status);
    paid += 1;
  }

  /** The script: fresh guest ids, as many units as an order takes, never a solved challenge. */
  async function hoard() {
    let challenged = 0;
    let orders = 0;
    let held = 0;
    for (let i = 0; i < HOARD_TRIES && held < hoarded.stock; i++) {
      const minted = await send(HOARDER, "/api/cart/generate-guest-id", {}, false);
      if (minted.status !== 200) continue;
      const guest = { "guest-id": String(minted.body.guestId) };
      const quantity = Math.min(hoarded.max, hoarded.stock - held);
      const added = await send(
        HOARDER,
        "/backend/cart/add-product",
        { headers: guest, json: { product_id: hoarded.id, quantity } },
        false,
      );
      if (added.status !== 200) continue;
      const order = await send(
        HOARDER,
        "/backend/checkout",
        {
          headers: guest,
          json: {
            idempotency_key: crypto.randomUUID(),
            email: `hoard-${i}@example.com`,
            address: { name: "Hoarder", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
            shipping_method: "standard",
            payment_method: "card",
          },
        },
        false,
      );
      if (order.status === 201) {
        orders += 1;
        held += quantity;
      } else if (order.status === 428) challenged += 1;
    }
    return { tries: HOARD_TRIES, challenged, orders, held };
  }

  const started = Date.now();
  let next = 0;
  const lane = async () => {
    while (next < SHOPPERS) await shop(next++);
  };
  const [, hoarding] = await Promise.all([Promise.all(Array.from({ length: CONCURRENCY }, lane)), hoard()]);
  const seconds = (Date.now() - started) / 1000;

  const sorted = [...latencies].sort((a, b) => a - b);
  // What the caps allow one address: the unpaid orders a network may hold before it is challenged.
  const hoardCap = NETWORK_HOLDS_BEFORE_CHALLENGE * hoarded.max;
  const figures: Figures = {
    date: new Date().toISOString(),
    machine: `${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    shoppers: SHOPPERS,
    seconds: Math.round(seconds),
    requests: latencies.length,
    placed,
    paid,
    refused: refusals.length,
    challenges,
    p50: Math.round(percentile(sorted, 50)),
    p99: Math.round(percentile(sorted, 99)),
    hoardTries: hoarding.tries,
    hoardChallenged: hoarding.challenged,
    hoardOrders: hoarding.orders,
    hoardHeld: hoarding.held,
    hoardStock: hoarded.stock,
    hoardCap,
  };
  const failed = [...refusals.slice(0, 10)];
  if (paid !== SHOPPERS) failed.push(`${SHOPPERS - paid} shoppers did not pay`);
  if (hoarding.orders > NETWORK_HOLDS_BEFORE_CHALLENGE || hoarding.held > hoardCap)
    failed.push(`the script held ${hoarding.held} units in ${hoarding.orders} orders (cap ${hoardCap})`);
  if (hoarding.challenged === 0) failed.push("the script was never challenged");
  return { figures, failed };
}

let exitCode = 0;
try {
  const runs: Figures[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { figures, failed } = await runOnce();
    console.log(JSON.stringify(figures, null, 2));
    for (const reason of failed) console.error(`FAILED: ${reason}`);
    if (failed.length) exitCode = 1;
    runs.push(figures);
  }
  const keys: (keyof Figures)[] = [
    "seconds",
    "requests",
    "placed",
    "paid",
    "refused",
    "challenges",
    "p50",
    "p99",
    "hoardChallenged",
    "hoardOrders",
    "hoardHeld",
  ];
  console.log(`\n${runs.length} run(s), median (min–max):`);
  for (const key of keys) console.log(`  ${key}: ${spread(runs, key)}`);
} catch (error) {
  console.error(error);
  exitCode = 1;
}
process.exit(exitCode);
