// The served head asks for the render-blocking stylesheets first: before every module preload and
// every image preload but the LCP image's (components/Stylesheet.tsx; docs/PERFORMANCE.md, "First
// paint under simulated slow 4G"). Over HTTP/1.1 the browser requests in document order on six
// connections, so a preload ahead of the CSS holds up the first paint.
import { describe, expect, it } from "vitest";
import { builtWorker } from "../support/http.ts";

const base = builtWorker().url;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

interface HeadLink {
  rel: string;
  href: string;
  attrs: string;
}

/** The `<link>` elements of the served document's head, in order, and the response's CSP nonce. */
async function head(path: string): Promise<{ links: HeadLink[]; nonce: string | undefined }> {
  const res = await fetch(`${base}${path}`, { headers: { "user-agent": BROWSER } });
  expect(res.status, path).toBe(200);
  const html = await res.text();
  const end = html.indexOf("</head>");
  expect(end, `${path} has a head`).toBeGreaterThan(0);
  const links = [...html.slice(0, end).matchAll(/<link\b[^>]*>/g)].map(([attrs]) => ({
    rel: /\brel="([^"]*)"/.exec(attrs)?.[1] ?? "",
    href: /\bhref="([^"]*)"/.exec(attrs)?.[1] ?? "",
    attrs,
  }));
  const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
  return { links, nonce };
}

const { data } = (await (await fetch(`${base}/backend/products?per_page=1`)).json()) as { data: { slug: string }[] };

describe("the stylesheets come first in the head", () => {
  const pages = ["/en", "/ar/products", `/en/product-details/${data[0].slug}`, "/ar/shopping-cart"];

  for (const path of pages) {
    it(`${path}: every stylesheet before the first module preload and the bulk image preloads`, async () => {
      const { links, nonce } = await head(path);
      const sheets = links.filter((l) => l.rel === "stylesheet");
      const lastSheet = links.lastIndexOf(sheets.at(-1)!);
      expect(sheets.length, `${path} links stylesheets`).toBeGreaterThan(1);

      const firstModule = links.findIndex((l) => l.rel === "modulepreload");
      expect(firstModule, `${path} preloads its modules`).toBeGreaterThan(0);
      expect(lastSheet, `${path}: a stylesheet after a module preload`).toBeLessThan(firstModule);

      // Only the LCP image's high-priority preload may go before them.
      const early = links.slice(0, links.indexOf(sheets[0]));
      for (const l of early.filter((l) => l.rel === "preload"))
        expect(l.attrs, `${path}: ${l.href} is preloaded before the stylesheets`).toMatch(/fetchPriority="high"/i);

      // app.css first (its own precedence), then the area sheets; each once, with the page's nonce.
      expect(sheets[0].href).toMatch(/^\/assets\/app-[\w-]+\.css$/);
      expect(sheets[0].attrs).toContain('data-precedence="base"');
      for (const s of sheets.slice(1)) expect(s.attrs, s.href).toContain('data-precedence="area"');
      const hrefs = sheets.map((s) => s.href);
      expect(new Set(hrefs).size, `${path} links a stylesheet twice: ${hrefs.join(", ")}`).toBe(hrefs.length);
      expect(nonce, `${path} sends a CSP nonce`).toBeTruthy();
      for (const s of sheets) expect(s.attrs, s.href).toContain(`nonce="${nonce}"`);
    });
  }
});
