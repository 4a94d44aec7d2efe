// Reading a V8 CPU profile (Chrome DevTools protocol, Profiler.stop) of the Worker's isolate: how
// much of it was the Worker's JavaScript, and where that time went, by the built files' source maps.
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { basename, join, relative, resolve } from "node:path";

export interface CallFrame {
  functionName: string;
  scriptId: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where the time of the Worker's own JavaScript went (see CATEGORIES). */
export type Category =
  | "React render"
  | "route loaders & middleware"
  | "React Router"
  | "backend (hono, valibot, services)"
  | "D1 calls (JS side)"
  | "serialisation (JSON, turbo-stream)"
  | "i18n / Intl"
  | "edge (worker/, hono front, page cache)"
  | "other";

export const CATEGORIES: Category[] = [
  "React render",
  "route loaders & middleware",
  "React Router",
  "backend (hono, valibot, services)",
  "D1 calls (JS side)",
  "serialisation (JSON, turbo-stream)",
  "i18n / Intl",
  "edge (worker/, hono front, page cache)",
  "other",
];

/** What one profile (or a sum of several) says, in microseconds. */
export interface Breakdown {
  /** Samples in JavaScript (and the natives it called), GC excluded. */
  jsUs: number;
  gcUs: number;
  /** "(program)": the isolate's thread outside JavaScript (workerd's own work, or between requests). */
  programUs: number;
  idleUs: number;
  byCategory: Map<Category, number>;
  /** Self time by function (name, source file:line). */
  byFunction: Map<string, number>;
  /** The longest gap charged as it is (µs): twice the profile's median interval. */
  capUs: number;
}

export function emptyBreakdown(): Breakdown {
  return { jsUs: 0, gcUs: 0, programUs: 0, idleUs: 0, byCategory: new Map(), byFunction: new Map(), capUs: 0 };
}

/** Maps a frame of the built worker back to its source file through the build's source maps. */
export class SourceLocator {
  private maps = new Map<string, SourceMap | null>();
  private cache = new Map<string, { file: string; line: number } | null>();
  private readonly serverDir: string;
  private readonly root: string;
  constructor(serverDir: string, root: string) {
    this.serverDir = serverDir;
    this.root = root;
  }

