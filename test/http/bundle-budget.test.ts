// The bundle budget (budgets.json): what each route loads first, read from the build's manifests
// and gzipped, stays within the shop's own JavaScript and CSS budgets.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  budgetFor,
  bundleTable,
  consoleOnlyFiles,
  kb,
  measureRoutes,
  readBudgets,
  readManifests,
} from "../../scripts/lib/bundles.ts";
import { buildDir } from "../../scripts/lib/worker.ts";
import { builtWorker } from "../support/http.ts";

const base = builtWorker().url;
const budgets = readBudgets();
const routes = measureRoutes(buildDir, budgets);
const KB = 1024;

describe("the bundle budget", () => {
  it("measures every page of the route table, and prints the figures", () => {
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        "/",
        "/:locale",
        "/:locale/products",
        "/:locale/product-details/:slug",
        "/:locale/privacy-policy",
      ]),
    );
    console.log(`Bundle sizes, gzip KB, ${buildDir}:\n${bundleTable(routes, budgets)}`);
  });

  it("finds the framework chunk, so the framework is told apart from the shop's own code", () => {
    const { vite } = readManifests(buildDir);
    expect(Object.values(vite).some((e) => e.name === budgets.framework.chunk)).toBe(true);
    for (const r of routes) expect(r.frameworkJs, r.path).toBeGreaterThan(0);
  });

  for (const r of routes) {
    const budget = budgetFor(budgets, r.routeId);
    it(`${r.path} (${r.routeId}) loads at most ${budget.appJsKB} KB of the shop's own JavaScript and ${budget.cssKB} KB of CSS first`, () => {
      const why = budget.why ? ` (an exception: ${budget.why})` : "";
      expect(
        r.appJs,
        `${r.path}: ${kb(r.appJs)} KB gzip of the shop's own JavaScript on first load, budget ${budget.appJsKB} KB${why}`,
      ).toBeLessThanOrEqual(budget.appJsKB * KB);
      expect(
        r.css,
        `${r.path}: ${kb(r.css)} KB gzip of CSS on first load, budget ${budget.cssKB} KB${why}`,
      ).toBeLessThanOrEqual(budget.cssKB * KB);
    });
  }

  it("the service worker precaches none of the operator console's code: shoppers never download it", () => {
    const consoleOnly = consoleOnlyFiles(buildDir);
    const { vite } = readManifests(buildDir);
    const staffPage = Object.entries(vite).find(([key]) => key.startsWith("app/routes/admin/staff.tsx"))?.[1].file;
    expect(staffPage && consoleOnly.has(staffPage)).toBe(true);
    const sw = readFileSync(join(buildDir, "client", "sw.js"), "utf8");
    for (const file of consoleOnly) expect(sw.includes(file), `sw.js precaches ${file}`).toBe(false);
    // The shop's own chunks are still there.
    expect(sw).toMatch(/assets\/framework-[\w-]+\.js/);
  });

  it("names only real routes in its exceptions, each with a reason", () => {
    const ids = new Set(routes.map((r) => r.routeId));
    for (const e of budgets.exceptions ?? []) {
      expect(e.why.length, "an exception says why").toBeGreaterThan(20);
      for (const id of e.routes) expect(ids.has(id), `${id} is a page route`).toBe(true);
    }
  });

  it("counts every script and stylesheet the served pages actually link", async () => {
    const slug = ((await (await fetch(`${base}/backend/products?per_page=1`)).json()) as { data: { slug: string }[] })
      .data[0].slug;
    const pages: [string, string][] = [
      ["/en", "/:locale"],
      ["/ar/products", "/:locale/products"],
      [`/en/product-details/${slug}`, "/:locale/product-details/:slug"],
    ];
    for (const [url, pattern] of pages) {
      const html = await (await fetch(`${base}${url}`)).text();
      const linked = new Set(
        [...html.matchAll(/(?:href="|import\(")(\/assets\/[^"#]+\.(?:js|css))#?"/g)]
          .map((m) => m[1])
          .filter((f) => !/\/manifest-[\w-]+\.js$/.test(f)),
      );
      const measured = new Set(routes.find((r) => r.path === pattern)?.files);
      expect(linked.size, url).toBeGreaterThan(0);
      for (const file of linked)
        expect(measured.has(file), `${url} links ${file}, which the budget does not count`).toBe(true);
    }
  });

  it(`the home page's first-paint HTML and its stylesheets fit in the first ${budgets.homeCriticalKB} KB sent (gzip)`, async () => {
    const html = await (await fetch(`${base}/en`)).text();
    // First paint needs the head and the markup; the hydration data (React Router's stream
    // enqueues) and the Suspense parts streamed after it are not critical.
    const firstData = html.indexOf("window.__reactRouterContext.streamController.enqueue");
    expect(firstData, "the home page streams its loader data").toBeGreaterThan(0);
    const critical = html.slice(0, html.lastIndexOf("<script", firstData));
    expect(critical, "the first-paint HTML holds the main content").toContain('<main id="main"');
    const sheets = [...critical.matchAll(/<link[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]);
    expect(sheets.length).toBeGreaterThan(0);
    const gz = (b: Uint8Array | string) => gzipSync(b, { level: budgets.gzipLevel }).length;
    let css = 0;
    for (const href of sheets) css += gz(new Uint8Array(await (await fetch(`${base}${href}`)).arrayBuffer()));
    const bytes = gz(critical) + css;
    console.log(
      `home: first-paint HTML ${kb(gz(critical))} KB + CSS ${kb(css)} KB (whole document ${kb(gz(html))} KB), gzip`,
    );
    expect(
      bytes,
      `home: ${kb(bytes)} KB of first-paint HTML and CSS (gzip), budget ${budgets.homeCriticalKB} KB`,
    ).toBeLessThanOrEqual(budgets.homeCriticalKB * KB);
  });

  it("every JavaScript chunk but the smallest asks V8 to compile all its functions eagerly, off the main thread", () => {
    // vite.config.ts adds the hint after minification to chunks whose modules' code (as rendered
    // into the chunk, before minification) reaches budgets.json's compileHint.minBytes; Vite's
    // preload helper may come first. So a file without the hint is small whatever its glue.
    const { vite, clientDir } = readManifests(buildDir);
    const files = [
      ...new Set(
        Object.values(vite)
          .map((e) => e.file)
          .filter((f) => f.endsWith(".js")),
      ),
    ];
    expect(files.length).toBeGreaterThan(10);
    const min = budgets.compileHint.minBytes;
    for (const file of files) {
      const text = readFileSync(join(clientDir, file), "utf8");
      const hinted = text.split("\n", 3).includes("//# allFunctionsCalledOnLoad");
      if (!hinted) expect(text.length, `${file}: large enough for the hint`).toBeLessThan(min + 1024);
      if (/\/(framework|shell)-/.test(file)) expect(hinted, file).toBe(true);
    }
  });

  it("sonner's direction properties on <html> are the shop's own first, so sonner's stylesheet changes no element's style when it arrives", async () => {
    // A rule of sonner's on html[dir] restyled every element when sonner loaded; app/styles/pwa.css
    // declares the same properties with the same values in a stylesheet every page links. Nothing
    // rewrites sonner's code (no build plugin): its built chunk carries its own rules unchanged.
    const { vite, clientDir } = readManifests(buildDir);
    const read = (f: string) => readFileSync(join(clientDir, f), "utf8");
    const rules = (text: string, dir: string) => {
      const found = new Map<string, string>();
      for (const m of text.matchAll(new RegExp(`html\\[dir="?${dir}"?\\]\\{([^}]*)\\}`, "g")))
        for (const decl of m[1].split(";")) {
          const at = decl.indexOf(":");
          if (at > 0) found.set(decl.slice(0, at).trim(), decl.slice(at + 1).trim());
        }
      return found;
    };
    const sonner = [...new Set(Object.values(vite).map((e) => e.file))]
      .filter((f) => f.endsWith(".js"))
      .map(read)
      .filter((code) => code.includes("data-sonner-toaster"))
      .join("\n");
    const html = await (await fetch(`${base}/ar/products`)).text();
    const linked = [...new Set([...html.matchAll(/href="\/(assets\/[^"#]+\.css)#?"/g)].map((m) => m[1]))]
      .map(read)
      .join("\n");
    for (const dir of ["ltr", "rtl"]) {
      const theirs = rules(sonner, dir);
      const ours = rules(linked, dir);
      expect(theirs.size, dir).toBeGreaterThan(5);
      for (const [name, value] of theirs) expect(ours.get(name), `${dir} ${name}`).toBe(value);
    }
  });
});
