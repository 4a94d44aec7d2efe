// Starting the built worker locally: used by `npm start` and by the tests' global setup, so both
// run the shop the same way (wrangler dev on build/, local D1 and KV under a persist directory).
import { execFile, spawn, spawnSync, type ChildProcess, type SpawnSyncOptions } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));
const wranglerBin = fileURLToPath(new URL("../../node_modules/wrangler/bin/wrangler.js", import.meta.url));

/** The build output folder (BUILD_DIR overrides, for parallel builds). */
export const buildDir = process.env.BUILD_DIR ?? "build";

/**
 * The environment of the wrangler (and other Node) processes the scripts and tests start. Node's
 * compile cache keeps V8's code for wrangler's 10 MB bundle between runs: each `wrangler` start (a
 * staff account added by `npm run staff`, which the console journeys do dozens of times, a
 * migration, a `wrangler dev`) spends about 0.7 s less CPU compiling it (3.2 → 2.5 s for
 * `npm run staff -- add`).
 */
export const baseEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CI: process.env.CI ?? "true",
  NO_COLOR: "1",
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(root, "node_modules", ".cache", "node-compile-cache"),
};

/** Runs wrangler to completion; throws with its output on failure. */
export function wrangler(args: string[], opts: SpawnSyncOptions = {}): string {
  const res = spawnSync(process.execPath, [wranglerBin, ...args], {
    cwd: root,
    env: baseEnv,
    encoding: "utf8",
    ...opts,
  });
  if (res.status !== 0) throw new Error(`wrangler ${args.join(" ")} failed:\n${res.stdout}\n${res.stderr}`);
  return String(res.stdout);
}

/**
 * Runs a Node script (`args[0]`) to completion without blocking the event loop, and answers its
 * output: for tests that talk to a worker over HTTP around it. Run with spawnSync, a local D1
 * command blocked the loop for seconds (longer on a busy machine), and the next request reused a
 * kept-alive connection the worker had closed meanwhile ("other side closed").
 */
