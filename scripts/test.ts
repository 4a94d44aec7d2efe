// `npm test`: make sure Chromium is there, type check, lint (ESLint and Prettier), build, then every test (Workers runtime,
// HTTP against the built worker, Chromium journeys), ending with a plain `N passed, N failed`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { baseEnv, root } from "./lib/worker.ts";
import { REPORT, summarize } from "./lib/summary.ts";

export const CHROMIUM = "/usr/bin/chromium";

function run(cmd: string, args: string[]): number {
  const res = spawnSync(cmd, args, { cwd: root, env: baseEnv, stdio: "inherit" });
  return res.status ?? 1;
}

if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() === 0) {
    console.log("Chromium is missing: installing Debian's chromium package…");
    run("apt-get", ["update"]);
    if (
      run("apt-get", [
        "install",
        "-y",
        "--no-install-recommends",
        "chromium",
        "fonts-noto-core",
        "fonts-dejavu-core",
      ]) !== 0
    ) {
      console.error("Installing chromium failed.");
      process.exit(1);
    }
  } else {
    console.error(
      `Chromium is needed for the browser tests. Install it with:\n  sudo apt-get install -y chromium fonts-noto-core\n(then run npm test again)`,
    );
    process.exit(1);
  }
}

/** Prints the summary line and keeps it for .ci/run, which prints it last. */
function finish(line: string, code: number): never {
  writeFileSync("test-results/summary.txt", `${line}\n`);
  console.log(line);
  process.exit(code);
}

rmSync(REPORT, { force: true });
mkdirSync("test-results", { recursive: true });
const args = process.argv.slice(2);
let extraFailed = 0;
if (!args.includes("--no-build")) {
  if (run("npm", ["run", "typecheck"]) !== 0) extraFailed += 1;
  if (run("npm", ["run", "lint"]) !== 0) extraFailed += 1;
  if (run("npm", ["run", "build"]) !== 0) {
    finish(summarize(REPORT, extraFailed + 1).line, 1);
  }
}
const vitestArgs = args.filter((a) => a !== "--no-build");
const status = run(process.execPath, [
  "node_modules/vitest/vitest.mjs",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${REPORT}`,
  ...vitestArgs,
]);
const { failed, line } = summarize(REPORT, extraFailed);
finish(line, status !== 0 || failed > 0 ? 1 : 0);
