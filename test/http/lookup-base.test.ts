import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningWorker } from "../../scripts/lib/worker.ts";
import { startExtraWorker, TEST_VARS, builtWorker } from "../support/http.ts";

// Spec §7: "a GET against a separate lookup base URL" exists. LOOKUP_URL sets that base for the
// browser's `lookup()` calls (app/lib/api/browser.ts), and the CSP lets the page reach its origin.
const base = builtWorker().url;
const LOOKUP = "https://lookup.example.test/backend";
let other: RunningWorker;
let stop: (() => void) | undefined;

beforeAll(async () => {
  ({ worker: other, stop } = await startExtraWorker({ ...TEST_VARS, LOOKUP_URL: `${LOOKUP}/` }, { database: "empty" }));
});
afterAll(() => stop?.());

const connectSrc = (res: Response) =>
  /connect-src ([^;]+)/.exec(res.headers.get("content-security-policy") ?? "")?.[1]?.trim();

describe("the separate lookup base URL (spec §7)", () => {
  it("§7: by default the browser's lookups use the backend base, and the page may connect to its own origin only", async () => {
    const res = await fetch(`${base}/en/error`);
    expect(connectSrc(res)).toBe("'self'");
    const html = await res.text();
    // The root's data names it (the same "/backend" string, which React Router's stream writes once).
    expect(html).toContain('\\"lookupBase\\"');
    expect(html).not.toContain("lookup.example.test");
  });

  it("§7: LOOKUP_URL sets the separate lookup base the browser's lookup GETs use, and the CSP allows its origin", async () => {
    const res = await fetch(`${other.url}/en/error`);
    expect(connectSrc(res)).toBe("'self' https://lookup.example.test");
    const html = await res.text();
    expect(html).toContain(LOOKUP);
    expect(html).not.toContain(`${LOOKUP}/"`);
  });
});
