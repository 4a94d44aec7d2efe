import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAxeClean } from "../support/axe.ts";
import {
  belowStickyHeader,
  fullPageScreenshot,
  hydrated as waitHydrated,
  journeyIt,
  launchBrowser,
  LOCALES,
  networkQuiet,
  newPage,
  pageIdle,
  saveData,
  SCREENSHOTS,
} from "../support/browser.ts";
import { builtWorker } from "../support/http.ts";

const base = builtWorker().url;
let browser: Browser;
let productSlug = "";

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const res = await fetch(`${base}/backend/products?per_page=1&category=phones`);
  productSlug = ((await res.json()) as { data: { slug: string }[] }).data[0].slug;
});
afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  en: { sent: /Thank you/, next: "Next", send: "Send message" },
  ar: { sent: /شكرًا لك/, next: "التالي", send: "إرسال الرسالة" },
} as const;

/** Hydration of the header's search box: the page is interactive. */
const hydrated = (page: Page, selector = "#site-search") => waitHydrated(page, selector);

/** Under load a view can take a few seconds to settle. */
const WAIT = { timeout: 15_000, interval: 100 };
/** client/prefetch.ts `LINKS_PER_SLICE`: the most prefetch links one idle period inserts. */
const LINKS_PER_SLICE = 4;

const cards = (page: Page) =>
  page
    .locator("article.product-card a.product-card__link")
    .evaluateAll((els) =>
      els.map((e) => decodeURIComponent(new URL((e as HTMLAnchorElement).href).pathname.split("/").pop() ?? "")),
    );

