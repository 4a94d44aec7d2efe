import { mkdirSync } from "node:fs";
import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import ar from "../../locales/ar.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import {
  contextWithoutServiceWorkers,
  hydrated,
  journeyIt,
  launchBrowser,
  LOCALES,
  SCREENSHOTS,
} from "../support/browser.ts";
import { builtWorker } from "../support/http.ts";

const base = builtWorker().url;
const MESSAGES = { en, ar } as const;

interface Product {
  id: number;
  slug: string;
  stock: number;
  /** Several: a product whose variants are chosen on its page (these fixtures take one of one). */
  variant_count?: number;
  max_per_order: number;
}

function eventually<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 50 });
}

function drawerOpen(page: Page): Promise<boolean> {
  return page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open);
}

let browser: Browser;
let products: Product[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=24&sort=newest`, {
    headers: { "content-language": "en" },
  });
  products = ((await res.json()) as { data: Product[] }).data.filter(
    (p) => (p.variant_count ?? 1) === 1 && p.stock >= 5 && p.max_per_order >= 2,
  );
  expect(products.length).toBeGreaterThanOrEqual(LOCALES.length);
});

afterAll(async () => {
  await browser?.close();
});

describe("cart drawer in Chromium", () => {
  for (const [index, locale] of LOCALES.entries()) {
    journeyIt(locale, "en")(
      `${locale}: the drawer opens at once even while its line list is still loading, says so, then shows the line`,
      async () => {
        const product = products[index];
        // No service worker, so every chunk request goes through the page and can be held back.
        const context = await contextWithoutServiceWorkers(browser, { viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(String(e)));
        try {
          // The line list's chunk is held until the drawer has been seen open without it.
          let release!: () => void;
          const held = new Promise<void>((resolve) => (release = resolve));
          let requested = false;
          await page.route(/\/assets\/CartDrawerLines-[\w-]+\.js$/, async (route: Route) => {
            requested = true;
            await held;
            await route.continue();
          });

          await page.goto(`${base}/${locale}/product-details/${product.slug}`);
          await hydrated(page, ".add-to-cart__button");
          // Hydration starts loading the list on its own, before anyone opens the drawer.
          await eventually(() => requested).toBe(true);

          await page.locator(".add-to-cart__button").click();
          await eventually(() => drawerOpen(page)).toBe(true);
          const busy = page.locator('#cart-drawer [role="status"][aria-busy="true"]');
          await eventually(() => busy.textContent()).toBe(MESSAGES[locale].cart.loadingLines);
          expect(await page.locator("#cart-drawer .cart-line").count()).toBe(0);
          // The screenshot shows the drawer once it has slid in.
          await eventually(() =>
            page.evaluate(() => document.getAnimations().filter((a) => a.playState === "running").length),
          ).toBe(0);
          await page.screenshot({ path: `${SCREENSHOTS}/cart-drawer-loading-${locale}.png` });

          release();
          await eventually(() => page.locator(`#cart-drawer [data-product-id="${product.id}"]`).count()).toBe(1);
          expect(await busy.count()).toBe(0);
          await page.screenshot({ path: `${SCREENSHOTS}/cart-drawer-lines-${locale}.png` });

          // Still a modal dialog: Escape closes it.
          await page.keyboard.press("Escape");
          await eventually(() => drawerOpen(page)).toBe(false);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      },
    );

    journeyIt(locale, "ar")(
      `${locale}: the empty drawer looks the same on a catalogue page as on the contact page`,
      async () => {
        // .empty-state was defined in cart.css and again in catalogue.css: where both were loaded
        // (a catalogue page), the drawer's empty state took the catalogue's dashed box.
        const context = await contextWithoutServiceWorkers(browser, { viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        try {
          const looks: Record<string, string>[] = [];
          for (const path of ["products?category=phones", "contact-us"]) {
            await page.goto(`${base}/${locale}/${path}`);
            const cartButton = 'button[aria-controls="cart-drawer"]';
            await hydrated(page, cartButton);
            await page.locator(cartButton).click();
            const empty = page.locator("#cart-drawer .empty-state");
            await eventually(() => empty.isVisible()).toBe(true);
            expect(await empty.textContent()).toContain(MESSAGES[locale].cart.empty);
            looks.push(
              await empty.evaluate((el) => {
                const style = getComputedStyle(el);
                return {
                  display: style.display,
                  border: style.borderTopStyle,
                  padding: style.paddingTop,
                  background: style.backgroundColor,
                  align: style.textAlign,
                };
              }),
            );
          }
          expect(looks[0]).toEqual(looks[1]);
          expect(looks[0]).toMatchObject({ display: "grid", border: "none", align: "center" });
        } finally {
          await context.close();
        }
      },
    );
  }
});
