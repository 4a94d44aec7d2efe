import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { prepareSeededDatabase, startExtraWorker, TEST_VARS } from "./http.ts";

/**
 * Starts the built worker for the HTTP and browser tests, on a free port with a fresh database:
 * one per vitest worker of the project (its `maxWorkers`), so files that run side by side never
 * share a database (`builtWorker` in http.ts picks a file's own).
 */
export default async function setup(project: TestProject) {
  const seededDatabase = prepareSeededDatabase();
  const count = Math.max(1, project.config.maxWorkers ?? 1);
  // One after the other: two `wrangler dev` starting at once can pick the same internal port.
  const started: PromiseSettledResult<Awaited<ReturnType<typeof startExtraWorker>>>[] = [];
  for (let i = 0; i < count; i++) {
    const [result] = await Promise.allSettled([
      startExtraWorker(TEST_VARS, { database: "seeded", template: seededDatabase }),
    ]);
    started.push(result);
    if (result.status === "rejected") break;
  }
  const stopAll = () => {
    for (const s of started) if (s.status === "fulfilled") s.value.stop();
    rmSync(seededDatabase, { recursive: true, force: true });
  };
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    stopAll();
    throw failed.reason;
  }
  const workers = started.map((s) => (s as PromiseFulfilledResult<Awaited<ReturnType<typeof startExtraWorker>>>).value);
  project.provide(
    "builtWorkers",
    workers.map(({ worker, persistDir }) => ({ url: worker.url, persistDir })),
  );
  project.provide("seededDatabase", seededDatabase);
  return stopAll;
}
