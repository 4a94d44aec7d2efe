// The HTTP/2 front `npm run lighthouse` audits through (scripts/lib/h2-proxy.ts): it keeps the
// answers for the build's hashed assets as Cloudflare's edge does, byte for byte what wrangler
// sent, and sends everything else on.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, get as httpGet, type Server } from "node:http";
import { connect } from "node:http2";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startH2ProxyThread, type H2Proxy } from "../../scripts/lib/h2-proxy.ts";
import { buildDir, root } from "../../scripts/lib/worker.ts";
import { builtWorker } from "../support/http.ts";

const base = builtWorker().url;
const BROWSER = "gzip, deflate, br, zstd";

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** One HTTP/2 request, as Chromium makes it (the front's certificate is self-signed). */
function get(origin: string, path: string, encodings = BROWSER): Promise<Answer> {
  return new Promise((done, fail) => {
    const session = connect(origin, { rejectUnauthorized: false });
    session.on("error", fail);
    const stream = session.request({ ":path": path, "accept-encoding": encodings });
    const chunks: Buffer[] = [];
    let head: Answer["headers"] = {};
    stream.on("response", (h) => (head = h));
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      session.close();
      done({ status: Number(head[":status"]), headers: head, body: Buffer.concat(chunks) });
    });
    stream.on("error", fail);
    stream.end();
  });
}

describe("the HTTP/2 front keeps hashed assets like an edge cache", () => {
  // A stand-in for wrangler that counts what reaches it.
  const asked: string[] = [];
  const script = Buffer.from("export const answer = 42;\n".repeat(50));
  let upstream: Server;
  let dir: string;
  let kept: H2Proxy;
  let passing: H2Proxy;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      asked.push(req.url ?? "");
      if (req.url === "/assets/app-abc123.js") {
        res.writeHead(200, {
          "content-type": "text/javascript",
          "content-encoding": "br",
          "cache-control": "public, max-age=31536000, immutable",
          etag: '"abc"',
        });
        res.end(brotliCompressSync(script));
      } else {
        res.writeHead(200, { "content-type": "text/html", "cache-control": "no-cache" });
        res.end(`page ${asked.length}`);
      }
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    dir = mkdtempSync(join(tmpdir(), "h2-front-"));
    // The build's assets folder: the front asks for each of its files once, at start.
    const assets = join(dir, "assets");
    mkdirSync(assets);
    writeFileSync(join(assets, "app-abc123.js"), script);
    kept = await startH2ProxyThread(target, dir, assets);
    passing = await startH2ProxyThread(target, dir);
  });

  afterAll(async () => {
    await kept?.close();
    await passing?.close();
    await new Promise((r) => upstream?.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it("asks for each hashed asset once, at start, and then answers from what it kept", async () => {
    expect(asked.filter((p) => p === "/assets/app-abc123.js")).toHaveLength(1);
    for (let i = 0; i < 3; i++) {
      const answer = await get(kept.url, "/assets/app-abc123.js");
      expect(answer.status).toBe(200);
      expect(answer.headers["content-encoding"]).toBe("br");
      expect(answer.headers["cache-control"]).toContain("immutable");
      expect(answer.headers.etag).toBe('"abc"');
      expect(brotliDecompressSync(answer.body).equals(script)).toBe(true);
    }
    expect(asked.filter((p) => p === "/assets/app-abc123.js")).toHaveLength(1);
  });

  it("sends every other request on, each time", async () => {
    const before = asked.length;
    const first = await get(kept.url, "/en");
    const second = await get(kept.url, "/en");
    expect(asked.length - before).toBe(2);
    expect(first.body.toString()).not.toBe(second.body.toString());
  });

  it("keeps nothing without the build's assets folder (--no-edge-cache)", async () => {
    const before = asked.filter((p) => p === "/assets/app-abc123.js").length;
    await get(passing.url, "/assets/app-abc123.js");
    await get(passing.url, "/assets/app-abc123.js");
    expect(asked.filter((p) => p === "/assets/app-abc123.js").length - before).toBe(2);
  });
});

describe("the HTTP/2 front in front of the built worker", () => {
  let front: H2Proxy;
  let dir: string;
  const assets = resolve(root, buildDir, "client", "assets");

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "h2-front-"));
    front = await startH2ProxyThread(base, dir, assets);
  });

  afterAll(async () => {
    await front?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the framework chunk with wrangler's own bytes and headers", async () => {
    const file = readdirSync(assets).find((f) => /^framework-.*\.js$/.test(f));
    expect(file).toBeDefined();
    const fromFront = await get(front.url, `/assets/${file}`);
    const fromWrangler = await new Promise<Answer>((done, fail) => {
      httpGet(`${base}/assets/${file}`, { headers: { "accept-encoding": BROWSER } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on("error", fail);
    });
    expect(fromFront.status).toBe(200);
    for (const name of ["content-type", "content-encoding", "cache-control", "etag"])
      expect(fromFront.headers[name], name).toBe(fromWrangler.headers[name]);
    expect(fromFront.body.equals(fromWrangler.body)).toBe(true);
    const decode =
      { br: brotliDecompressSync, gzip: gunzipSync }[String(fromFront.headers["content-encoding"])] ??
      ((b: Buffer) => b);
    expect(decode(fromFront.body).equals(readFileSync(join(assets, file!)))).toBe(true);
  });

  it("sends pages on to the worker: each answer has its own nonce", async () => {
    const nonce = (a: Answer) => String(a.headers["content-security-policy"]).match(/'nonce-([^']+)'/)?.[1];
    const [a, b] = [await get(front.url, "/en/products"), await get(front.url, "/en/products")];
    expect(a.status).toBe(200);
    expect(nonce(a)).toBeTruthy();
    expect(nonce(a)).not.toBe(nonce(b));
  });
});
