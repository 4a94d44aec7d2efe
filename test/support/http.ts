// The JSON client of the HTTP tests against a running worker (Node): the storefront's headers
// (same origin, JSON), answers parsed, and a production-configured worker of their own. Runs in
// Node, like global-setup.ts.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { LOCAL_PUBLIC_ORIGIN, root, startWorker, type RunningWorker } from "../../scripts/lib/worker.ts";
import { applyMigrations, runSeed } from "../../scripts/seed.ts";
import { seedStatements } from "../../scripts/seed/index.ts";

// What the global setup (global-setup.ts) provides to the built project's tests.
declare module "vitest" {
  export interface ProvidedContext {
    /** One built worker per vitest worker of the project (`builtWorker`). */
    builtWorkers: BuiltWorker[];
    /** A migrated and seeded database no worker runs on, for the tests' own workers to copy. */
    seededDatabase: string;
  }
}

export interface BuiltWorker {
  url: string;
  /** The D1 and KV state of that worker (for `npm run staff -- add ... --persist-to`). */
  persistDir: string;
}

/**
 * The built worker this test file runs against. The global setup starts one per vitest worker of
 * the `built` project, each on a database of its own (vitest.config.ts): a file runs in one vitest
 * worker (`VITEST_POOL_ID`, 1 to maxWorkers), and so against one worker and one database, which it
 * shares only with the files that run in the same vitest worker, one after another.
 */
export function builtWorker(): BuiltWorker {
  const workers = inject("builtWorkers");
  const pool = Number(process.env.VITEST_POOL_ID ?? "1");
  return workers[(pool - 1) % workers.length];
}

/**
 * A visitor's own network address, sent as cf-connecting-ip (Cloudflare sets it; wrangler dev
 * passes it through). Checkout, sign-in and the holds on unpaid orders are counted per network:
 * calls that all came from 127.0.0.1 would share one allowance across every file of the run.
 */
