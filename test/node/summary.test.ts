import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { summarize } from "../../scripts/lib/summary.ts";

// The line `.ci/run` ends with is read as the run's result: a file that failed must count as a
// failure even when none of its tests did (CI once printed "0 failed" for a file whose
// beforeAll could not start its worker, its two tests reported skipped, and exited 1).
const dir = mkdtempSync(join(tmpdir(), "summary-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function report(testResults: { status: string; assertionResults: { status: string }[] }[]): string {
  const path = join(dir, `${testResults.length}-${Math.random()}.json`);
  const tests = testResults.flatMap((file) => file.assertionResults);
  writeFileSync(
    path,
    JSON.stringify({
      numPassedTests: tests.filter((t) => t.status === "passed").length,
      numFailedTests: tests.filter((t) => t.status === "failed").length,
      testResults,
    }),
  );
  return path;
}

describe("the summary line", () => {
  const passing = { status: "passed", assertionResults: [{ status: "passed" }, { status: "passed" }] };

  it("counts the tests that passed and failed", () => {
    const failing = { status: "failed", assertionResults: [{ status: "passed" }, { status: "failed" }] };
    expect(summarize(report([passing, failing])).line).toBe("3 passed, 1 failed");
  });

  it("counts a file whose hook failed, its tests skipped, as a failure", () => {
    const hookFailed = { status: "failed", assertionResults: [{ status: "skipped" }, { status: "skipped" }] };
    expect(summarize(report([passing, hookFailed])).line).toBe("2 passed, 1 failed");
  });

  it("counts a file that failed to load, with no tests, as a failure", () => {
    expect(summarize(report([passing, { status: "failed", assertionResults: [] }])).line).toBe("2 passed, 1 failed");
  });

  it("sums the reports of every step, and counts a step whose report is missing as a failure", () => {
    const failing = { status: "failed", assertionResults: [{ status: "failed" }] };
    expect(summarize([report([passing]), report([passing, failing]), join(dir, "none.json")]).line).toBe(
      "4 passed, 2 failed",
    );
  });

  it("counts a missing report as a failure", () => {
    expect(summarize(join(dir, "none.json")).line).toBe("0 passed, 1 failed");
  });
});
