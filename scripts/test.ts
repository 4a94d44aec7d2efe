// `npm test`: make sure Chromium is there, type check, lint (ESLint and Prettier), build, then every test (Workers runtime,
// HTTP against the built worker, Chromium journeys), ending with a plain `N passed, N failed`.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { baseEnv, root } from "./lib/worker.ts";
import { REPORT, summarize } from "./lib/summary.ts";

export const CHROMIUM = "/usr/bin/chromium";
/** Chromium's headless shell, which the browser tests run when it is there (test/support/browser.ts). */
export const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

function run(cmd: string, args: string[]): number {
  const res = spawnSync(cmd, args, { cwd: root, env: baseEnv, stdio: "inherit" });
  return res.status ?? 1;
}

if (!existsSync(CHROMIUM) || !existsSync(HEADLESS_SHELL)) {
  if (process.getuid?.() === 0) {
    console.log("Chromium or its headless shell is missing: installing Debian's chromium packages…");
    run("apt-get", ["update"]);
    if (
      run("apt-get", [
        "install",
        "-y",
        "--no-install-recommends",
        "chromium",
        "chromium-headless-shell",
        "fonts-noto-core",
        "fonts-dejavu-core",
      ]) !== 0
    ) {
      console.error("Installing chromium failed.");
      process.exit(1);
    }
  } else if (!existsSync(CHROMIUM)) {
    console.error(
      `Chromium is needed for the browser tests. Install it with:\n  sudo apt-get install -y chromium chromium-headless-shell fonts-noto-core\n(then run npm test again)`,
    );
    process.exit(1);
  } else {
    console.log(
      `The browser tests run on the full Chromium, about twice as slowly; for the headless shell:\n  sudo apt-get install -y chromium-headless-shell`,
    );
  }
}

/** Prints the summary line and keeps it for .ci/run, which prints it last. */
function finish(line: string, code: number): never {
  writeFileSync("test-results/summary.txt", `${line}\n`);
  console.log(line);
  process.exit(code);
}

rmSync(REPORT, { force: true });
mkdirSync("test-results", { recursive: true });
const args = process.argv.slice(2);
let extraFailed = 0;
if (!args.includes("--no-build")) {
  if (run("npm", ["run", "typecheck"]) !== 0) extraFailed += 1;
  if (run("npm", ["run", "lint"]) !== 0) extraFailed += 1;
  if (run("npm", ["run", "build"]) !== 0) {
    finish(summarize(REPORT, extraFailed + 1).line, 1);
  }
}
const vitestArgs = args.filter((a) => a !== "--no-build");

/** vitest run with the console reporter and a JSON report; resolves with its exit status. */
function vitest(
  extra: string[],
  report: string,
  { log, priority }: { log?: string; priority?: number } = {},
): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      "node_modules/vitest/vitest.mjs",
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${report}`,
      ...extra,
    ],
    { cwd: root, env: baseEnv, stdio: log ? ["ignore", "pipe", "pipe"] : "inherit" },
  );
  // Relative to this process's own (CI runs the suite under nice already).
  if (priority !== undefined && child.pid !== undefined) setPriority(child.pid, Math.min(19, getPriority() + priority));
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) =>
    child.on("close", (code) => {
      if (log) writeFileSync(log, output);
      resolve(code ?? 1);
    }),
  );
}

type Report = { numPassedTests?: number; numFailedTests?: number; testResults?: unknown[]; success?: boolean };

/** One JSON report of several (missing ones count as a failed file in summarize). */
function mergeReports(parts: string[], into: string): void {
  const read = parts.filter((p) => existsSync(p)).map((p) => JSON.parse(readFileSync(p, "utf8")) as Report);
  if (read.length !== parts.length) return;
  const merged = { ...read[0] } as Record<string, unknown>;
  // The counts (numTotalTests, numFailedTests, ...) add up; the run started with the first.
  for (const key of Object.keys(merged).filter((k) => k.startsWith("num")))
    merged[key] = read.reduce((n, r) => n + Number((r as Record<string, unknown>)[key] ?? 0), 0);
  merged.startTime = Math.min(...read.map((r) => Number((r as Record<string, unknown>).startTime)));
  merged.success = read.every((r) => r.success);
  merged.testResults = read.flatMap((r) => r.testResults ?? []);
  writeFileSync(into, JSON.stringify(merged));
}

let status: number;
const started = Date.now();
if (vitestArgs.length > 0) {
  status = await vitest(vitestArgs, REPORT);
} else {
  // The whole suite: the built project (one wrangler dev, its files one at a time, mostly Chromium)
  // and the Workers runtime's projects side by side, in two vitest runs. Alone on a 2-core machine
  // each leaves most of a core idle, and run one after the other they took 1,440 and 470 s. The
  // Workers runtime's files run a little below (nice 5), as the built project is the longer path;
  // their output is printed once both are done.
  const parts = ["test-results/vitest-built.json", "test-results/vitest-workers.json"];
  for (const p of parts) rmSync(p, { force: true });
  const [built, workers] = await Promise.all([
    vitest(["--project", "built"], parts[0]),
    vitest(["--project", "workers", "--project", "node"], parts[1], { log: "test-results/workers.log", priority: 5 }),
  ]);
  console.log(`\n--- the workers and node projects (test-results/workers.log) ---\n`);
  console.log(readFileSync("test-results/workers.log", "utf8"));
  mergeReports(parts, REPORT);
  status = built !== 0 ? built : workers;
}
console.log(`vitest took ${Math.round((Date.now() - started) / 1000)} s`);
const { failed, line } = summarize(REPORT, extraFailed);
finish(line, status !== 0 || failed > 0 ? 1 : 0);
