// `npm test`: make sure Chromium is there, type check, lint (ESLint and Prettier), build, then every test (Workers runtime,
// HTTP against the built worker, Chromium journeys), ending with a plain `N passed, N failed`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { baseEnv, root } from "./lib/worker.ts";
import { REPORT, summarize } from "./lib/summary.ts";

export const CHROMIUM = "/usr/bin/chromium";
/** Chromium's headless shell, which the browser tests run when it is there (test/support/browser.ts). */
export const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

function run(cmd: string, args: string[]): number {
  const res = spawnSync(cmd, args, { cwd: root, env: baseEnv, stdio: "inherit" });
  return res.status ?? 1;
}

if (!existsSync(CHROMIUM) || !existsSync(HEADLESS_SHELL)) {
  if (process.getuid?.() === 0) {
    console.log("Chromium or its headless shell is missing: installing Debian's chromium packages…");
    run("apt-get", ["update"]);
    if (
      run("apt-get", [
        "install",
        "-y",
        "--no-install-recommends",
        "chromium",
        "chromium-headless-shell",
        "fonts-noto-core",
        "fonts-dejavu-core",
      ]) !== 0
    ) {
      console.error("Installing chromium failed.");
      process.exit(1);
    }
  } else if (!existsSync(CHROMIUM)) {
    console.error(
      `Chromium is needed for the browser tests. Install it with:\n  sudo apt-get install -y chromium chromium-headless-shell fonts-noto-core\n(then run npm test again)`,
    );
    process.exit(1);
  } else {
    console.log(
      `The browser tests run on the full Chromium, about twice as slowly; for the headless shell:\n  sudo apt-get install -y chromium-headless-shell`,
    );
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
