// What each route loads first, read from the build's manifests, and how big it is gzipped.
// Used by the bundle budget test (test/http/bundle-budget.test.ts) and by `npm run bench`,
// which prints the same table into docs/bundles.md.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "./worker.ts";

export interface Budgets {
  framework: { chunk: string; packages: string[] };
  perRoute: { appJsKB: number; cssKB: number };
  /** Routes allowed more than perRoute, each group with its reason (a debt to pay back, not a new normal). */
  exceptions?: { routes: string[]; appJsKB?: number; cssKB?: number; why: string }[];
  /** The operator console's pages (route ids starting with one of routePrefixes): a budget of their own. */
  console?: { routePrefixes: string[]; appJsKB: number; cssKB: number; why: string };
  homeCriticalKB: number;
  gzipLevel: number;
  /** V8's compile hint goes on chunks of at least this much code (its modules as rendered, before minification) (vite.config.ts). */
  compileHint: { minBytes: number; why: string };
}

/** The budget that applies to one route (by React Router route id), and why if it is an exception. */
export function budgetFor(budgets: Budgets, routeId: string): { appJsKB: number; cssKB: number; why?: string } {
  const staff = budgets.console;
  if (staff?.routePrefixes.some((p) => routeId.startsWith(p)))
    return { appJsKB: staff.appJsKB, cssKB: staff.cssKB, why: staff.why };
  const exception = budgets.exceptions?.find((e) => e.routes.includes(routeId));
  return {
    appJsKB: exception?.appJsKB ?? budgets.perRoute.appJsKB,
    cssKB: exception?.cssKB ?? budgets.perRoute.cssKB,
    why: exception?.why,
  };
}

export function readBudgets(): Budgets {
  return JSON.parse(readFileSync(join(root, "budgets.json"), "utf8")) as Budgets;
}

/** React Router's browser manifest (window.__reactRouterManifest), the parts we read. */
interface RouterManifest {
  entry: { module: string; imports?: string[]; css?: string[] };
  routes: Record<
    string,
    {
      id: string;
      parentId?: string;
      path?: string;
      index?: boolean;
      hasDefaultExport?: boolean;
      module: string;
      imports?: string[];
      css?: string[];
      clientActionModule?: string;
      clientLoaderModule?: string;
      clientMiddlewareModule?: string;
      hydrateFallbackModule?: string;
    }
  >;
}

/** Vite's client manifest: one entry per chunk, keyed by source id or "_chunk.js". */
type ViteManifest = Record<
  string,
  { file: string; name?: string; imports?: string[]; css?: string[]; assets?: string[] }
>;

export interface RouteBundle {
  /** The URL pattern, e.g. /:locale/products. */
  path: string;
  routeId: string;
  /** gzip bytes */
  appJs: number;
  frameworkJs: number;
  css: number;
  files: string[];
}

export function readManifests(buildDir: string): { router: RouterManifest; vite: ViteManifest; clientDir: string } {
  const clientDir = join(root, buildDir, "client");
  const vitePath = join(clientDir, ".vite", "manifest.json");
  if (!existsSync(vitePath))
    throw new Error(`${vitePath} is missing: build first (vite.config.ts keeps build.manifest on).`);
  const vite = JSON.parse(readFileSync(vitePath, "utf8")) as ViteManifest;
  const name = readdirSync(join(clientDir, "assets")).find((f) => /^manifest-[\w-]+\.js$/.test(f));
  if (!name) throw new Error(`No React Router manifest (assets/manifest-*.js) in ${clientDir}`);
  const source = readFileSync(join(clientDir, "assets", name), "utf8");
  const json = source.slice(source.indexOf("=") + 1).replace(/;\s*$/, "");
  return { router: JSON.parse(json) as RouterManifest, vite, clientDir };
}

type ManifestRoute = RouterManifest["routes"][string];

/** A route and its ancestors, root first. */
function chainOf(manifest: RouterManifest, id: string): ManifestRoute[] {
  const chain: ManifestRoute[] = [];
  for (
    let r: ManifestRoute | undefined = manifest.routes[id];
    r;
    r = r.parentId ? manifest.routes[r.parentId] : undefined
  )
    chain.unshift(r);
  return chain;
}

/** The full URL pattern of a route, joining its ancestors' paths. */
function routePath(manifest: RouterManifest, id: string): string {
  const parts = chainOf(manifest, id).map((r) => (r.path ?? "").replace(/^\/|\/$/g, ""));
  return `/${parts.filter(Boolean).join("/")}`;
}

