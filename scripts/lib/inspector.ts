// The Worker's V8 inspector, as `npm run profile` and `npm run bench` read it: wrangler serves it
// (its inspector proxy) and we speak the Chrome DevTools protocol to it over a WebSocket. Only the
// Profiler domain is used: a CPU profile of the Worker's isolate over a pass of requests says what
// the Worker itself spent (scripts/lib/cpu-profile.ts), apart from the local D1, caches and routing
// that share its workerd process here and run elsewhere in production.
import { analyse, type Breakdown, type CpuProfile, type SourceLocator } from "./cpu-profile.ts";

/** The sampling interval asked of V8, in µs (its default is 1000). */
export const SAMPLING_INTERVAL_US = 100;

/** A Chrome DevTools protocol session over a WebSocket (Node's global WebSocket). */
export class Inspector {
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly ws: WebSocket;
  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.addEventListener("message", (event) => {
      const msg = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (msg.id === undefined) return;
      const waiting = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.error) waiting?.reject(new Error(msg.error.message));
      else waiting?.resolve(msg.result);
    });
  }

  static async connect(port: number): Promise<Inspector> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
    if (!targets[0]) throw new Error("The inspector lists no target");
    // wrangler's inspector proxy wants an Origin it knows (a loopback one); Node's WebSocket
    // (undici) takes extra headers as a second argument of this shape.
    const init = { headers: { origin: `http://127.0.0.1:${port}` } } as unknown as string[];
    const ws = new WebSocket(targets[0].webSocketDebuggerUrl, init);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener("open", () => resolve(), { once: true });
      ws.addEventListener("error", () => reject(new Error("Could not connect to the inspector")), { once: true });
    });
    return new Inspector(ws);
  }

  /** Connects and readies the Profiler domain at `intervalUs`. */
  static async profiler(port: number, intervalUs = SAMPLING_INTERVAL_US): Promise<Inspector> {
    const inspector = await Inspector.connect(port);
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.setSamplingInterval", { interval: intervalUs });
    return inspector;
  }

  send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    });
  }

  /** The isolate's CPU profile over `pass` (which makes the requests), with its breakdown. */
  async profile(
    pass: () => Promise<void>,
    locator: SourceLocator,
  ): Promise<{ profile: CpuProfile; breakdown: Breakdown }> {
    await this.send("Profiler.start");
    let failed: { error: unknown } | undefined;
    try {
      await pass();
    } catch (error) {
      failed = { error };
    }
    // Stopped either way, so a failed pass leaves no profiler running in the Worker.
    const { profile } = await this.send<{ profile: CpuProfile }>("Profiler.stop");
    if (failed) throw failed.error;
    return { profile, breakdown: analyse(profile, locator) };
  }

  close(): void {
    this.ws.close();
  }
}

/**
 * What a profiled pass cost the Worker per request, in ms: its JavaScript (and the runtime APIs it
 * called), garbage collection and "(program)" (the isolate's thread outside JavaScript), which is
 * what Cloudflare counts as a Worker's CPU time; waiting on I/O is not.
 */
export const workerCpuMs = (b: Breakdown, requests: number) => (b.jsUs + b.gcUs + b.programUs) / 1000 / requests;
