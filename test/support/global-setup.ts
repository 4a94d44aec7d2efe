import type { TestProject } from "vitest/node";
import { startExtraWorker, TEST_VARS } from "./http.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    /** The D1 and KV state of that worker (for `npm run staff -- add ... --persist-to`). */
    persistDir: string;
  }
}

/** Starts the built worker once for the HTTP and browser tests, on a free port with a fresh database. */
export default async function setup(project: TestProject) {
  const { worker, stop, persistDir } = await startExtraWorker(TEST_VARS, { database: "seeded" });
  project.provide("baseURL", worker.url);
  project.provide("persistDir", persistDir);
  return stop;
}
