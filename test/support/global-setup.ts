import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { prepareSeededDatabase, startExtraWorker, TEST_VARS } from "./http.ts";

/** Starts the built worker once for the HTTP and browser tests, on a free port with a fresh database. */
export default async function setup(project: TestProject) {
  const seededDatabase = prepareSeededDatabase();
  try {
    const { worker, stop, persistDir } = await startExtraWorker(TEST_VARS, {
      database: "seeded",
      template: seededDatabase,
    });
    project.provide("baseURL", worker.url);
    project.provide("persistDir", persistDir);
    project.provide("seededDatabase", seededDatabase);
    return () => {
      stop();
      rmSync(seededDatabase, { recursive: true, force: true });
    };
  } catch (error) {
    rmSync(seededDatabase, { recursive: true, force: true });
    throw error;
  }
}
