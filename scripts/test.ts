// `npm test`: every step of the test pyramid (docs/TESTING.md), the cheapest first, ending with a
// plain `N passed, N failed` summed over all of them; `.ci/run` runs exactly this.
//   npm test                   checks, inner loop, browser journeys, rigs (CI)
//   npm test -- --inner        typecheck, lint, build, unit, integration, HTTP (npm run test:inner)
//   npm test -- --e2e          build, Chromium journeys (npm run test:e2e)
//   npm test -- --rigs         build, fuzzers, timing statistics, harness tests (npm run test:rigs)
//   --no-build                 skips typecheck, lint and build (the build must be there for HTTP,
//                              journeys and rigs); other arguments go to every vitest run (files).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseEnv, root } from "./lib/worker.ts";
import { summarize } from "./lib/summary.ts";
import type { Margin } from "./lib/timeout-margins.ts";

export const CHROMIUM = "/usr/bin/chromium";
/** Chromium's headless shell, which the browser tests run when it is there (test/support/browser.ts). */
export const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

function run(cmd: string, args: string[]): number {
  const res = spawnSync(cmd, args, { cwd: root, env: baseEnv, stdio: "inherit" });
  return res.status ?? 1;
}

/** The first of a step's margins (the reporter sorts them, closest first), if it wrote any. */
function closestOf(path: string): Closest | undefined {
  if (!existsSync(path)) return undefined;
  const [first] = JSON.parse(readFileSync(path, "utf8")) as Margin[];
  return first && { test: first.test, seconds: first.ms / 1000, timeoutSeconds: first.timeoutMs / 1000 };
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

/** A vitest step: its projects (vitest.config.ts), the loop it belongs to, the step it runs beside. */
interface VitestStep {
  name: string;
  loop: "inner" | "e2e" | "rigs";
  projects: string[];
  beside?: string;
}
const VITEST_STEPS: VitestStep[] = [
  { name: "unit (Node)", loop: "inner", projects: ["node"] },
  { name: "integration (Workers runtime)", loop: "inner", projects: ["workers"] },
  { name: "HTTP (built worker)", loop: "inner", projects: ["http"] },
  { name: "journeys (Chromium)", loop: "e2e", projects: ["e2e"], beside: "HTTP (built worker)" },
  { name: "rigs (fuzzers, timing, harness)", loop: "rigs", projects: ["rigs-workers", "rigs"] },
];

const RESULTS = "test-results";
const args = process.argv.slice(2);
const LOOPS = ["inner", "e2e", "rigs"] as const;
const chosen = LOOPS.filter((loop) => args.includes(`--${loop}`));
const loops = new Set(chosen.length > 0 ? chosen : LOOPS);
const vitestArgs = args.filter((a) => a !== "--no-build" && !LOOPS.some((loop) => a === `--${loop}`));
// Files named on the command line narrow every step; a step none of them is in has nothing to run.
const narrowed = vitestArgs.some((a) => !a.startsWith("-"));

/** The test of a step that came closest to its own timeout (scripts/lib/timeout-margins.ts). */
interface Closest {
  test: string;
  seconds: number;
  timeoutSeconds: number;
}
const timings: { step: string; seconds: number; passed?: number; failed?: number; closest?: Closest }[] = [];
/** Seconds since `start` (a `performance.now()`), to a tenth. */
const since = (start: number) => Math.round((performance.now() - start) / 100) / 10;

/** Prints each step's time and the summary line, and keeps the line for .ci/run, which prints it last. */
function finish(reports: string[], extraFailed: number): never {
  const { failed, line } = summarize(reports, extraFailed);
  console.log("\nSteps:");
  for (const t of timings) {
    const counts = t.passed === undefined ? "" : `  ${t.passed} passed, ${t.failed} failed`;
    console.log(`  ${t.step.padEnd(34)} ${t.seconds.toFixed(1).padStart(7)} s${counts}`);
  }
  console.log("\nClosest to its timeout (a test past half of it fails on time alone on a busier machine):");
  for (const { step, closest } of timings)
    if (closest)
      console.log(
        `  ${step.padEnd(34)} ${closest.seconds.toFixed(1).padStart(6)} s of ${closest.timeoutSeconds} s (${Math.round((100 * closest.seconds) / closest.timeoutSeconds)}%)  ${closest.test}`,
      );
  writeFileSync(join(RESULTS, "steps.json"), `${JSON.stringify(timings, null, 2)}\n`);
  writeFileSync(join(RESULTS, "summary.txt"), `${line}\n`);
  console.log(line);
  process.exit(failed > 0 ? 1 : 0);
}

mkdirSync(RESULTS, { recursive: true });
for (const f of readdirSync(RESULTS)) if (/^vitest(-.*)?\.json$/.test(f)) rmSync(join(RESULTS, f), { force: true });
/**
 * Runs a command; with `holdAs`, its output is held and printed whole when it ends, under that
 * name, so that commands run side by side still read one after the other in the log.
 */
function spawnStep(cmd: string, args: string[], env: Record<string, string> = {}, holdAs?: string): Promise<number> {
  return new Promise<number>((done) => {
    const start = performance.now();
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...baseEnv, ...env },
      stdio: holdAs ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    const output: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("close", (code) => {
      const seconds = since(start);
      if (holdAs)
        process.stdout.write(
          `\n── ${holdAs} (${seconds} s, exit ${code ?? 1}) ──\n${Buffer.concat(output).toString()}`,
        );
      done(code ?? 1);
    });
  });
}

