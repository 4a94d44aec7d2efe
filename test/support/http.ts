// The JSON client of the HTTP tests against a running worker (Node): the storefront's headers
// (same origin, JSON), answers parsed, and a production-configured worker of their own. Runs in
// Node, like global-setup.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, prepareDatabase, startWorker, type RunningWorker } from "../../scripts/lib/worker.ts";

export interface JsonInit {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A client for one worker's base URL; `defaults` go on every request (e.g. a visitor's address). */
export function jsonApi(base: string, defaults: Record<string, string> = {}) {
  return async (path: string, init: JsonInit = {}) => {
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? "GET",
      headers: { accept: "application/json", "content-type": "application/json", origin: base, ...defaults, ...(init.headers ?? {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: "manual",
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (an HTML page): the test reads the text.
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field in each test
    return { status: res.status, body: body as any };
  };
}

/**
 * A second worker configured as README's deployment steps leave a shop with no payment provider:
 * ENVIRONMENT=production and the secrets set, on a fresh seeded database of its own.
 */
export async function startProductionWorker(): Promise<{ worker: RunningWorker; stop: () => void }> {
  const persistDir = mkdtempSync(join(tmpdir(), "souq-production-"));
  await prepareDatabase(persistDir);
  const worker = await startWorker({
    port: await freePort(),
    persistDir,
    vars: { ENVIRONMENT: "production", AUTH_PEPPER: "production-pepper-for-the-test", PAYMENT_SECRET: "production-webhook-secret-for-the-test" },
  });
  return {
    worker,
    stop: () => {
      worker.stop();
      rmSync(persistDir, { recursive: true, force: true });
    },
  };
}
