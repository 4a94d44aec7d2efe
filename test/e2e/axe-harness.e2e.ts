import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAxeClean } from "../support/axe.ts";
import { launchBrowser, newPage } from "../support/browser.ts";

/**
 * The accessibility check every journey leans on: it must fail on a page that has a serious
 * violation (it looks twice, so a finding has to persist), name the rule in the first line of the
 * failure, and pass a clean page.
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
});