/**
 * Runs npm scripts side by side: typecheck and lint are single-threaded and the build mostly so,
 * so on two cores the three take about as long as the longest instead of their sum.
 */
async function sideBySide(scripts: string[]): Promise<number[]> {
  return Promise.all(
    scripts.map(async (script) => {
      const start = performance.now();
      const status = await spawnStep("npm", ["run", script], {}, script);
      timings.push({ step: script, seconds: since(start) });
      return status;
    }),
  );
}

let extraFailed = 0;
if (!args.includes("--no-build")) {
  const checks = loops.has("inner") ? ["typecheck", "lint"] : [];
  const start = performance.now();
  const statuses = await sideBySide([...checks, "build"]);
  timings.push({ step: "(checks and build, wall)", seconds: since(start) });
  extraFailed += statuses.slice(0, -1).filter((s) => s !== 0).length;
  if (statuses.at(-1) !== 0) finish([], extraFailed + 1);
}

/** One vitest step: its reports, its time, its counts and the test closest to its timeout. */
async function vitestStep(step: VitestStep, held: boolean): Promise<void> {
  const report = join(RESULTS, `vitest-${step.projects[0]}.json`);
  const margins = join(RESULTS, `margins-${step.projects[0]}.json`);
  rmSync(margins, { force: true });
  const start = performance.now();
  const status = await spawnStep(
    process.execPath,
    [
      "node_modules/vitest/vitest.mjs",
      "run",
      ...step.projects.map((p) => `--project=${p}`),
      "--reporter=default",
      "--reporter=json",
      "--reporter=./scripts/lib/timeout-margins.ts",
      `--outputFile.json=${report}`,
      ...(narrowed ? ["--passWithNoTests"] : []),
      ...vitestArgs,
    ],
    { TIMEOUT_MARGINS_FILE: margins },
    held ? step.name : undefined,
  );
  const counts = summarize(report);
  timings.push({
    step: step.name,
    seconds: since(start),
    passed: counts.passed,
    failed: counts.failed,
    closest: closestOf(margins),
  });
  // vitest failing with every test passed (an unhandled error, a crashed worker) is a failure too.
  if (status !== 0 && counts.failed === 0) extraFailed += 1;
}

/**
 * The steps in order, the HTTP step beside the journeys when both run: the HTTP tests mostly wait
 * on workers starting and answering (about one core of two), the journeys keep both busy, so side
 * by side the HTTP step costs the run a fraction of its own time.
 */
const chosenSteps = VITEST_STEPS.filter((s) => loops.has(s.loop));
const groups: VitestStep[][] = [];
for (const step of chosenSteps) {
  const previous = groups.at(-1);
  if (step.beside && previous?.some((s) => s.name === step.beside)) previous.push(step);
  else groups.push([step]);
}
for (const group of groups) {
  const start = performance.now();
  await Promise.all(group.map((step) => vitestStep(step, group.length > 1)));
  if (group.length > 1)
    timings.push({
      step: `(${group.map((s) => s.name.split(" ")[0]).join(" and ")}, wall)`,
      seconds: since(start),
    });
}
const reports = chosenSteps.map((step) => join(RESULTS, `vitest-${step.projects[0]}.json`));
finish(reports, extraFailed);
