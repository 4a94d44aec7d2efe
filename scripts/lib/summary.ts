// Reads vitest's JSON report and prints the plain `N passed, N failed` line CI reads.
import { existsSync, readFileSync } from "node:fs";

export const REPORT = "test-results/vitest.json";

export function summarize(reportPath = REPORT, extraFailed = 0): { passed: number; failed: number; line: string } {
  let passed = 0;
  let failed = extraFailed;
  if (existsSync(reportPath)) {
    const report = JSON.parse(readFileSync(reportPath, "utf8")) as {
      numPassedTests?: number;
      numFailedTests?: number;
      testResults?: { status: string; assertionResults: { status: string }[]; message?: string }[];
    };
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    // A file that failed without a failed test is a failure too: one that failed to load (a syntax
    // error) has no tests, and one whose beforeAll failed (a worker that would not start) reports
    // its tests as skipped.
    for (const file of report.testResults ?? [])
      if (file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed")) failed += 1;
  } else {
    failed += 1;
  }
  return { passed, failed, line: `${passed} passed, ${failed} failed` };
}

if (import.meta.main) {
  console.log(summarize(process.argv[2]).line);
}
