// The processes of a running `wrangler dev` (its node process and the workerd it starts), found
// through /proc, so the measuring scripts can read their CPU time and raise their priority.
import { readdirSync, readFileSync } from "node:fs";

function processTable(): { children: Map<number, number[]>; names: Map<number, string> } {
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      names.set(Number(entry), name);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  return { children, names };
}

/** rootPid and all its descendants (empty without a pid or off Linux). */
export function workerPids(rootPid: number | undefined): number[] {
  if (!rootPid || process.platform !== "linux") return [];
  const { children } = processTable();
  const all: number[] = [];
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.shift()!;
    all.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return all;
}

/**
 * The workerd process that runs the Worker under a `wrangler dev` pid. wrangler starts two: a
 * proxy that owns the public port, and the runtime that runs the Worker (with the local D1, KV,
 * Cache API and asset service) and the inspector; the second is the one whose CPU is the Worker's.
 */
export function findWorkerd(rootPid: number | undefined): number | undefined {
  if (!rootPid || process.platform !== "linux") return undefined;
  const { names } = processTable();
  const runtimes = workerPids(rootPid).filter((pid) => pid !== rootPid && names.get(pid) === "workerd");
  const cmdline = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      return "";
    }
  };
  return runtimes.find((pid) => cmdline(pid).includes("--inspector-addr")) ?? runtimes[0];
}

/** utime + stime of a process, in ms (Linux clock ticks are 10 ms). */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
