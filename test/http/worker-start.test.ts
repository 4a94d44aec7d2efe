import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startWorker } from "../../scripts/lib/worker.ts";
import { copySeededDatabase, TEST_VARS } from "../support/http.ts";

// The tests' and the measuring scripts' workers start on a port found free a moment before
// wrangler binds it; a process starting beside them can take it in between (a CI run once
// lost a whole file to "Address already in use"). A start on "any" port tries again.
let held: Server;
let heldPort = 0;
const persistDir = mkdtempSync(join(tmpdir(), "souq-worker-start-"));

beforeAll(async () => {
  copySeededDatabase(persistDir);
  // Something else on the port, answering HTTP as wrangler would not.
  held = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => held.listen(0, "127.0.0.1", resolve));
  heldPort = (held.address() as { port: number }).port;
});

afterAll(() => {
  held.close();
  rmSync(persistDir, { recursive: true, force: true });
});

describe("starting a worker", () => {
  it("on a taken port fails at once, saying so", async () => {
    const started = Date.now();
    await expect(startWorker({ port: heldPort, persistDir, vars: TEST_VARS, logLevel: "warn" })).rejects.toThrow(
      /Address already in use/,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it("on any port takes another when the one it picked was taken before wrangler bound it", async () => {
    const picked: number[] = [];
    const pick = async () => {
      const port = picked.length === 0 ? heldPort : await freePort();
      picked.push(port);
      return port;
    };
    // The suite's variables: wrangler.toml alone is production, which serves nothing without PUBLIC_ORIGIN.
    const worker = await startWorker({ port: "any", persistDir, vars: TEST_VARS, logLevel: "warn" }, pick);
    try {
      expect(picked).toHaveLength(2);
      expect(worker.url).toBe(`http://127.0.0.1:${picked[1]}`);
      expect((await fetch(`${worker.url}/builds/latest.json`)).status).toBe(200);
    } finally {
      worker.stop();
    }
  });
});