describe("storefront pages in Chromium", () => {
  for (const locale of LOCALES) {
    journeyIt(locale, "en")(
      `${locale}: filter, sort and paginate the list, then go back to each earlier view`,
      async () => {
        const { context, page, errors } = await newPage(browser);
        await page.goto(`${base}/${locale}/products`);
        await hydrated(page);
        const all = await cards(page);

        // A category: the list narrows and the URL says so.
        await page.locator("#filter-category").selectOption("phones");
        await page.waitForURL(/category=phones/);
        await expect.poll(() => cards(page), WAIT).not.toEqual(all);
        const phones = await cards(page);

        // Back to all categories, in stock only, cheapest first: a view with more than one page.
        await page.locator("#filter-category").selectOption("");
        await page.waitForURL((u) => !u.searchParams.has("category"));
        await page.locator('input[name="in_stock"]').check();
        await page.waitForURL(/in_stock=1/);
        await page.locator("#filter-sort").selectOption("price_asc");
        await page.waitForURL(/sort=price_asc/);
        await expect.poll(() => cards(page), WAIT).not.toEqual(all);
        const sorted = await cards(page);
        expect(new URL(page.url()).searchParams.get("in_stock")).toBe("1");

        await page.locator(".pagination").getByRole("link", { name: TEXT[locale].next }).click();
        await page.waitForURL(/page=2/);
        await expect.poll(() => cards(page), WAIT).not.toEqual(sorted);
        expect(await page.locator('.pagination [aria-current="page"]').textContent()).toContain("2");

        // Back: the first page of the sorted view, with its controls showing it.
        await page.goBack();
        await page.waitForURL((u) => !u.searchParams.has("page") && u.searchParams.get("sort") === "price_asc");
        await expect.poll(() => cards(page), WAIT).toEqual(sorted);
        expect(await page.locator("#filter-sort").inputValue()).toBe("price_asc");
        expect(await page.locator('input[name="in_stock"]').isChecked()).toBe(true);

        // Back three more steps: the phones view again.
        await page.goBack();
        await page.waitForURL((u) => !u.searchParams.has("sort") && u.searchParams.get("in_stock") === "1");
        await page.goBack();
        await page.waitForURL((u) => !u.searchParams.has("in_stock") && !u.searchParams.has("category"));
        await page.goBack();
        await page.waitForURL((u) => u.searchParams.get("category") === "phones");
        await expect.poll(() => cards(page), WAIT).toEqual(phones);
        expect(await page.locator("#filter-category").inputValue()).toBe("phones");
        expect(await page.locator("#filter-sort").inputValue()).toBe("relevance");
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    journeyIt(locale, "en")(
      `${locale}: an aborted request nobody waits for is not reported as an error; other rejections are`,
      async () => {
        const { context, page, errors } = await newPage(browser);
        await page.goto(`${base}/${locale}/products`);
        await hydrated(page);
        // What an interrupted navigation leaves behind (client/abort-rejections.ts): an aborted
        // request's promise that nothing observes. Then a real failure, which must still surface.
        await page.evaluate(() => {
          const controller = new AbortController();
          void fetch(location.href, { signal: controller.signal });
          controller.abort();
          setTimeout(() => void Promise.reject(new Error("a real failure")), 50);
        });
        await expect.poll(() => errors.length, WAIT).toBeGreaterThan(0);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toContain("a real failure");
        await context.close();
      },
    );

    journeyIt(locale, "ar")(
      `${locale}: a page-data request the browser cancels is asked once more, and the next page shows`,
      async () => {
        const { context, page, errors } = await newPage(browser);
        await page.goto(`${base}/${locale}/products`);
        await hydrated(page);
        const first = await cards(page);
        // The first request for page 2's data fails as Chromium fails one during quick Back presses
        // (client/data-retry.ts); the ones after it reach the worker.
        // Only the router's fetches count: a <link rel=prefetch> for the same URL is left alone.
        let fetches = 0;
        await page.route(/\/products\.data\?/, (route) =>
          route.request().resourceType() === "fetch" && fetches++ === 0 ? route.abort("failed") : route.continue(),
        );
        await page.locator(".pagination").getByRole("link", { name: TEXT[locale].next }).click();
        await page.waitForURL(/page=2/);
        await expect.poll(() => cards(page), WAIT).not.toEqual(first);
        expect(fetches).toBeGreaterThanOrEqual(2);
        expect(await page.locator(".error-screen").count()).toBe(0);
        expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
        await context.close();
      },
    );

    it(`${locale}: typing ايفون in the header search suggests iPhones, picked with the keyboard`, async () => {
      const { context, page, errors } = await newPage(browser);
      await page.goto(`${base}/${locale}`);
      await hydrated(page);
      const box = page.getByRole("combobox");
      await box.click();
      await box.pressSequentially("ايفون", { delay: 30 });
      const options = page.getByRole("listbox").getByRole("option");
      await expect.poll(() => options.count(), WAIT).toBeGreaterThan(0);
      expect(await box.getAttribute("aria-expanded")).toBe("true");

      await box.press("ArrowDown");
      await box.press("ArrowDown");
      const activeId = await box.getAttribute("aria-activedescendant");
      expect(activeId).toBeTruthy();
      const active = page.locator(`[id="${activeId}"]`);
      expect(await active.getAttribute("aria-selected")).toBe("true");
      const name = (await active.locator(".suggest__name").textContent()) ?? "";
      expect(name.toLowerCase()).toMatch(/iphone|آيفون|ايفون/);

      await box.press("Enter");
      await page.waitForURL(new RegExp(`/${locale}/product-details/`));
      await expect.poll(() => page.locator("h1").textContent(), WAIT).toBe(name);
      expect(await box.getAttribute("aria-expanded")).toBe("false");
      expect(errors).toEqual([]);
      await context.close();
    });

    journeyIt(locale, "en")(
      `${locale}: Escape closes the suggestions and Enter without a pick searches the list`,
      async () => {
        const { context, page } = await newPage(browser);
        await page.goto(`${base}/${locale}/services`);
        await hydrated(page);
        const box = page.getByRole("combobox");
        await box.fill("galaxy");
        await expect.poll(() => box.getAttribute("aria-expanded"), WAIT).toBe("true");
        await box.press("Escape");
        expect(await box.getAttribute("aria-expanded")).toBe("false");
        await box.press("Enter");
        await page.waitForURL(new RegExp(`/${locale}/products\\?q=galaxy`));
        await expect.poll(async () => (await cards(page)).length, WAIT).toBeGreaterThan(0);
        await context.close();
      },
    );

    it(`${locale}: from the home page, تلفزيونات in the header search lists the televisions, counted in the language's plural`, async () => {
      const { context, page } = await newPage(browser);
      await page.goto(`${base}/${locale}`);
      await hydrated(page);
      const box = page.getByRole("combobox");
      await box.fill("تلفزيونات");
      // The suggestions already know the televisions; Enter without a pick searches the list.
      await expect.poll(() => box.getAttribute("aria-expanded"), WAIT).toBe("true");
      await box.press("Escape");
      await box.press("Enter");
      await page.waitForURL(new RegExp(`/${locale}/products\\?q=`));
      await expect.poll(async () => (await cards(page)).length, WAIT).toBe(6);
      // Six televisions: «6 منتجات» (Arabic's "few" form), "6 products".
      expect(await page.locator(".catalogue__count").textContent()).toContain(
        locale === "ar" ? "6 منتجات" : "6 products",
      );
      await fullPageScreenshot(page, `${SCREENSHOTS}/search-tv-${locale}.png`);
      await context.close();
    });

    journeyIt(locale, "ar")(
      `${locale}: the facet counts are what choosing them shows: a price band, in stock, a brand`,
      async () => {
        const { context, page } = await newPage(browser);
        // The cards shown (a page holds 12; the phones and their refinements fit on one).
        const total = async () => (await cards(page)).length;
        const countIn = (text: string | null) => Number((text ?? "").match(/\((\d+)\)\s*$/)?.[1] ?? -1);
        await page.goto(`${base}/${locale}/products?category=phones`);
        await hydrated(page);
        const band = page.locator(".filters__bands a").first();
        const bandCount = countIn(await band.textContent());
        expect(bandCount).toBeGreaterThan(0);
        await band.click();
        await page.waitForURL((u) => u.searchParams.has("min_price"));
        await expect.poll(total, WAIT).toBe(bandCount);
        await page.goto(`${base}/${locale}/products?category=phones`);
        await hydrated(page);
        // The chosen category names the page: its heading, its last crumb and its title.
        const phones = locale === "en" ? "Phones" : "الهواتف";
        expect(await page.locator("h1").textContent()).toBe(phones);
        expect(await page.locator("nav.breadcrumbs li").last().textContent()).toContain(phones);
        expect(await page.title()).toContain(phones);
        // The in-stock box of the filters' row (the attributes' boxes are below it).
        const inStockBox = page.locator(".filters__row .filters__check");
        const inStock = countIn(await inStockBox.textContent());
        await inStockBox.locator("input").check();
        await page.waitForURL((u) => u.searchParams.get("in_stock") === "1");
        await expect.poll(total, WAIT).toBe(inStock);
        const samsung = countIn(await page.locator('#filter-brand option[value="samsung"]').textContent());
        await page.locator("#filter-brand").selectOption("samsung");
        await page.waitForURL((u) => u.searchParams.get("brand") === "samsung");
        await expect.poll(total, WAIT).toBe(samsung);
        await fullPageScreenshot(page, `${SCREENSHOTS}/facets-${locale}.png`);
        await context.close();
      },
    );

    journeyIt(locale, "ar")(
      `${locale}: a misspelt brand finds the brand and says what it searched for; a search with no result says so`,
      async () => {
        const { context, page } = await newPage(browser);
        await page.goto(`${base}/${locale}/products?q=samsng`);
        await hydrated(page);
        expect((await cards(page)).length).toBeGreaterThan(0);
        const notice = (await page.locator(".notice[role=status]").textContent()) ?? "";
        expect(notice).toContain("samsng");
        expect(notice).toContain("samsung");
        // One sentence on one line: the words it quotes stay inline in it, whichever stylesheets the
        // page has loaded (a grid notice once put each of them on a line of its own).
        const quoted = await page.locator(".notice[role=status] bdi").evaluateAll((els) =>
          els.map((el) => ({
            display: getComputedStyle(el).display,
            top: Math.round(el.getBoundingClientRect().top),
          })),
        );
        expect(quoted.map((q) => q.display)).toEqual(["inline", "inline"]);
        expect(new Set(quoted.map((q) => q.top)).size).toBe(1);
        await fullPageScreenshot(page, `${SCREENSHOTS}/search-typo-${locale}.png`);
        await page.goto(`${base}/${locale}/products?q=zzqqxx`);
        await hydrated(page);
        expect(await cards(page)).toEqual([]);
        expect(await page.locator("#empty-title").textContent()).toContain("zzqqxx");
        // It offers the categories instead of a "clear the filters" that were never set.
        expect(await page.locator(".empty-state__links a").count()).toBeGreaterThan(3);
        await fullPageScreenshot(page, `${SCREENSHOTS}/search-empty-${locale}.png`);
        await context.close();
      },
    );

    journeyIt(locale, "ar")(`${locale}: the contact form sends and says so in a toast`, async () => {
      const { context, page, errors } = await newPage(browser);
      await page.goto(`${base}/${locale}/contact-us`);
      await hydrated(page);
      await page.locator("#contact-name").fill(locale === "ar" ? "سارة أحمد" : "Sara Ahmed");
      await page.locator("#contact-email").fill(`sara.${locale}@example.com`);
      await page.locator("#contact-subject").fill(locale === "ar" ? "سؤال عن طلب" : "A question about an order");
      await page
        .locator("#contact-message")
        .fill(
          locale === "ar"
            ? "أود معرفة موعد توصيل طلبي من فضلكم."
            : "I would like to know when my order will arrive, please.",
        );
      await page.getByRole("button", { name: TEXT[locale].send }).click();
      await expect
        .poll(() => page.locator("[data-sonner-toast]").allTextContents(), WAIT)
        .toContainEqual(expect.stringMatching(TEXT[locale].sent));
      // Toasts use the shop's font stack (with its Arabic faces), not sonner's own.
      const fonts = await page.evaluate(() => [
        getComputedStyle(document.body).fontFamily,
        getComputedStyle(document.querySelector("[data-sonner-toast]")!).fontFamily,
      ]);
      expect(fonts[1]).toBe(fonts[0]);
      // sonner's direction-dependent spacing comes from the toaster's own dir (vite.config.ts
      // scopes its rules there, off <html>): mirrored in Arabic.
      const iconMargin = await page.evaluate(() =>
        getComputedStyle(document.querySelector("[data-sonner-toast]")!)
          .getPropertyValue("--toast-icon-margin-start")
          .trim(),
      );
      expect(iconMargin).toBe(locale === "ar" ? "4px" : "-3px");
      // The form is ready for another message.
      expect(await page.locator("#contact-message").inputValue()).toBe("");
      expect(errors).toEqual([]);
      await context.close();
    });

    journeyIt(locale, "en")(
      `${locale}: the contact form refuses an empty message and an invalid email on the fields`,
      async () => {
        const { context, page } = await newPage(browser);
        await page.goto(`${base}/${locale}/contact-us`);
        await hydrated(page);
        await page.locator("#contact-email").fill("not-an-email");
        // Leaving the field shows its message at once (the layout moves), then the shopper sends.
        await page.locator("#contact-email").press("Tab");
        await expect.poll(() => page.locator("#contact-email").getAttribute("aria-invalid"), WAIT).toBe("true");
        await page.getByRole("button", { name: TEXT[locale].send }).click();
        await expect.poll(() => page.locator("#contact-email").getAttribute("aria-invalid"), WAIT).toBe("true");
        await expect.poll(() => page.locator("#contact-message").getAttribute("aria-invalid"), WAIT).toBe("true");
        await expect.poll(() => page.locator("#contact-name").getAttribute("aria-invalid"), WAIT).toBe("true");
        await context.close();
      },
    );

    it(`${locale}: home, list and product look right (screenshots) and fit a 360 px phone`, async () => {
      const { context, page, errors } = await newPage(browser);
      for (const [name, path] of [
        ["home", `/${locale}`],
        ["products", `/${locale}/products`],
        ["product", `/${locale}/product-details/${productSlug}`],
      ] as const) {
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`${base}${path}`);
        await hydrated(page);
        await networkQuiet(page);
        await fullPageScreenshot(page, `${SCREENSHOTS}/storefront-${name}-${locale}.png`);
        await page.setViewportSize({ width: 360, height: 780 });
        await expect
          .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), WAIT)
          .toBeLessThanOrEqual(0);
        await fullPageScreenshot(page, `${SCREENSHOTS}/storefront-${name}-${locale}-360.png`);
        // No image without its size: nothing shifts as images load.
        const unsized = await page
          .locator("main img")
          .evaluateAll((imgs) => imgs.filter((i) => !i.getAttribute("width") || !i.getAttribute("height")).length);
        expect(unsized, name).toBe(0);
      }
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`${locale}: a link to a part of the page (the product's reviews, the skip link) brings it into view below the sticky header, page after page in one tab, on a phone and a desktop`, async () => {
      // What the rating's link (href="#reviews") does, for a product with or without reviews: a
      // native fragment navigation, which the browser scrolls and the router sees as a pop.
      const toReviews = async (page: Page, message: string) => {
        await page.evaluate(() => (location.hash = "reviews"));
        await expect.poll(() => page.evaluate(() => scrollY > 0), { ...WAIT, message }).toBe(true);
        // Below the header once the sections above it have rendered (they are drawn lazily), and
        // still there once the page is idle: the router handles the jump after the browser has.
        await expect.poll(() => belowStickyHeader(page, "#reviews"), { ...WAIT, message }).toBe(true);
        await pageIdle(page);
        expect(await belowStickyHeader(page, "#reviews"), message).toBe(true);
      };
      for (const width of [360, 1280]) {
        const { context, page, errors } = await newPage(browser);
        await page.setViewportSize({ width, height: 780 });
        await page.goto(`${base}/${locale}/product-details/${productSlug}`);
        await hydrated(page);
        await toReviews(page, `${width} px, first product`);
        expect(await page.locator(".site-header").evaluate((h) => h.getBoundingClientRect().height)).toBeGreaterThan(
          60,
        );
        await page.screenshot({ path: `${SCREENSHOTS}/storefront-reviews-anchor-${locale}-${width}.png` });
        // Another product through the breadcrumbs and the list, without a reload: its own reviews
        // come into view, not the place the shopper left the first product's page at.
        await page.evaluate(() => scrollBy(0, -300));
        await page.locator(".breadcrumbs a").last().click();
        await page.waitForURL((u) => u.pathname.endsWith("/products"));
        const other = page.locator(`a.product-card__link:not([href$="/${productSlug}"])`).first();
        await other.click();
        await page.waitForURL((u) => u.pathname.includes("/product-details/") && !u.pathname.endsWith(productSlug));
        await page.waitForSelector("#reviews");
        await toReviews(page, `${width} px, second product`);
        // Back to that product's top and forward to its reviews again: each where it was left.
        await page.goBack();
        await expect.poll(() => page.evaluate(() => scrollY), { ...WAIT, message: `${width} px, back` }).toBe(0);
        await page.goForward();
        await expect
          .poll(() => belowStickyHeader(page, "#reviews"), { ...WAIT, message: `${width} px, forward` })
          .toBe(true);
        // The skip link after both, activated where the shopper is, as a screen reader does (a
        // keyboard's focus would first scroll to the link at the top): the main content comes to
        // the top, and stays there once the router has handled the jump, rather than going to a
        // place saved for another fragment link.
        await page.evaluate(() => document.querySelector<HTMLAnchorElement>(".skip-link")!.click());
        await page.waitForURL((u) => u.hash === "#main");
        await pageIdle(page);
        expect(await page.evaluate(() => scrollY), `${width} px, skip link`).toBeLessThan(2);
        expect(errors).toEqual([]);
        await context.close();
      }
    });

    journeyIt(locale, "en")(`${locale}: the quantity picker stays within stock and the per-order maximum`, async () => {
      const { context, page } = await newPage(browser);
      const res = await fetch(`${base}/backend/products/${productSlug}`);
      const p = ((await res.json()) as { data: { stock: number; max_per_order: number } }).data;
      const max = Math.min(p.stock, p.max_per_order);
      await page.goto(`${base}/${locale}/product-details/${productSlug}`);
      await hydrated(page);
      const input = page.locator("#quantity");
      await input.fill("999");
      await expect.poll(() => input.inputValue(), WAIT).toBe(String(max));
      const plus = page.locator(".quantity__step").last();
      expect(await plus.isDisabled()).toBe(true);
      await context.close();
    });

    journeyIt(locale, "en")(
      `${locale}: once the page is idle, the product links in view prefetch their page's data, and no others; following one requests exactly that URL`,
      async () => {
        // A first visit: no service worker controls the page (under one it works the same;
        // test/e2e/pwa.e2e.ts).
        const { context, page, errors } = await newPage(browser, { prefetch: true });
        // Every script the page asks for, from the start: none may be asked for twice.
        const scripts: string[] = [];
        page.on("request", (r) => {
          if (/\/assets\/[^/]+\.js$/.test(new URL(r.url()).pathname)) scripts.push(r.url());
        });
        // How many prefetch links go into the document at a time (one observer call per task).
        await page.addInitScript(() => {
          const batches: number[] = [];
          (window as unknown as { prefetchBatches: number[] }).prefetchBatches = batches;
          new MutationObserver((records) => {
            const added = records
              .flatMap((r) => [...r.addedNodes])
              .filter((n) => n instanceof HTMLLinkElement && n.hasAttribute("data-prefetch")).length;
            if (added > 0) batches.push(added);
          }).observe(document, { childList: true, subtree: true });
        });
        await page.goto(`${base}/${locale}/products`);
        await hydrated(page);
        // client/Prefetcher.tsx renders React Router's <PrefetchPageLinks> for a visible link's page:
        // a <link rel="prefetch"> for its `.data` and module preloads.
        const prefetched = () =>
          page
            .locator('link[rel="prefetch"][href*=".data"]')
            .evaluateAll((els) =>
              els
                .map((e) => new URL((e as HTMLLinkElement).href))
                .map((u) => ({ path: u.pathname, url: u.pathname + u.search })),
            );
        await expect
          .poll(async () => (await prefetched()).some((p) => p.path.startsWith(`/${locale}/product-details/`)), WAIT)
          .toBe(true);
        const visible = await page.locator("article.product-card a.product-card__link").evaluateAll((els) =>
          els
            .filter((e) => {
              const r = e.getBoundingClientRect();
              return r.bottom > 0 && r.top < innerHeight;
            })
            .map((e) => new URL((e as HTMLAnchorElement).href).pathname),
        );
        const below = await page
          .locator("article.product-card a.product-card__link")
          .evaluateAll((els) =>
            els
              .filter((e) => e.getBoundingClientRect().top > innerHeight * 2)
              .map((e) => new URL((e as HTMLAnchorElement).href).pathname),
          );
        const fetched = await prefetched();
        const paths = fetched.map((p) => p.path);
        expect(visible.some((p) => paths.includes(`${p}.data`))).toBe(true);
        for (const p of below) expect(paths).not.toContain(`${p}.data`);

        // The prefetch preloads the target's route module, and fetches each module once: none the
        // page already had is asked for again (React Router's markup names the framework and shared
        // modules too; the browser's module map answers them without a request).
        const added = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"][data-prefetch]')].map(
            (e) => e.href,
          ),
        );
        expect(added.some((h) => /\/assets\/product-details\._slug-[\w-]+\.js$/.test(h))).toBe(true);
        await expect
          .poll(() => scripts.some((u) => /\/assets\/product-details\._slug-[\w-]+\.js$/.test(u)), WAIT)
          .toBe(true);
        expect(scripts.filter((u, i) => scripts.indexOf(u) !== i)).toEqual([]);
        // A few links per idle period (client/prefetch.ts `copyLinksToHead`), never a page's
        // dozens in one task: each starts its request as it goes in.
        const batches = await page.evaluate(() => (window as unknown as { prefetchBatches: number[] }).prefetchBatches);
        expect(batches.reduce((a, b) => a + b, 0)).toBeGreaterThan(LINKS_PER_SLICE * 2);
        expect(Math.max(...batches)).toBeLessThanOrEqual(LINKS_PER_SLICE);

        // Following a prefetched link requests exactly the prefetched URL, so the prefetch cache answers.
        const target = visible.find((p) => paths.includes(`${p}.data`));
        const prefetchedUrl = fetched.find((p) => p.path === `${target}.data`)?.url;
        const dataRequests: string[] = [];
        page.on("request", (r) => {
          const u = new URL(r.url());
          if (u.pathname.endsWith(".data")) dataRequests.push(u.pathname + u.search);
        });
        await page.locator(`article.product-card a.product-card__link[href="${target}"]`).first().click();
        await page.waitForURL(`**${target}`);
        // (The shop layout's clientLoader asks for its own data in a request of its own.)
        await expect.poll(() => dataRequests, WAIT).toContain(prefetchedUrl);
        // The list's prefetches leave the head with the list: none for the page now shown is left.
        await expect.poll(() => page.locator(`head link[data-prefetch][href^="${target}.data"]`).count(), WAIT).toBe(0);
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    journeyIt(locale, "ar")(
      `${locale}: §9 link prefetch is on by default, on visibility: any shop link prefetches once in view (the header's now, the footer's only once scrolled to)`,
      async () => {
        const { context, page, errors } = await newPage(browser, { prefetch: true });
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.goto(`${base}/${locale}`);
        await hydrated(page);
        const prefetched = () =>
          page
            .locator('link[rel="prefetch"][href*=".data"]')
            .evaluateAll((els) => els.map((e) => new URL((e as HTMLLinkElement).href).pathname));
        // The header's services link is a plain <Link>: nothing opts it in.
        await expect.poll(async () => (await prefetched()).includes(`/${locale}/services.data`), WAIT).toBe(true);
        // The footer's content-pages link is below the fold: not yet.
        expect(await prefetched()).not.toContain(`/${locale}/page.data`);
        await page.locator("#site-footer").scrollIntoViewIfNeeded();
        await expect.poll(async () => (await prefetched()).includes(`/${locale}/page.data`), WAIT).toBe(true);
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    journeyIt(locale, "en")(
      `${locale}: on Save-Data nothing is prefetched, and nothing before the page has loaded`,
      async () => {
        for (const on of [true, false]) {
          const { context, page, errors } = await newPage(browser, { prefetch: true });
          await page.addInitScript(saveData, on);
          await page.addInitScript(() => {
            // Records whether a prefetch <link> shows up before the load event.
            new MutationObserver(() => {
              if (document.readyState !== "complete" && document.querySelector("link[data-prefetch]"))
                (window as unknown as { __early: boolean }).__early = true;
            }).observe(document, { childList: true, subtree: true });
          });
          await page.goto(`${base}/${locale}/products`);
          await hydrated(page);
          const count = () => page.locator('link[rel="prefetch"], link[data-prefetch]').count();
          if (on) {
            await page.waitForTimeout(4000);
            expect(await count()).toBe(0);
          } else await expect.poll(count, WAIT).toBeGreaterThan(0);
          expect(await page.evaluate(() => (window as unknown as { __early?: boolean }).__early ?? false)).toBe(false);
          expect(errors).toEqual([]);
          await context.close();
        }
      },
    );

    journeyIt(locale, "ar")(
      `${locale}: home, list and product pages hydrate without building an Intl.NumberFormat (their prices come formatted)`,
      async () => {
        const { context, page } = await newPage(browser);
        // Count constructions; the first one on a page costs 15-70 ms of main thread.
        await page.addInitScript(() => {
          const Original = Intl.NumberFormat;
          const w = window as unknown as { __numberFormats: number };
          w.__numberFormats = 0;
          function Counting(...args: ConstructorParameters<typeof Intl.NumberFormat>): Intl.NumberFormat {
            w.__numberFormats += 1;
            return new Original(...args);
          }
          Counting.prototype = Original.prototype;
          Object.assign(Counting, Original);
          Intl.NumberFormat = Counting as unknown as typeof Intl.NumberFormat;
        });
        for (const path of ["", "/products", `/product-details/${productSlug}`, "/services"]) {
          await page.goto(`${base}/${locale}${path}`);
          await hydrated(page);
          await expect.poll(() => page.locator(".price bdi").count(), WAIT).toBeGreaterThan(0);
          expect(
            await page.evaluate(() => (window as unknown as { __numberFormats: number }).__numberFormats),
            path,
          ).toBe(0);
        }
        // The counter does count: a price formatted in the page now builds one.
        expect(
          await page.evaluate(
            () => (
              new Intl.NumberFormat("en").format(1),
              (window as unknown as { __numberFormats: number }).__numberFormats
            ),
          ),
        ).toBe(1);
        await context.close();
      },
    );

    it(`${locale}: every text on home, list, product and service pages renders in the shop's own faces, with no fallback font`, async () => {
      // A character the font stack's faces lack (← U+2190, − U+2212, ✓ U+2713 were) sends Chromium
      // through every family of the stack and the system's fallback search on the first layout.
      const { context, page } = await newPage(browser);
      const cdp = await context.newCDPSession(page);
      await cdp.send("DOM.enable");
      await cdp.send("CSS.enable");
      const used: Record<string, string[]> = {};
      for (const path of ["", "/products", `/product-details/${productSlug}`, "/services/device-repair"]) {
        await page.goto(`${base}/${locale}${path}`);
        await hydrated(page);
        type DomNode = {
          nodeId: number;
          nodeType: number;
          nodeValue?: string;
          pseudoElements?: DomNode[];
          children?: DomNode[];
        };
        const { root } = (await cdp.send("DOM.getDocument", { depth: -1, pierce: false })) as { root: DomNode };
        // Elements with text of their own, and ::before/::after boxes (they may draw characters too).
        const withText: number[] = [];
        const walk = (n: DomNode) => {
          if (n.nodeType === 1 && n.children?.some((c) => c.nodeType === 3 && c.nodeValue?.trim()))
            withText.push(n.nodeId);
          for (const p of n.pseudoElements ?? []) withText.push(p.nodeId);
          for (const c of n.children ?? []) walk(c);
        };
        walk(root);
        expect(withText.length).toBeGreaterThan(50);
        const fontsOf = async (nodeId: number) =>
          (
            (await cdp.send("CSS.getPlatformFontsForNode", { nodeId }).catch(() => ({ fonts: [] }))) as {
              fonts: { familyName: string }[];
            }
          ).fonts.map((f) => f.familyName);
        // The shop's two faces as this machine resolves the stack: the header's name and the
        // language switch, one in each script whichever the page's language.
        const faces = new Set<string>();
        for (const selector of [".site-header__name", `.site-header__actions a[hreflang]`]) {
          const { nodeId } = (await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector })) as {
            nodeId: number;
          };
          for (const f of await fontsOf(nodeId)) faces.add(f);
        }
        expect(faces.size, [...faces].join(", ")).toBeGreaterThan(0);
        const others = new Set<string>();
        for (const nodeId of withText) for (const f of await fontsOf(nodeId)) if (!faces.has(f)) others.add(f);
        used[path || "/"] = [...others];
      }
      expect(used).toEqual({
        "/": [],
        "/products": [],
        [`/product-details/${productSlug}`]: [],
        "/services/device-repair": [],
      });
      await context.close();
    });

    // One test per page: ten axe runs in one test came within seconds of its 60 s on a loaded machine.
    for (const path of [
      "",
      "/products",
      "/product-details/{product}",
      "/services",
      "/services/device-repair",
      "/page",
      "/page/terms",
      "/about-us",
      "/contact-us",
      "/product-details",
    ]) {
      it(`${locale}: no serious or critical accessibility violations on the storefront page ${path || "/"}`, async () => {
        const { context, page } = await newPage(browser);
        await page.goto(`${base}/${locale}${path.replace("{product}", productSlug)}`);
        await hydrated(page);
        await expectAxeClean(page);
        await context.close();
      });
    }
  }
});
