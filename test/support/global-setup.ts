import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { freePort, prepareDatabase, startWorker } from "../../scripts/lib/worker.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

/** Starts the built worker once for the HTTP and browser tests, on a free port with a fresh database. */
export default async function setup(project: TestProject) {
  const persistDir = mkdtempSync(join(tmpdir(), "souq-test-"));
  await prepareDatabase(persistDir);
  const worker = await startWorker({
    port: await freePort(),
    persistDir,
    vars: { ENVIRONMENT: "test", AUTH_PEPPER: "test-pepper", PAYMENT_SECRET: "test-payment-secret" },
  });
  project.provide("baseURL", worker.url);
  return () => {
    worker.stop();
    rmSync(persistDir, { recursive: true, force: true });
  };
}
