import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyse, SourceLocator, type CpuProfile } from "../../scripts/lib/cpu-profile.ts";
import { workerCpuMs } from "../../scripts/lib/inspector.ts";

// The Worker CPU figure of `npm run bench` and `npm run profile` is read from a V8 CPU
// profile of the Worker's isolate. This pins how a profile becomes that figure: which samples count
// (JavaScript and the natives it calls, GC, "(program)"; not "(idle)"), what a gap longer than
// twice the median interval is charged (the isolate was not running: a quarter of the cap, half an
// interval), and how a sample is attributed (a builtin by name, else its frame's source file
// through the build's source map).

// A built file whose one mapping points at app/routes/home.tsx, line 1 (as Vite's maps do).
const root = mkdtempSync(join(tmpdir(), "cpu-profile-"));
const server = join(root, "build", "server");
mkdirSync(server, { recursive: true });
writeFileSync(join(server, "index.js"), "export function loader() {}\n");
writeFileSync(
  join(server, "index.js.map"),
  JSON.stringify({ version: 3, sources: ["../../app/routes/home.tsx"], names: [], mappings: "AAAA" }),
);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const frame = (functionName: string, url = "") => ({
  functionName,
  scriptId: "0",
  url,
  lineNumber: 0,
  columnNumber: 0,
});

/** root → (program), (garbage collector), (idle), JSON.stringify, Intl's format, and a loader in a built file. */
const nodes = [
  { id: 1, callFrame: frame("(root)"), children: [2, 3, 4, 5, 6, 7] },
  { id: 2, callFrame: frame("(program)") },
  { id: 3, callFrame: frame("(garbage collector)") },
  { id: 4, callFrame: frame("(idle)") },
  { id: 5, callFrame: frame("stringify") },
  { id: 6, callFrame: frame("format") },
  { id: 7, callFrame: frame("loader", `file://${join(server, "index.js")}`) },
];

function profileOf(samples: number[], timeDeltas: number[]): CpuProfile {
  return { nodes, startTime: 0, endTime: timeDeltas.reduce((a, b) => a + b, 0), samples, timeDeltas };
}

describe("reading the Worker's CPU from its isolate's profile", () => {
  const locator = new SourceLocator(server, root);

  it("counts JavaScript, GC and (program), charges each sample the time to the next, and not idle time", () => {
    // Sample i is charged timeDeltas[i + 1]: 100 µs each, so a median interval of 100 and a cap of 200.
    const b = analyse(profileOf([5, 5, 3, 2, 4, 7, 5], [0, 100, 100, 100, 100, 100, 100]), locator);
    expect(b.capUs).toBe(200);
    expect(b.jsUs).toBe(300);
    expect(b.gcUs).toBe(100);
    expect(b.programUs).toBe(100);
    expect(b.idleUs).toBe(100);
    // Two requests' worth: (300 + 100 + 100) µs over 2 requests.
    expect(workerCpuMs(b, 2)).toBeCloseTo(0.25, 6);
  });

  it("charges a sample before a long gap half an interval, not the gap", () => {
    // The Intl sample is followed by 5 ms in which the isolate was not sampled (waiting for D1).
    const b = analyse(profileOf([5, 6, 5, 5], [0, 100, 5000, 100]), locator);
    expect(b.capUs).toBe(200);
    expect(b.jsUs).toBe(100 + 50 + 100);
    expect(b.byCategory.get("i18n / Intl")).toBe(50);
    expect(b.byCategory.get("serialisation (JSON, turbo-stream)")).toBe(200);
  });

  it("attributes a frame of the built worker to its source file through the source map", () => {
    const b = analyse(profileOf([7, 7, 5], [0, 100, 100]), locator);
    expect(b.byCategory.get("route loaders & middleware")).toBe(200);
    expect(b.byFunction.get("loader app/routes/home.tsx:1")).toBe(200);
  });
});
