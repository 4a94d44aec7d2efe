// Writing measured figures into docs/PERFORMANCE.md (or docs/bundles.md) between markers, so re-runs
// replace them.
import { cpus, loadavg, setPriority, totalmem } from "node:os";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./worker.ts";

export const PERFORMANCE_DOC = join(root, "docs", "PERFORMANCE.md");
/** The per-route bundle table, long and generated: a file of its own, so PERFORMANCE.md stays short. */
export const BUNDLES_DOC = join(root, "docs", "bundles.md");

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` (appends the section if missing). */
export function replaceSection(name: string, body: string, file = PERFORMANCE_DOC): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const text = existsSync(file) ? readFileSync(file, "utf8") : "# Performance\n";
  const block = `${start}\n${body.trim()}\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  const next =
    from >= 0 && to > from
      ? text.slice(0, from) + block + text.slice(to + end.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}

/** One line naming the machine the figures come from. */
export function machine(): string {
  const cpu = cpus();
  const gib = (totalmem() / 1024 ** 3).toFixed(1);
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  return `${cpu[0]?.model.trim() ?? "unknown CPU"}, ${cpu.length} cores, ${gib} GiB memory, Node ${process.version}, ${process.platform}/${process.arch}; load average at start ${load}; ${new Date().toISOString().replace(/\.\d+Z$/, "Z")}`;
}

/**
 * The measurements run on a shared machine: what we start (the worker, the load generator,
 * Chromium) gets a higher CPU priority (nice -10) while measuring, when allowed (root), so other
 * jobs on the box skew the figures less. Returns the niceness applied, or 0.
 */
export const MEASURE_NICE = -10;
export function raisePriority(pid: number = process.pid): number {
  try {
    setPriority(pid, MEASURE_NICE);
    return MEASURE_NICE;
  } catch {
    return 0;
  }
}
