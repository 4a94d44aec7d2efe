import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { visitorIp } from "./http.ts";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's Chromium, headless, with nothing reaching out to the network. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--no-first-run",
    ],
  });
}

export async function newPage(
  browser: Browser,
  opts: { viewport?: { width: number; height: number }; serviceWorkers?: "allow" | "block" } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: opts.viewport ?? { width: 1280, height: 900 },
    // Each context is its own visitor, from its own network, as shoppers are in production.
    extraHTTPHeaders: { "cf-connecting-ip": visitorIp() },
    serviceWorkers: opts.serviceWorkers ?? "allow",
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e.stack ?? e)));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  return { context, page, errors };
}

export const LOCALES = ["en", "ar"] as const;
export const SCREENSHOTS = "test-results/screenshots";

/**
 * Waits until React has attached its handlers to an element (hydration finished there). A click
 * before that is the browser's own: a link would load a whole new document.
 */
export async function hydrated(page: Page, selector: string, timeout = 20_000): Promise<void> {
  await page.waitForFunction(
    (sel) => {
      const el = document.querySelector(sel);
      return el !== null && Object.keys(el).some((k) => k.startsWith("__reactProps"));
    },
    selector,
    { timeout },
  );
}

/**
 * A full-page screenshot with everything painted. Playwright's `fullPage` captures beyond the
 * viewport without moving it, so what the shop lets the browser skip while out of view
 * (`content-visibility: auto`: product cards, the footer; docs/PERFORMANCE.md) would come out
 * blank. The viewport is made as tall as the page for the shot instead, then restored.
 */
export async function fullPageScreenshot(page: Page, path: string): Promise<void> {
  const size = page.viewportSize();
  if (!size) {
    await page.screenshot({ path, fullPage: true });
    return;
  }
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.min(Math.max(height, size.height), 16_000) });
  // Two frames: the newly visible content is laid out and painted; images now in view load.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  await page
    .waitForFunction(() => [...document.images].every((img) => img.complete), undefined, { timeout: 5_000 })
    .catch(() => undefined);
  await page.screenshot({ path, fullPage: true });
  await page.setViewportSize(size);
}