  private mapFor(url: string): SourceMap | null {
    const file = basename(url.replace(/^file:\/\//, ""));
    if (!file.endsWith(".js")) return null;
    if (!this.maps.has(file)) {
      const candidates = [join(this.serverDir, file), join(this.serverDir, "assets", file)];
      let map: SourceMap | null = null;
      for (const path of candidates) {
        try {
          map = new SourceMap(
            JSON.parse(readFileSync(`${path}.map`, "utf8")) as ConstructorParameters<typeof SourceMap>[0],
          );
          this.maps.set(file, map);
          // Sources are relative to the map's own folder.
          this.mapDirs.set(file, join(path, ".."));
          break;
        } catch {
          // not this one
        }
      }
      if (!map) this.maps.set(file, null);
    }
    return this.maps.get(file) ?? null;
  }
  private mapDirs = new Map<string, string>();

  /** The source file (relative to the repository) and line of a frame, or null for a native/internal one. */
  locate(frame: CallFrame): { file: string; line: number } | null {
    if (!frame.url) return null;
    const key = `${frame.url}:${frame.lineNumber}:${frame.columnNumber}`;
    if (this.cache.has(key)) return this.cache.get(key)!;
    let found: { file: string; line: number } | null = null;
    const map = this.mapFor(frame.url);
    if (map) {
      const entry = map.findEntry(frame.lineNumber, frame.columnNumber);
      if (entry && "originalSource" in entry && entry.originalSource) {
        const dir = this.mapDirs.get(basename(frame.url.replace(/^file:\/\//, "")))!;
        found = { file: relative(this.root, resolve(dir, entry.originalSource)), line: entry.originalLine + 1 };
      }
    } else {
      // Runtime-internal modules (workerd's D1 binding, node: polyfills): named by their URL.
      found = { file: frame.url, line: frame.lineNumber + 1 };
    }
    this.cache.set(key, found);
    return found;
  }
}

/** turbo-stream, which React Router vendors, encodes the loader data into the document. */
const TURBO_STREAM = /^(encode|flatten|stringify|encodeViaTurboStream|unflatten|decode|hydrate)$/;
const JSON_BUILTINS = /^(parse|stringify|JSONParse|JSONStringify|json)$/;
const INTL_BUILTINS =
  /^(format|formatToParts|NumberFormat|DateTimeFormat|PluralRules|select|resolvedOptions|toLocaleString|toLocaleDateString|toLocaleTimeString|Collator|compare|localeCompare|supportedLocalesOf)$/;

function categoryOfFile(file: string, stack: string[]): Category | undefined {
  if (/node_modules\/react-dom\/|node_modules\/react\//.test(file)) return "React render";
  if (/node_modules\/rosetta\/|app\/lib\/(i18n|money|plural|use-locale)/.test(file)) return "i18n / Intl";
  if (/cloudflare-internal:d1|d1-api|worker\/backend\/db\//.test(file)) return "D1 calls (JS side)";
  if (/node_modules\/valibot\/|worker\/backend\/|contract\//.test(file)) return "backend (hono, valibot, services)";
  if (/node_modules\/hono\//.test(file))
    return stack.some((f) => f.startsWith("worker/backend/"))
      ? "backend (hono, valibot, services)"
      : "edge (worker/, hono front, page cache)";
  if (/^app\/(components|root\.tsx)/.test(file)) return "React render";
  if (/^app\//.test(file))
    return stack.some((f) => f.includes("node_modules/react-dom/")) ? "React render" : "route loaders & middleware";
  if (/node_modules\/react-router\//.test(file)) return "React Router";
  if (/^worker\//.test(file)) return "edge (worker/, hono front, page cache)";
  return undefined;
}

/**
 * Adds one profile to `into`. Each sample is charged the time until the next sample (as DevTools
 * does) when that is at most twice the profile's median interval. A longer gap is time the isolate
 * was not sampled at all (workerd had left it to wait for I/O or the next request, or the machine
 * had descheduled its thread), which DevTools would charge to whatever ran last, often a frame that
 * had just suspended (React Router's StreamTransfer, a loader at an `await`): such a sample is
 * charged half a median interval, what it ran on average before the isolate stopped. A sample's category
 * is decided by its leaf: a JSON or Intl builtin by its name, otherwise the nearest frame (leaf
 * first) that maps to a known file decides (see categoryOfFile).
 */
export function analyse(profile: CpuProfile, locator: SourceLocator, into: Breakdown = emptyBreakdown()): Breakdown {
  const intervals = profile.timeDeltas.filter((d) => d > 0).sort((a, b) => a - b);
  const cap = 2 * (intervals[intervals.length >> 1] ?? 0);
  into.capUs = cap;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const stacks = new Map<number, ProfileNode[]>();
  const stackOf = (id: number): ProfileNode[] => {
    let stack = stacks.get(id);
    if (stack) return stack;
    stack = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
    stacks.set(id, stack);
    return stack;
  };
  const add = <K>(map: Map<K, number>, key: K, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  for (let i = 0; i < profile.samples.length; i++) {
    const next = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    // After a gap the isolate ran for part of an interval and then stopped being sampled: half of one.
    const us = next <= cap ? next : cap / 4;
    if (us <= 0) continue;
    const stack = stackOf(profile.samples[i]);
    const leaf = stack[0].callFrame;
    const name = leaf.functionName;
    if (name === "(garbage collector)") into.gcUs += us;
    else if (name === "(program)") into.programUs += us;
    else if (name === "(idle)") into.idleUs += us;
    else if (name === "(root)") into.programUs += us;
    else {
      into.jsUs += us;
      const files = stack.map((n) => locator.locate(n.callFrame)?.file ?? "");
      const leafAt = locator.locate(leaf);
      add(into.byFunction, `${name || "(anonymous)"} ${leafAt ? `${leafAt.file}:${leafAt.line}` : "(native)"}`, us);
      let category: Category | undefined;
      // Leading native frames (builtins and runtime APIs) named for what they do.
      for (let k = 0; k < stack.length && !files[k]; k++) {
        const fn = stack[k].callFrame.functionName;
        if (INTL_BUILTINS.test(fn)) category = "i18n / Intl";
        else if (JSON_BUILTINS.test(fn)) category = "serialisation (JSON, turbo-stream)";
        if (category) break;
      }
      for (let k = 0; !category && k < stack.length; k++) {
        if (!files[k]) continue;
        if (files[k].includes("node_modules/react-router/") && TURBO_STREAM.test(stack[k].callFrame.functionName))
          category = "serialisation (JSON, turbo-stream)";
        else category = categoryOfFile(files[k], files);
        if (category) break;
      }
      add(into.byCategory, category ?? "other", us);
    }
  }
  return into;
}
