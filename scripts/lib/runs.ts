// What the load scripts (load.ts, sale-day.ts) share: their numeric options, the build they run
// against, and how several runs' figures are told (the median with the range of all).
import { spawnSync } from "node:child_process";
import { baseEnv, root } from "./worker.ts";

/** `--name N` from the command line, or the fallback. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/** Builds the worker first unless `--no-build` says it is built; exits with the build's failure. */
export function buildUnlessSkipped(): void {
  if (process.argv.includes("--no-build")) return;
  const build = spawnSync("npm", ["run", "build"], { cwd: root, env: baseEnv, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** The p-th percentile of ascending values: the smallest at least p % of them do not exceed (0 for none). */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A figure over several runs as "median (min–max)"; one run's alone. */
export function spread<Run>(runs: Run[], key: keyof Run): string {
  const values = runs.map((r) => Number(r[key])).sort((a, b) => a - b);
  const median = values[Math.floor((values.length - 1) / 2)];
  return runs.length > 1 ? `${median} (${values[0]}–${values[values.length - 1]})` : String(median);
}
