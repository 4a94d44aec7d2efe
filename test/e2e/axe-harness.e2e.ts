import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAxeClean } from "../support/axe.ts";
import { launchBrowser, newPage } from "../support/browser.ts";

/**
 * The accessibility check every journey leans on: it must fail on a page that has a serious
 * violation (it looks twice, so a finding has to persist), name the rule in the first line of the
 * failure, pass a clean page, and look from the top of the page whatever the journey scrolled.
 */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe("the axe check of the journeys", () => {
  it("fails on a button without a name, naming the rule, and passes a labelled one", async () => {
    const { page, context } = await newPage(browser);
    try {
      await page.setContent(`<!doctype html><html lang="en"><head><title>t</title></head>
        <body><main><h1>Cart</h1><button id="bare"></button></main></body></html>`);
      const failure = await expectAxeClean(page, "a bare button").then(
        () => null,
        (error: Error) => error.message,
      );
      expect(failure).toMatch(/^a bare button: button-name \(critical\) at #bare/);

      await page.setContent(`<!doctype html><html lang="en"><head><title>t</title></head>
        <body><main><h1>Cart</h1><button id="named">Checkout</button></main></body></html>`);
      await expectAxeClean(page, "a named button");
    } finally {
      await context.close();
    }
  });

  it("looks from the top of the page, where a sticky header covers nothing, and scrolls back", async () => {
    const { page, context } = await newPage(browser);
    try {
      await page.setContent(`<!doctype html><html lang="en"><head><title>t</title></head>
        <body style="margin:0"><header style="position:sticky;top:0;height:60px;background:#fff">
        <a href="#a" style="display:block;height:60px">Home</a></header>
        <main><h1 style="margin:0;height:20px;font-size:16px">Cart</h1>
        <button style="height:30px">Back</button><div style="height:3000px"></div></main></body></html>`);
      await page.evaluate(() => window.scrollTo(0, 40));
      await expectAxeClean(page, "a button under the sticky header once scrolled");
      expect(await page.evaluate(() => window.scrollY)).toBe(40);
    } finally {
      await context.close();
    }
  });
});
