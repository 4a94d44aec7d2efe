import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { localeParts } from "./scripts/lib/locale-parts.ts";

/**
 * The test pyramid (docs/TESTING.md). Each project is one layer; `npm test` runs them as steps
 * (scripts/test.ts), cheapest first:
 * - `node`: unit tests of modules that need no Workers binding (test/unit, test/unit-node), and
 *   checks of the source tree (test/node), in Node: no runtime to start per file.
 * - `workers`: integration tests inside the Workers runtime (workerd via miniflare), with the real
 *   local KV and D1. Files share a runtime per vitest worker (`isolate: false`): starting one was
 *   most of a small file's time. test/support/apply-migrations.ts migrates the database once per
 *   runtime and gives each file back the freshly migrated one.
 * - `http` and `e2e`: HTTP tests and Chromium journeys against the real built worker under
 *   `wrangler dev`, started by the global setup on free ports, each with a fresh, seeded database.
 * - `rigs-workers`, `rigs`: fuzzers, timing statistics and tests of the measuring harness
 *   (`npm run test:rigs`): they prove the shop holds under many inputs, not one rule of it, and
 *   cost a minute each.
 */
/** Rigs: stress and statistics in the Workers runtime, and tests of the bench's own tools. */
const RIGS_TIMING = [
  "test/integration/enumeration-timing.test.ts",
  "test/integration/enumeration-timing-phone.test.ts",
];
const RIGS_WORKERS = ["test/integration/fuzz.test.ts", "test/integration/console-fuzz.test.ts", ...RIGS_TIMING];
const RIGS_HARNESS = ["test/http/h2-proxy.test.ts", "test/node/cpu-profile.test.ts"];
/**
 * The server writes dates in the Workers runtime, whose ICU data is its own: these cases stay
 * there (test/unit-node/shop-time.test.ts checks the browser's side in Node).
 */
const RUNTIME_UNIT = ["test/unit/shop-time.test.ts"];

/**
 * How many files run at a time, on this 2-core machine.
 * - A `workers` file shares its vitest worker's runtime and storage with the files before it.
 * - The built-worker files run against the built worker, one per vitest worker, each with a
 *   database of its own (test/support/global-setup.ts, `builtWorker`): two files side by side
 *   never share one.
 * - Three, not two: with two, the cores stood idle a third of the integration step and a quarter
 *   of the journeys' (vmstat), while files waited on a timer, the database or the browser.
 *   Measured here with three against two: integration 139 s against 171 s, the HTTP step 37 s
 *   against 41 s, six journey files 155 s against 179 s. Four was slower for the journeys
 *   (168 s): a journey keeps about 1.2 cores busy.
 * - Two for the unit tests, which keep both cores busy (16.7 s with two, 16.9 s with three).
 * - Three for the rigs too: the timing statistics are mostly the pauses between
 *   their pairs, split over two files so the pauses overlap (rigs step 94 s → 57 s). Each pair's
 *   two calls still run back to back in one runtime; with one extra D1 statement put back on the
 *   known-account path, both files failed at three at a time (p 1.6e-10 and 2.4e-6).
 *   The figures in this comment are single runs, taken back to back.
 */
const THREE = 3;
const TWO = 2;

/**
 * The timing statistics start first: they are the rigs' longest files, mostly pauses. A fresh
 * clone has no durations kept for vitest to sort by, so it sorts by size, and one of them waited
 * behind both fuzzers: the rigs step took 79 s in CI, and 61–71 s with the timing files first.
 */
class TimingRigsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const timing = (file: TestSpecification) => RIGS_TIMING.some((path) => file.moduleId.endsWith(path));
    return [...sorted.filter(timing), ...sorted.filter((file) => !timing(file))];
  }
}

/**
 * The Workers projects' settings. A test here signs up or in several accounts, each at 100,000
 * PBKDF2 iterations (test/support/accounts.ts): on this 2-core machine beside other builds such
 * tests took more than vitest's default 5 s and failed on time alone. 20 s keeps a test that
 * hangs a failure while those stay under half of it; tests that count to a rate limit or sample
 * timings set their own (COUNTING_TIMEOUT, SLOW_CRYPTO_TIMEOUT).
 */
const WORKERS = {
  maxWorkers: THREE,
  isolate: false,
  setupFiles: ["./test/support/apply-migrations.ts"],
  testTimeout: 20_000,
  hookTimeout: 60_000,
};

/**
 * The built worker's projects: one global setup each, so run one of them per vitest run.
 * `testTimeout`: on a busy 2-core machine whole journeys took 40-58 s (a purchase, shipping and
 * refunding an order, a new build noticed) and the cron-and-queue HTTP test 60 s, against 60 s:
 * each project's limit is about twice its slowest test under load.
 */
const built = (name: string, include: string[], { exclude = [] as string[], testTimeout = 120_000 } = {}) => ({
  test: {
    name,
    environment: "node",
    maxWorkers: THREE,
    include,
    exclude,
    globalSetup: ["./test/support/global-setup.ts"],
    testTimeout,
    hookTimeout: 120_000,
    // expect.poll waits 1 s by default: a console save on a loaded 2-core machine (CI beside
    // other work) took longer, and the journeys failed on time alone. A poll still fails, later.
    expect: { poll: { timeout: 10_000 } },
  },
});

export default defineConfig(async () => {
  const migrations = await readD1Migrations("worker/backend/migrations");
  const workersPlugins = () => [
    localeParts(import.meta.dirname),
    cloudflareTest({
      main: "./test/support/worker.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: migrations,
          ENVIRONMENT: "test",
          AUTH_PEPPER: "test-pepper",
          PAYMENT_SECRET: "test-payment-secret",
          // WhatsApp against its offline stand-in (services/messages/whatsapp-stand-in.ts).
          WHATSAPP: "cloud",
        },
        // A second local database playing a lagging read replica of DB
        // (test/support/replica-lag.ts), for the read-replication tests.
        d1Databases: { REPLICA_DB: "replica-db-test" },
      },
    }),
  ];
  return {
    test: {
      sequence: { sequencer: TimingRigsFirst },
      projects: [
        {
          // Unit tests of modules that need no binding (browser modules that fake a `window` by
          // hand, the backend's pure services, the contract), and checks of the source tree.
          test: {
            name: "node",
            environment: "node",
            maxWorkers: TWO,
            include: ["test/node/**/*.test.ts", "test/unit-node/**/*.test.ts", "test/unit/**/*.test.ts"],
            exclude: [...RIGS_HARNESS, ...RUNTIME_UNIT],
            // The checks of the source tree read every file of it: 2.3 s of vitest's default 5 s
            // while the machine also built the shop (the loaded run in docs/TESTING.md).
            testTimeout: 15_000,
          },
        },
        {
          plugins: workersPlugins(),
          test: {
            name: "workers",
            include: ["test/integration/**/*.test.ts", ...RUNTIME_UNIT],
            exclude: RIGS_WORKERS,
            ...WORKERS,
          },
        },
        built("http", ["test/http/**/*.test.ts"], { exclude: RIGS_HARNESS }),
        built("e2e", ["test/e2e/**/*.e2e.ts"], { testTimeout: 150_000 }),
        {
          plugins: workersPlugins(),
          test: {
            name: "rigs-workers",
            include: RIGS_WORKERS,
            ...WORKERS,
          },
        },
        built("rigs", RIGS_HARNESS),
      ],
    },
  };
});