export function runNode(args: string[], env: NodeJS.ProcessEnv = baseEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { cwd: root, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${args.join(" ")} failed:\n${stdout}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

/** `wrangler`, without blocking the event loop (`runNode`). */
export function wranglerAsync(args: string[], env: NodeJS.ProcessEnv = baseEnv): Promise<string> {
  return runNode([wranglerBin, ...args], env);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Applies the D1 migrations to the local database in persistDir, then seeds it if it is empty. */
export async function prepareDatabase(persistDir: string): Promise<void> {
  const { applyMigrations, seedIfEmpty } = await import("../seed.ts");
  applyMigrations(persistDir);
  await seedIfEmpty(persistDir);
}

/** Starts `wrangler dev` on the built worker and resolves once it answers. */
export interface RunningWorker {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop: () => void;
}

/**
 * Starts `wrangler dev` on `port`, or with `port: "any"` on a free one. A free port is free when
 * asked, not when wrangler binds it a moment later: another process starting beside it (the test
 * files run several at a time, each starting workers) can take it first. Then wrangler exits at once
 * with "Address already in use", and an "any" start tries again on another port (at most three).
 */
export async function startWorker(
  options: Omit<Parameters<typeof launchWorker>[0], "port"> & { port: number | "any" },
  /** Where an "any" start looks for a port (a test hands it a taken one first). */
  pickPort: () => Promise<number> = freePort,
): Promise<RunningWorker> {
  if (options.port !== "any") return launchWorker({ ...options, port: options.port });
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchWorker({ ...options, port: await pickPort() });
    } catch (error) {
      if (attempt >= 3 || !(error instanceof PortTaken)) throw error;
    }
  }
}

/** wrangler found its port taken when it came to bind it. */
class PortTaken extends Error {}

async function launchWorker({
  port,
  persistDir,
  vars = {},
  stdio = "pipe",
  inspectorPort,
  logLevel,
  ready = (res) => res.ok,
  cwd = root,
}: {
  port: number;
  persistDir: string;
  vars?: Record<string, string>;
  stdio?: "pipe" | "inherit";
  /** Where wrangler serves the Worker's V8 inspector (scripts/profile.ts); its default otherwise. */
  inspectorPort?: number;
  /**
   * wrangler's `--log-level`; its default (`log`) otherwise. Below `info`, the runtime no longer
   * posts a line for every request to wrangler's Node process, which the tests never read.
   */
  logLevel?: "debug" | "info" | "log" | "warn" | "error" | "none";
  /**
   * When the worker counts as started, from its answer to /builds/latest.json: a 2xx by default.
   * A test of a worker that refuses to serve (production without PUBLIC_ORIGIN) waits for its 503.
   */
  ready?: (res: Response) => boolean;
  /**
   * The checkout whose build to serve (its `${buildDir}/server/wrangler.json`): this one by
   * default; another commit's for `npm run lighthouse -- --against`.
   */
  cwd?: string;
}): Promise<RunningWorker> {
  const args = [
    wranglerBin,
    "dev",
    "-c",
    `${buildDir}/server/wrangler.json`,
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--persist-to",
    persistDir,
    "--show-interactive-dev-session=false",
    // Scheduled events on demand (worker/backend/jobs.ts): `npm start` fires one every minute, as
    // Cloudflare would, and the tests when they need one. With this Vite-built (unbundled) worker,
    // wrangler serves them at /cdn-cgi/local/scheduled (its /__scheduled alias needs its own bundling).
    "--test-scheduled",
  ];
  if (inspectorPort !== undefined) args.push("--inspector-port", String(inspectorPort));
  if (logLevel !== undefined) args.push("--log-level", logLevel);
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  const child = spawn(process.execPath, args, {
    cwd,
    env: baseEnv,
    stdio: stdio === "inherit" ? "inherit" : ["ignore", "pipe", "pipe"],
    detached: process.platform !== "win32",
  });
  let output = "";
  const append = (d: Buffer) => (output += d.toString());
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const message = `wrangler dev exited early:\n${output}`;
      throw /Address already in use/.test(output) ? new PortTaken(message) : new Error(message);
    }
    try {
      // Bounded: something else answering on the port (not wrangler) must not hold the start forever.
      const res = await fetch(`${url}/builds/latest.json`, { signal: AbortSignal.timeout(5_000) });
      if (ready(res)) return { url, child, output: () => output, stop: () => stopWorker(child) };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  stopWorker(child);
  throw new Error(`wrangler dev did not answer within 60 s:\n${output}`);
}

/**
/**
 * The public origin of the production-mode workers the scripts and tests start locally: production
 * requires one (contract/server/public-origin.ts), an https origin, which the local worker cannot be. Only
 * absolute links (canonical and hreflang URLs, the messages' links) point there.
 */
export const LOCAL_PUBLIC_ORIGIN = "https://souq-edge.example";

/**
 * The built worker as a deployment runs it (ENVIRONMENT=production), with throwaway secrets: what
 * the measuring scripts (bench, lighthouse, the search case) serve.
 */
export async function startProductionWorker(
  persistDir: string,
  vars: Record<string, string> = {},
  inspectorPort?: number,
  cwd: string = root,
): Promise<RunningWorker> {
  return startWorker({
    port: "any",
    persistDir,
    inspectorPort,
    cwd,
    vars: {
      ENVIRONMENT: "production",
      AUTH_PEPPER: randomBytes(16).toString("hex"),
      PAYMENT_SECRET: randomBytes(16).toString("hex"),
      PUBLIC_ORIGIN: LOCAL_PUBLIC_ORIGIN,
      ...vars,
    },
  });
}

export function stopWorker(child: ChildProcess): void {
  if (child.exitCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    child.kill("SIGTERM");
  }
}