export const visitorIp = () =>
  `10.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

export interface JsonInit {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A client for one worker's base URL; `defaults` go on every request (e.g. a visitor's address). */
export function jsonApi(base: string, defaults: Record<string, string> = {}) {
  return async (path: string, init: JsonInit = {}) => {
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? "GET",
      headers: {
        accept: "application/json",
        "content-type": "application/json",
        origin: base,
        ...defaults,
        ...(init.headers ?? {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: "manual",
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (an HTML page): the test reads the text.
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field in each test
    return { status: res.status, body: body as any };
  };
}

/**
 * The variables the suite's own worker runs with (global-setup.ts). No visit reports field data
 * (RUM_SAMPLE_RATE 0), so no journey's requests depend on a draw; test/e2e/rum.e2e.ts runs a
 * worker of its own that samples every visit.
 */
export const TEST_VARS = {
  ENVIRONMENT: "test",
  AUTH_PEPPER: "test-pepper",
  PAYMENT_SECRET: "test-payment-secret",
  RUM_SAMPLE_RATE: "0",
  // The edge and a backend it forwards to share it (second-backend.test.ts), as a deployment must.
  EDGE_SECRET: "test-edge-secret",
  // WhatsApp against its offline stand-in (services/messages/whatsapp-stand-in.ts).
  WHATSAPP: "cloud",
};

/**
 * A fresh database with the migrations applied and the demo catalogue seeded, made once per run by
 * the global setup (three wrangler runs, about 20 s on the 2-core CI machine). Every worker that
 * needs a seeded database of its own starts from a copy of it, which is the same state a fresh
 * migrate and seed leaves, at the cost of a file copy.
 */
export function prepareSeededDatabase(): string {
  const dir = mkdtempSync(join(tmpdir(), "souq-seeded-"));
  // Each step of `npm test` that runs the built worker (HTTP, journeys, rigs) has a global setup
  // of its own; migrating and seeding through wrangler took a minute of it on a loaded machine.
  // The seeded database is kept under the hash of what makes it (the migrations and the seed's
  // statements), so the steps after the first copy it.
  const key = createHash("sha256");
  const migrations = join(root, "worker", "backend", "migrations");
  for (const f of readdirSync(migrations).sort()) key.update(f).update(readFileSync(join(migrations, f)));
  for (const statement of seedStatements()) key.update(statement);
  const kept = join(root, "node_modules", ".cache", "souq-seeded", key.digest("hex").slice(0, 16));
  try {
    if (existsSync(`${kept}.done`)) {
      cpSync(kept, dir, { recursive: true });
      return dir;
    }
    applyMigrations(dir);
    runSeed({ local: true, persistDir: dir });
    for (const stale of [kept, `${kept}.tmp`]) rmSync(stale, { recursive: true, force: true });
    cpSync(dir, `${kept}.tmp`, { recursive: true });
    renameSync(`${kept}.tmp`, kept);
    writeFileSync(`${kept}.done`, "");
    return dir;
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Copies the run's seeded database (`prepareSeededDatabase`, provided by the global setup as
 * `seededDatabase`) into `persistDir`, which then holds a database of its own.
 */
export function copySeededDatabase(persistDir: string, template?: string): void {
  cpSync(template ?? inject("seededDatabase"), persistDir, { recursive: true });
}

/**
 * One more worker of the test's own on a free port, with a database of its own: a copy of the
 * seeded one (the demo catalogue), or empty (no migrations), so that anything it answered from its
 * own D1 would fail. `template` is the seeded database to copy (the global setup passes it; tests
 * get the run's). `ready` tells when it has started (startWorker's; a 2xx by default).
 */
export async function startExtraWorker(
  vars: Record<string, string>,
  {
    database,
    template,
    ready,
  }: { database: "seeded" | "empty"; template?: string; ready?: (res: Response) => boolean },
): Promise<{ worker: RunningWorker; stop: () => void; persistDir: string }> {
  const persistDir = mkdtempSync(join(tmpdir(), "souq-extra-worker-"));
  try {
    if (database === "seeded") copySeededDatabase(persistDir, template);
    // No request log: nothing reads it, and each line is a round trip to wrangler's Node process.
    // Warnings and errors still reach `output()`.
    const worker = await startWorker({ port: "any", persistDir, vars, logLevel: "warn", ready });
    return {
      worker,
      persistDir,
      stop: () => {
        worker.stop();
        rmSync(persistDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(persistDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A second worker configured as README's deployment steps leave a shop with no payment provider:
 * ENVIRONMENT=production, the secrets and the public origin set, on a fresh seeded database of its own.
 */
export function startProductionWorker(): Promise<{ worker: RunningWorker; stop: () => void }> {
  return startExtraWorker(
    {
      ENVIRONMENT: "production",
      AUTH_PEPPER: "production-pepper-for-the-test",
      PAYMENT_SECRET: "production-webhook-secret-for-the-test",
      ORDER_LINK_SECRET: "production-order-link-secret-for-the-test",
      PUBLIC_ORIGIN: LOCAL_PUBLIC_ORIGIN,
    },
    { database: "seeded" },
  );
}

/** A storefront worker with an empty database whose backend is the one at `backendUrl`. */
export function startStorefrontOf(backendUrl: string): Promise<{ worker: RunningWorker; stop: () => void }> {
  return startExtraWorker({ ...TEST_VARS, BACKEND_URL: backendUrl }, { database: "empty" });
}

/**
 * What a guest's order may set: the language it is placed in (its messages' too), the email, the
 * address, and a business buyer's company and VAT number (a standard tax invoice).
 */
export interface GuestOrderOptions {
  locale?: "en" | "ar";
  email?: string;
  buyer?: { buyer_company: string; buyer_vat_number: string };
  address?: typeof NATIONAL_DELIVERY | { name: string; phone: string; city: string; district: string; street: string };
}

/** A delivery address with the whole Saudi national address, for journeys that read its codes back. */
export const NATIONAL_DELIVERY = {
  name: "Noura Buyer",
  phone: "+966512345678",
  city: "Riyadh",
  district: "Olaya",
  street: "Tahlia",
  building: "4821",
  short_address: "RAQA4821",
  additional_number: "7023",
  postal_code: "12211",
};

/**
 * A guest of its own network buys `quantity` of a product through the real cart and checkout,
 * holding that stock; `pay()` then pays on the sandbox's card page with its success card (the
 * order gets its invoice), `decline()` with its decline card, which releases the stock.
 */
export async function buyThroughCheckout(
  base: string,
  productId: number,
  quantity: number,
  ip: string,
  opts: GuestOrderOptions = {},
): Promise<{
  number: string;
  guestId: string;
  email: string;
  total: number;
  pay: () => Promise<void>;
  decline: () => Promise<void>;
}> {
  const locale = opts.locale ?? "en";
  const api = jsonApi(base, { "cf-connecting-ip": ip });
  const { guestId } = (await api("/api/cart/generate-guest-id")).body as { guestId: string };
  const guest = { "guest-id": guestId, "content-language": locale };
  const added = await api("/api/cart/add-product", { method: "POST", headers: guest, body: { productId, quantity } });
  if (added.status !== 200) throw new Error(`add-product answered ${added.status}: ${JSON.stringify(added.body)}`);
  const email = opts.email ?? `buyer-${guestId.slice(0, 8)}@example.com`;
  const placed = await api("/backend/checkout", {
    method: "POST",
    headers: guest,
    body: {
      idempotency_key: crypto.randomUUID(),
      email,
      address: opts.address ?? {
        name: "Noura Buyer",
        phone: "+966512345678",
        city: "Riyadh",
        district: "Olaya",
        street: "Tahlia",
      },
      shipping_method: "standard",
      payment_method: "card",
      ...opts.buyer,
    },
  });
  if (placed.status !== 201) throw new Error(`checkout answered ${placed.status}: ${JSON.stringify(placed.body)}`);
  const number = String(placed.body.data.number);
  const payWith = async (card: string) => {
    const started = await api(`/backend/payments/${number}/start`, {
      method: "POST",
      headers: guest,
      body: { return_url: `/${locale}/payment-status` },
    });
    if (started.status !== 200) throw new Error(`payment start answered ${started.status}`);
    const res = await fetch(`${base}${started.body.data.redirect_url}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base, "cf-connecting-ip": ip },
      body: new URLSearchParams({ card_number: card, expiry: "12/39", cvc: "123", action: "pay" }).toString(),
      redirect: "manual",
    });
    if (res.status !== 303) throw new Error(`the sandbox's payment page answered ${res.status}`);
  };
  return {
    number,
    guestId,
    email,
    total: Number(placed.body.data.total),
    pay: () => payWith("4242 4242 4242 4242"),
    decline: () => payWith("4000 0000 0000 0002"),
  };
}

/** A JSON call to the built worker's backend: GET without a body, POST with one; answers the body. */
export async function backendJson(base: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { accept: "application/json", "content-type": "application/json", origin: base, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { data: Record<string, unknown> & { guestId?: string } };
}
