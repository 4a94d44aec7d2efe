import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { PAGE_CACHEABLE_HEADER } from "../../contract/edge";
import type { HonoEnv } from "../../worker/env";
import { cut, forgetPages, keepPage, servePage } from "../../worker/page-cache";

// The page cache keeps a rendered page as bytes cut where the rendering request's CSP nonce stood
// (worker/page-cache.ts, `cut`), in this isolate's memory and in the colo's Cache API, and serves
// it with the serving request's own nonce in those places. These pages carry the nonce where React
// puts it and where it could sit at the edges, beside Arabic text (multi-byte UTF-8) and beside
// bytes that begin like the nonce.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A page as the render writes it with `nonce`. */
function page(nonce: string): string {
  return (
    `${nonce}<!DOCTYPE html><html lang="ar" dir="rtl"><head><link nonce="${nonce}" rel="stylesheet" href="/a.css"/>` +
    `<script nonce="${nonce}">window.x = "${nonce.slice(0, 5)}…";</script></head>` +
    `<body><h1>متجر الإلكترونيات — ${nonce.slice(0, 3)}</h1><p>السعر ‏49.00 ر.س.‏</p>` +
    `<script nonce="${nonce}">${nonce}${nonce}</script>${nonce}`
  );
}

let renders = 0;
const shop = new Hono<HonoEnv>();
shop.get("/en/nonce-page/:n", async (c) => {
  c.set("language", "en");
  const nonce = c.req.header("x-test-nonce")!;
  const kept = await servePage(c, nonce);
  if (kept) return kept;
  renders++;
  const res = new Response(page(nonce), { headers: { "content-type": "text/html", [PAGE_CACHEABLE_HEADER]: "1" } });
  return keepPage(c, res, nonce);
});

async function visit(n: string, nonce: string): Promise<{ text: string; tier: string | null }> {
  const ctx = createExecutionContext();
  const res = await shop.request(
    `https://shop.test/en/nonce-page/${n}`,
    { headers: { "x-test-nonce": nonce } },
    env,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx); // the page is kept in waitUntil
  return { text, tier: res.headers.get("x-page-cache-tier") };
}

describe("the page cache's copy of a page with a nonce", () => {
  it("cuts bytes where text.split would cut the text", () => {
    // Marks whose rarest byte (the one the scan looks for) is first, in the middle, last, or
    // repeated, and marks that overlap themselves: split's cuts are the leftmost, never overlapping.
    for (const mark of ["Ab3+/=", "abcD", "abXab", "aQaQa", "xyz9", "\u0000page\u0000", "aa", "==b=="]) {
      for (const text of [
        "",
        mark,
        `${mark}${mark}`,
        `x${mark}y`,
        `${mark.slice(1)}${mark}${mark.slice(0, -1)}`,
        `${mark[0]}${mark}${mark}${mark.at(-1)}`,
        `عربي${mark}عربي`,
        mark.slice(0, -1),
        `${mark}A`,
        `${mark}${mark.slice(1)}${mark}`,
        "aaaaa",
        "aQaQaQaQa",
        "abXabXab",
      ]) {
        const parts = cut(encoder.encode(text), encoder.encode(mark)).map((p) => decoder.decode(p));
        expect(parts, `${JSON.stringify(text)} / ${JSON.stringify(mark)}`).toEqual(text.split(mark));
      }
    }
  });

  it("serves the same bytes with each request's own nonce, from memory and from the colo's copy", async () => {
    const n = crypto.randomUUID();
    const first = "Rk9PYmFyMTIzNDU2Nzg5MA==";
    expect(await visit(n, first)).toEqual({ text: page(first), tier: null });
    // What the render wrote with each whole occurrence of its nonce replaced by the server's one;
    // the text that merely begins like it stays.
    const served = (nonce: string) => page(first).split(first).join(nonce);
    const fromMemory = "QUJDREVGR0hJSktMTU5PUA==";
    expect(await visit(n, fromMemory)).toEqual({ text: served(fromMemory), tier: "memory" });
    // Another isolate of the colo: this one's memory gone, the Cache API's copy answers.
    forgetPages();
    const fromColo = "enl4d3Z1dHNycXBvbm1sa2o=";
    expect(await visit(n, fromColo)).toEqual({ text: served(fromColo), tier: "colo" });
    expect(renders).toBe(1);
  });
});
