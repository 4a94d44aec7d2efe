import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerEnv } from "../../worker/env";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
      /** A second local database playing a lagging read replica (test/support/replica-lag.ts). */
      REPLICA_DB: D1Database;
    }
  }
}
