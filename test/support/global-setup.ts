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
  const workers: Awaited<ReturnType<typeof startExtraWorker>>[] = [];
  const stopAll = () => {
    for (const w of workers) w.stop();
    rmSync(seededDatabase, { recursive: true, force: true });
  };
  try {
    // One after the other: two `wrangler dev` starting at once can pick the same internal port.
    for (let i = 0; i < Math.max(1, project.config.maxWorkers ?? 1); i++)
      workers.push(await startExtraWorker(TEST_VARS, { database: "seeded", template: seededDatabase }));
  } catch (error) {
    stopAll();
    throw error;
  }
  project.provide(
    "builtWorkers",
    workers.map(({ worker, persistDir }) => ({ url: worker.url, persistDir })),
  );
  project.provide("seededDatabase", seededDatabase);
  return stopAll;
}
