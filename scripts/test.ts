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

function run(cmd: string, args: string[], env: Record<string, string> = {}): number {
  const res = spawnSync(cmd, args, { cwd: root, env: { ...baseEnv, ...env }, stdio: "inherit" });
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

/** A vitest step: its projects (vitest.config.ts) and the loop it belongs to. */
interface VitestStep {
  name: string;
  loop: "inner" | "e2e" | "rigs";
  projects: string[];
}
const VITEST_STEPS: VitestStep[] = [
  { name: "unit (Node)", loop: "inner", projects: ["node"] },
  { name: "integration (Workers runtime)", loop: "inner", projects: ["workers"] },
  { name: "HTTP (built worker)", loop: "inner", projects: ["http"] },
  { name: "journeys (Chromium)", loop: "e2e", projects: ["e2e"] },
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
function timed<T>(step: string, work: () => T): T {
  const start = performance.now();
  const result = work();
  timings.push({ step, seconds: Math.round((performance.now() - start) / 100) / 10 });
  return result;
}

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
 * Runs npm scripts side by side: typecheck and lint are single-threaded and the build mostly so,
 * so on two cores the three take about as long as the longest instead of their sum. Each one's
 * output is held and printed whole when it ends, so the log reads step by step.
 */
async function sideBySide(scripts: string[]): Promise<number[]> {
  return Promise.all(
    scripts.map(
      (script) =>
        new Promise<number>((done) => {
          const start = performance.now();
          const child = spawn("npm", ["run", script], { cwd: root, env: baseEnv, stdio: ["ignore", "pipe", "pipe"] });
          const output: Buffer[] = [];
          child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
          child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
          child.on("close", (code) => {
            const seconds = Math.round((performance.now() - start) / 100) / 10;
            process.stdout.write(
              `\n── ${script} (${seconds} s, exit ${code ?? 1}) ──\n${Buffer.concat(output).toString()}`,
            );
            timings.push({ step: script, seconds });
            done(code ?? 1);
          });
        }),
    ),
  );
}

let extraFailed = 0;
if (!args.includes("--no-build")) {
  const checks = loops.has("inner") ? ["typecheck", "lint"] : [];
  const start = performance.now();
  const statuses = await sideBySide([...checks, "build"]);
  timings.push({ step: "(checks and build, wall)", seconds: Math.round((performance.now() - start) / 100) / 10 });
  extraFailed += statuses.slice(0, -1).filter((s) => s !== 0).length;
  if (statuses.at(-1) !== 0) finish([], extraFailed + 1);
}

const reports: string[] = [];
for (const step of VITEST_STEPS.filter((s) => loops.has(s.loop))) {
  const report = join(RESULTS, `vitest-${step.projects[0]}.json`);
  const margins = join(RESULTS, `margins-${step.projects[0]}.json`);
  reports.push(report);
  rmSync(margins, { force: true });
  const status = timed(step.name, () =>
    run(
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
    ),
  );
  const counts = summarize(report);
  Object.assign(timings.at(-1)!, { passed: counts.passed, failed: counts.failed, closest: closestOf(margins) });
  // vitest failing with every test passed (an unhandled error, a crashed worker) is a failure too.
  if (status !== 0 && counts.failed === 0) extraFailed += 1;
}
finish(reports, extraFailed);