export function measureRoutes(buildDir: string, budgets: Budgets = readBudgets()): RouteBundle[] {
  const { router, vite, clientDir } = readManifests(buildDir);
  const byFile = new Map(Object.values(vite).map((e) => [`/${e.file}`, e]));
  const sizes = new Map<string, number>();
  const gzipSize = (file: string): number => {
    let size = sizes.get(file);
    if (size === undefined) {
      const path = join(clientDir, file);
      if (!existsSync(path)) throw new Error(`${file} is named by the manifest but missing from ${clientDir}`);
      size = gzipSync(readFileSync(path), { level: budgets.gzipLevel }).length;
      sizes.set(file, size);
    }
    return size;
  };
  const isFramework = (file: string) => byFile.get(file)?.name === budgets.framework.chunk;

  const result: RouteBundle[] = [];
  const parents = new Set(Object.values(router.routes).map((r) => r.parentId));
  for (const route of Object.values(router.routes)) {
    // Pages only: layouts are counted inside their pages; resource routes (sitemap) load no JS.
    if (!route.hasDefaultExport || parents.has(route.id)) continue;
    const chain = chainOf(router, route.id);
    const js = new Set<string>([router.entry.module, ...(router.entry.imports ?? [])]);
    const css = new Set<string>((router.entry.css ?? []).map((f) => f.replace(/#.*$/, "")));
    for (const r of chain) {
      for (const f of [
        r.module,
        ...(r.imports ?? []),
        r.clientLoaderModule,
        r.clientActionModule,
        r.clientMiddlewareModule,
        r.hydrateFallbackModule,
      ]) {
        if (f) js.add(f);
      }
      // React Router marks a stylesheet that is also dynamically imported with a trailing "#"
      // (same file, a distinct URL); it is still loaded first.
      for (const f of r.css ?? []) css.add(f.replace(/#.*$/, ""));
    }
    // Stylesheets imported with ?url (root's app.css) are Vite "assets" of the chunk, not "css".
    for (const f of js) {
      const entry = byFile.get(f);
      for (const c of [...(entry?.css ?? []), ...(entry?.assets ?? []).filter((a) => a.endsWith(".css"))])
        css.add(`/${c}`);
    }
    let appJs = 0;
    let frameworkJs = 0;
    for (const f of js) {
      if (isFramework(f)) frameworkJs += gzipSize(f);
      else appJs += gzipSize(f);
    }
    let cssBytes = 0;
    for (const f of css) cssBytes += gzipSize(f);
    result.push({
      path: routePath(router, route.id),
      routeId: route.id,
      appJs,
      frameworkJs,
      css: cssBytes,
      files: [...js, ...css],
    });
  }
  return result.sort((a, b) => a.path.localeCompare(b.path));
}

export const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** A markdown table of the per-route figures against the budgets. */
export function bundleTable(routes: RouteBundle[], budgets: Budgets): string {
  const lines = [
    `| Route | App JS (budget ${budgets.perRoute.appJsKB} KB) | Framework JS | CSS (budget ${budgets.perRoute.cssKB} KB) | Total |`,
    "|---|---:|---:|---:|---:|",
  ];
  for (const r of routes) {
    const b = budgetFor(budgets, r.routeId);
    const js =
      b.appJsKB === budgets.perRoute.appJsKB
        ? kb(r.appJs)
        : `${kb(r.appJs)} (${b.why === budgets.console?.why ? "console" : "exception"}: ${b.appJsKB})`;
    lines.push(
      `| \`${r.path}\` (${r.routeId}) | ${js} | ${kb(r.frameworkJs)} | ${kb(r.css)} | ${kb(r.appJs + r.frameworkJs + r.css)} |`,
    );
  }
  const notes = (budgets.exceptions ?? []).map(
    (e) =>
      `- Exception (${e.appJsKB ?? budgets.perRoute.appJsKB} KB JS, ${e.cssKB ?? budgets.perRoute.cssKB} KB CSS) for ${e.routes.map((r) => `\`${r}\``).join(", ")}: ${e.why}`,
  );
  return [...lines, ...(notes.length ? ["", ...notes] : [])].join("\n");
}

/**
 * The files only the operator console loads: reachable (imports, dynamic imports, CSS) from the
 * console's route modules (app/routes/admin/) and from nothing else. The service worker leaves them
 * out of its precache, so no shopper's phone downloads the console.
 */
export function consoleOnlyFiles(buildDir: string): Set<string> {
  const { vite } = readManifests(buildDir);
  type Entry = ViteManifest[string] & { src?: string; isEntry?: boolean; dynamicImports?: string[] };
  const entries = vite as Record<string, Entry>;
  const reach = (keys: string[], skip: (key: string) => boolean = () => false): Set<string> => {
    const files = new Set<string>();
    const seen = new Set<string>();
    const stack = [...keys];
    while (stack.length) {
      const key = stack.pop()!;
      if (seen.has(key)) continue;
      seen.add(key);
      const e = entries[key];
      if (!e) continue;
      files.add(e.file);
      for (const c of [...(e.css ?? []), ...(e.assets ?? [])]) files.add(c);
      stack.push(...[...(e.imports ?? []), ...(e.dynamicImports ?? [])].filter((k) => !skip(k)));
    }
    return files;
  };
  // The console's route modules, and the console's part of the locale files (scripts/lib/locale-parts.ts),
  // which the shop's i18n module can import but only console pages do.
  const isConsole = (key: string) => key.startsWith("app/routes/admin/") || /^virtual:locale\/\w+\/console$/.test(key);
  const roots = Object.keys(entries).filter(
    (k) => entries[k].isEntry || (entries[k] as { isDynamicEntry?: boolean }).isDynamicEntry,
  );
  const shop = reach(
    roots.filter((k) => !isConsole(k)),
    isConsole,
  );
  const console = reach(roots.filter(isConsole));
  return new Set([...console].filter((f) => !shop.has(f)));
}
