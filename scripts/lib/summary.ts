// Reads vitest's JSON reports (one per step of `npm test`) and prints the plain `N passed, N failed`
// line CI reads, summed over them.
import { existsSync, readFileSync } from "node:fs";

export const REPORT = "test-results/vitest.json";

export function summarize(
  reportPaths: string | string[] = REPORT,
  extraFailed = 0,
): { passed: number; failed: number; line: string } {
  let passed = 0;
  let failed = extraFailed;
  for (const reportPath of typeof reportPaths === "string" ? [reportPaths] : reportPaths) {
    const counts = countReport(reportPath);
    passed += counts.passed;
    failed += counts.failed;
  }
  return { passed, failed, line: `${passed} passed, ${failed} failed` };
}

/** One report's counts; a missing report (the step could not run vitest) is one failure. */
function countReport(reportPath: string): { passed: number; failed: number } {
  let passed = 0;
  let failed = 0;
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
  return { passed, failed };
}

if (import.meta.main) {
  const paths = process.argv.slice(2);
  console.log(summarize(paths.length > 0 ? paths : REPORT).line);
}
