import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { localeParts } from "./scripts/lib/locale-parts.ts";

/**
 * Three projects:
 * - `workers`: unit and integration tests inside the Workers runtime (workerd via miniflare),
 *   with the real local KV and D1 and the D1 migrations applied.
 * - `node`: checks of the source tree (import boundaries), in Node.
 * - `built`: HTTP tests and Chromium journeys against the real built worker under `wrangler dev`,
 *   started by the global setup on free ports, each with a fresh, seeded database.
 */
/**
 * Files run two at a time, first the `workers` and `node` projects', then the `built` project's.
 * - A `workers` file has its own runtime and storage (a Miniflare per file), and most of its time
 *   is starting that runtime, so the second core halves it.
 * - The `built` files run against the built worker, one per vitest worker, each with a database of
 *   its own (test/support/global-setup.ts, `builtWorker`): two files side by side never share one.
 *   A Chromium journey keeps about 1.2 cores busy, so two side by side are not twice as fast:
 *   measured here, storefront.e2e.ts and accounts.e2e.ts took 183 s side by side (a worker each)
 *   and 254 s one after the other.
 */
const SIDE_BY_SIDE = { maxWorkers: 2, sequence: { groupOrder: 0 } };
const BUILT = { maxWorkers: 2, sequence: { groupOrder: 1 } };

export default defineConfig(async () => {
  const migrations = await readD1Migrations("worker/backend/migrations");
  return {
    test: {
      projects: [
        {
          plugins: [
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
                },
                // A second local database playing a lagging read replica of DB
                // (test/support/replica-lag.ts), for the read-replication tests.
                d1Databases: { REPLICA_DB: "replica-db-test" },
              },
            }),
          ],
          test: {
            name: "workers",
            include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"],
            ...SIDE_BY_SIDE,
            setupFiles: ["./test/support/apply-migrations.ts"],
          },
        },
        {
          // Checks of the source tree itself (test/node: import boundaries), and unit tests of browser
          // modules that mock a dynamic import (test/unit-node: vi.mock fails inside the Workers
          // runtime), in Node.
          test: {
            name: "node",
            environment: "node",
            ...SIDE_BY_SIDE,
            include: ["test/node/**/*.test.ts", "test/unit-node/**/*.test.ts"],
          },
        },
        {
          test: {
            name: "built",
            environment: "node",
            ...BUILT,
            include: ["test/http/**/*.test.ts", "test/e2e/**/*.e2e.ts"],
            globalSetup: ["./test/support/global-setup.ts"],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            // expect.poll waits 1 s by default: a console save on a loaded 2-core machine (CI beside
            // other work) took longer, and the journeys failed on time alone. A poll still fails, later.
            expect: { poll: { timeout: 10_000 } },
          },
        },
      ],
    },
  };
});
