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
 * axe works is measured where it ends, never half transparent in the middle of its fade.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const reduced = await page.evaluate(() => matchMedia("(prefers-reduced-motion: reduce)").matches);
  await page.emulateMedia({ reducedMotion: "reduce" });
  try {
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
    await page.emulateMedia({ reducedMotion: reduced ? "reduce" : null });
  }
}

/** Expects no serious or critical violation; `where` names the page in the failure. */
export async function expectAxeClean(page: Page, where: string): Promise<void> {
  const violations = await seriousViolations(page);
  expect(violations, `${where}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
}
