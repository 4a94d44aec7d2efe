// An HTTP/2 (TLS) front for the local worker, for Lighthouse. `wrangler dev` speaks HTTP/1.1 only,
// while Cloudflare serves the shop over HTTP/2 and HTTP/3; Lighthouse's simulation charges every
// HTTP/1.1 request a connection slot (six per host, each with its own round trips), which makes a
// page with twenty small module chunks look far slower locally than it is in production.
// A throwaway self-signed certificate for 127.0.0.1 (Chromium runs with --ignore-certificate-errors).
//
// It also keeps the answers marked `immutable` (the build's hashed `/assets/*`), as Cloudflare's
// edge cache does, warmed at start: wrangler dev compresses every asset afresh for each request
// (gzip for Chromium, 8 ms of CPU for the framework chunk alone), on the same two cores as the page it
// serves, so a page's fifteen module requests took 300-440 ms to come back while Chromium laid
// the page out, and came back after its first paint. In production no asset costs the phone's
// CPU anything to serve. The bytes and headers are wrangler's own, kept.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { createSecureServer } from "node:http2";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "http2-settings",
  "host",
]);

/** The headers that pass through a proxy: not HTTP/2's pseudo-headers, not the hop-by-hop ones. */
function endToEnd(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !name.startsWith(":") && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

export interface H2Proxy {
  url: string;
  close: () => Promise<void>;
}

/**
 * The front on a thread of its own. On the main thread it shared one event loop with Lighthouse,
 * which stalls it for up to 140 ms at a time while it processes an audit (measured with
 * `monitorEventLoopDelay`): every response of the page then waited, as a CDN's would not.
 */
export function startH2ProxyThread(target: string, dir: string, assetsDir?: string): Promise<H2Proxy> {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { h2ProxyTarget: target, h2ProxyDir: dir, h2ProxyAssets: assetsDir },
  });
  return new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", (m: { url?: string; error?: string }) => {
      if (m.url) resolve({ url: m.url, close: async () => void (await worker.terminate()) });
      else reject(new Error(`the HTTP/2 front did not start: ${m.error}`));
    });
  });
}

/** What Chromium asks for (wrangler answers it with gzip). Answers are kept per Accept-Encoding. */
const BROWSER_ENCODINGS = "gzip, deflate, br, zstd";
const keyOf = (acceptEncoding: string | string[] | undefined, path: string | undefined) =>
  `${String(acceptEncoding ?? "")} ${path ?? ""}`;
type Kept = { status: number; headers: Record<string, string | string[]>; body: Buffer };

async function startH2Proxy(target: string, dir: string, assetsDir?: string): Promise<H2Proxy> {
  const key = join(dir, "proxy-key.pem");
  const cert = join(dir, "proxy-cert.pem");
  const made = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const edge = new Map<string, Kept>();
  // Without the build's assets folder (auditing a worker started elsewhere, or `--no-edge-cache`)
  // nothing is kept: every request goes to wrangler.
  const keepable = (method: string | undefined, status: number | undefined, headers: Record<string, unknown>) =>
    assetsDir !== undefined &&
    method === "GET" &&
    status === 200 &&
    /\bimmutable\b/.test(String(headers["cache-control"] ?? ""));
  const server = createSecureServer(
    { key: readFileSync(key), cert: readFileSync(cert), allowHTTP1: true },
    (req, res) => {
      const kept =
        req.method === "GET" || req.method === "HEAD"
          ? edge.get(keyOf(req.headers["accept-encoding"], req.url))
          : undefined;
      if (kept) {
        res.writeHead(kept.status, { ...kept.headers, "content-length": String(kept.body.length) });
        if (req.method === "HEAD") res.end();
        else res.end(kept.body);
        return;
      }
      const headers: Record<string, string | string[]> = { ...endToEnd(req.headers), host: upstream.host };
      const forward = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
        (answer) => {
          const out = endToEnd(answer.headers);
          res.writeHead(answer.statusCode ?? 502, out);
          answer.pipe(res);
          if (keepable(req.method, answer.statusCode, out)) {
            const chunks: Buffer[] = [];
            answer.on("data", (c: Buffer) => chunks.push(c));
            answer.on("end", () =>
              edge.set(keyOf(headers["accept-encoding"], req.url), {
                status: 200,
                headers: out,
                body: Buffer.concat(chunks),
              }),
            );
          }
        },
      );
      forward.on("error", () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      req.pipe(forward);
    },
  );
  // Warm, as Cloudflare's asset layer always is: each hashed asset asked once, as Chromium asks.
  for (const file of assetsDir ? readdirSync(assetsDir) : []) {
    const path = `/assets/${file}`;
    await new Promise<void>((resolve, reject) => {
      const r = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: "GET",
          path,
          headers: { host: upstream.host, "accept-encoding": BROWSER_ENCODINGS },
          agent,
        },
        (a) => {
          const out = endToEnd(a.headers);
          const chunks: Buffer[] = [];
          a.on("data", (c: Buffer) => chunks.push(c));
          a.on("end", () => {
            if (keepable("GET", a.statusCode, out))
              edge.set(keyOf(BROWSER_ENCODINGS, path), { status: 200, headers: out, body: Buffer.concat(chunks) });
            resolve();
          });
          a.on("error", reject);
        },
      );
      r.on("error", reject);
      r.end();
    });
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

// In the front's own thread: start it and tell the main thread where it listens.
if (!isMainThread && parentPort && typeof workerData?.h2ProxyTarget === "string") {
  const port = parentPort;
  startH2Proxy(workerData.h2ProxyTarget, workerData.h2ProxyDir, workerData.h2ProxyAssets).then(
    (proxy) => port.postMessage({ url: proxy.url }),
    (error: unknown) => port.postMessage({ error: String(error) }),
  );
}
