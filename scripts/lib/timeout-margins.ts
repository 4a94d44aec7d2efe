// A vitest reporter: how close each passed test came to its own timeout. A test that needs more
// than half of it on a loaded machine fails on time alone the next time the machine is busier, so
// `npm test` prints each step's closest tests (scripts/test.ts) and the run keeps them all in
// `TIMEOUT_MARGINS_FILE` (test-results/margins-<project>.json).
import { writeFileSync } from "node:fs";
import type { Reporter, TestCase } from "vitest/node";

export interface Margin {
  test: string;
  file: string;
  ms: number;
  timeoutMs: number;
  /** The share of its timeout the test used, 0 to 1. */
  used: number;
}

export default class TimeoutMargins implements Reporter {
  private readonly margins: Margin[] = [];

  onTestCaseResult(test: TestCase): void {
    const diagnostic = test.diagnostic();
    const timeoutMs = test.options.timeout;
    if (!diagnostic || !timeoutMs || test.result().state !== "passed") return;
    this.margins.push({
      test: test.fullName,
      file: test.module.relativeModuleId,
      ms: Math.round(diagnostic.duration),
      timeoutMs,
      used: Math.round((diagnostic.duration / timeoutMs) * 1000) / 1000,
    });
  }

  onTestRunEnd(): void {
    const out = process.env.TIMEOUT_MARGINS_FILE;
    if (!out) return;
    this.margins.sort((a, b) => b.used - a.used);
    writeFileSync(out, `${JSON.stringify(this.margins, null, 1)}\n`);
  }
}
