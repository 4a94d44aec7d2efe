import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fullPageScreenshot,
  hydrated,
  journeyIt,
  launchBrowser,
  LOCALES,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import { builtWorker } from "../support/http.ts";

const base = builtWorker().url;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

describe("platform in Chromium", () => {
  it("switching locale flips <html lang dir> without a reload and keeps the path", async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto(`${base}/en/products`);
    await hydrated(page, "a[hreflang='ar-SA']");
    await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 42));
    expect(await page.getAttribute("html", "lang")).toBe("en-US");
    expect(await page.getAttribute("html", "dir")).toBe("ltr");

    await page.getByRole("link", { name: /Switch language/ }).click();
    await page.waitForURL(`${base}/ar/products`);
    await page.waitForFunction(() => document.documentElement.dir === "rtl");
    expect(await page.getAttribute("html", "lang")).toBe("ar-SA");
    // Same document: the marker set before the switch survives, so there was no reload.
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(42);
    await expect.poll(() => page.locator("h1").first().textContent()).toBe("جميع المنتجات");

    await page.getByRole("link", { name: /تغيير اللغة/ }).click();
    await page.waitForFunction(() => document.documentElement.dir === "ltr");
    expect(await page.getAttribute("html", "lang")).toBe("en-US");
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(42);
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const locale of LOCALES) {
    journeyIt(locale, "en")(
      `${locale}: a landing from a campaign keeps its tags in the address bar, and the language switch leaves them off`,
      async () => {
        const { context, page, errors } = await newPage(browser);
        const other = locale === "en" ? "ar" : "en";
        await page.goto(`${base}/${locale}/products?category=phones&utm_source=newsletter&gclid=click-1`);
        await hydrated(page, "a[hreflang]");
        // The browser's own scripts still see the tags (analytics read them from the address).
        expect(new URL(page.url()).searchParams.get("gclid")).toBe("click-1");
        // After hydration too, the switch carries the view but not the tags (contract/edge.ts, withoutTracking).
        const hrefOf = () => page.locator(".site-header a[hreflang]").getAttribute("href");
        expect(await hrefOf()).toBe(`/${other}/products?category=phones`);
        await page.locator("#filter-brand").selectOption("samsung");
        await page.waitForURL(/brand=samsung/);
        await expect.poll(hrefOf).toBe(`/${other}/products?category=phones&brand=samsung`);
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    it(`home in ${locale}: the layout renders and a screenshot is taken`, async () => {
      const { context, page, errors } = await newPage(browser);
      await page.goto(`${base}/${locale}`);
      await expect.poll(() => page.locator("header.site-header").isVisible()).toBe(true);
      expect(await page.locator("footer.site-footer").isVisible()).toBe(true);
      await fullPageScreenshot(page, `${SCREENSHOTS}/home-${locale}.png`);
      // A narrow phone still lays out without horizontal scrolling.
      await page.setViewportSize({ width: 360, height: 780 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SCREENSHOTS}/home-${locale}-360.png` });
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("the back button returns to the previous route from the history state, or home when there is none", async () => {
    const { context, page } = await newPage(browser);
    const slug = ((await (await fetch(`${base}/backend/products?per_page=1`)).json()) as { data: { slug: string }[] })
      .data[0].slug;
    await page.goto(`${base}/ar/products`);
    await hydrated(page, `a[href="/ar/product-details/${slug}"]`);
    await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 7));
    await page.locator(`a[href="/ar/product-details/${slug}"]`).first().click();
    await page.waitForURL(`${base}/ar/product-details/${slug}`);
    await hydrated(page, "button.back-button");
    await page.locator("button.back-button").click();
    await page.waitForURL(`${base}/ar/products`);
    // The same document: back was a client-side history step, not a reload.
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(7);

    // Landed straight on the product (no history in this tab): back goes to the locale home.
    await page.goto(`${base}/en/product-details/${slug}`);
    await hydrated(page, "button.back-button");
    await page.locator("button.back-button").click();
    await page.waitForURL(`${base}/en`);
    await context.close();
  });

  it("the cart button toggles the drawer and Escape closes it, returning focus", async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${base}/en`);
    await hydrated(page, "button.cart-button");
    const button = page.locator("button.cart-button");
    await button.click();
    await expect.poll(() => page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
    expect(await button.evaluate((b) => b === document.activeElement)).toBe(true);
    await context.close();
  });
});
