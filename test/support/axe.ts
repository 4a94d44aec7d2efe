import { createRequire } from "node:module";
import { expect } from "vitest";
import type { Page } from "playwright-core";
import { networkQuiet } from "./browser.ts";

const require = createRequire(import.meta.url);
const axeSource: string = require("axe-core").source;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Waits until the page is at rest: no navigation under way (the shop's loading bar idle, the
 * network quiet but for link prefetches: `networkQuiet`) and no finite animation or transition running over two frames in a row.
 */
export async function atRest(page: Page): Promise<void> {
  await networkQuiet(page);
  await page.waitForFunction(
    () => document.querySelector(".loading-bar")?.getAttribute("aria-hidden") !== "false",
    undefined,
    { timeout: 10_000 },
  );
  await page.waitForFunction(
    async () => {
      // A style change starts its transition at the next frame: look after two of them.
      for (let i = 0; i < 2; i++) await new Promise((done) => requestAnimationFrame(done));
      return document
        .getAnimations()
        .every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity);
    },
    undefined,
    { timeout: 10_000 },
  );
}

/**
 * Runs axe-core in the page at rest and returns the serious and critical violations. It looks
 * with reduced motion asked for (and sonner honours it), so a toast arriving or leaving while
 * axe works is measured where it ends, never half transparent in the middle of its fade. It looks
 * from the top of the page, as a visitor arrives and as Lighthouse looks, then scrolls back: lower
 * down, the sticky header passes over the links above the fold and target-size would count a link
 * under it as a target too small, which depends on how far a journey happened to scroll.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const reduced = await page.evaluate(() => matchMedia("(prefers-reduced-motion: reduce)").matches);
  const scrolled = await page.evaluate(() => [window.scrollX, window.scrollY] as const);
  await page.emulateMedia({ reducedMotion: "reduce" });
  try {
    await page.evaluate(() => window.scrollTo(0, 0));
    await atRest(page);
    // Evaluated through the DevTools protocol: the shop's strict CSP would refuse an inline <script>.
    await page.evaluate(axeSource);
    const results = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> };
        }
      ).axe;
      // target-size (WCAG 2.2 AA, touch targets of 24 px) is off in axe by default; Lighthouse runs it.
      return axe.run(document, { resultTypes: ["violations"], rules: { "target-size": { enabled: true } } });
    });
    return results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })),
      }));
  } finally {
    await page.evaluate(([x, y]) => window.scrollTo(x, y), scrolled);
    await page.emulateMedia({ reducedMotion: reduced ? "reduce" : null });
  }
}

/** A violation on one line: its rule first, so a log cut short still names it. */
const oneLine = (v: AxeViolation) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`;

/**
 * Expects no serious or critical violation; `where` names the page in the failure (its path if not
 * given). What axe finds is looked at again once the page has rested anew: a finding of the page
 * persists, while one seen in the middle of a render on a loaded machine (a below-the-fold section
 * arriving while axe walked the page) does not. Such a passing sighting is printed, not dropped.
 */
export async function expectAxeClean(page: Page, where = new URL(page.url()).pathname): Promise<void> {
  const first = await seriousViolations(page);
  if (first.length === 0) return;
  const again = await seriousViolations(page);
  const seen = new Set(again.map(oneLine));
  const passing = first.filter((v) => !seen.has(oneLine(v)));
  if (passing.length > 0)
    console.warn(`axe, ${where}, seen once and gone on a second look: ${passing.map(oneLine).join("; ")}`);
  expect(again, `${where}: ${again.map(oneLine).join("; ")}`).toEqual([]);
}
