import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import en from "../../locales/en.json" with { type: "json" };
import ar from "../../locales/ar.json" with { type: "json" };
import { expectAxeClean, seriousViolations } from "../support/axe.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyIt,
  launchBrowser,
  LOCALES,
  networkQuiet,
  newPage,
  SCREENSHOTS,
  type Locale,
} from "../support/browser.ts";
import {
  consoleHttpSession,
  newStaffAccounts,
  registerAccount,
  STAFF_PASSWORD,
  verifyAccount,
} from "../support/console-browser.ts";
import { builtWorker, visitorIp } from "../support/http.ts";

/**
 * The wishlist and recently viewed in Chromium: a guest's hearts merge into the account on
 * sign-in, the list says what changed since saving (a price staff lowered), a shared link opens
 * read-only elsewhere and stops when revoked, a heart pressed offline reaches the account once the
 * connection returns, and the products viewed last show on the home page and on a product's page.
 */
const base = builtWorker().url;
const messages = { en, ar } as const;
const WAIT = { timeout: 15_000, interval: 100 };
/** Riyals as the English shop writes them (app/lib/money.ts). */
const riyals = (halalas: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "SAR" }).format(halalas / 100);
let browser: Browser;
let products: { id: number; slug: string; name: string; price: number }[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const res = await fetch(`${base}/backend/products?per_page=40&in_stock=1`, {
    headers: { accept: "application/json", "cf-connecting-ip": visitorIp() },
  });
  const { data } = (await res.json()) as {
    data: { id: number; slug: string; name: string; price: number; variant_count?: number }[];
  };
  // Products of one variant, so a card's heart and the list's add to cart need no choice.
  products = data.filter((p) => (p.variant_count ?? 1) === 1);
  expect(products.length).toBeGreaterThan(12);
});
afterAll(async () => {
  await browser?.close();
});

/** Each journey its own products, so journeys in parallel files never share a price or a list. */
let taken = 0;
const fresh = (n: number) => {
  const out = products.slice(taken, taken + n);
  taken += n;
  return out;
};

const api = (token?: string) => ({
  accept: "application/json",
  "content-type": "application/json",
  origin: base,
  "cf-connecting-ip": visitorIp(),
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

/** A verified account, signed in over HTTP for the test's own checks. */
async function account(name: string): Promise<{ email: string; token: string }> {
  const email = `wish-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  await registerAccount(base, email, name);
  await verifyAccount(base, email);
  const res = await fetch(`${base}/backend/client/auth/login`, {
    method: "POST",
    headers: api(),
    body: JSON.stringify({ email, password: STAFF_PASSWORD }),
  });
  const { data } = (await res.json()) as { data: { auth_data: { access_token: string } } };
  return { email, token: data.auth_data.access_token };
}

async function accountSlugs(token: string): Promise<string[]> {
  const res = await fetch(`${base}/backend/client/wishlist`, { headers: api(token) });
  const { data } = (await res.json()) as { data: { items: { slug: string }[] } };
  return data.items.map((i) => i.slug).sort();
}

async function signIn(page: Page, locale: Locale, email: string): Promise<void> {
  await page.goto(`${base}/${locale}/auth/login`);
  await hydrated(page, "form.auth-form");
  await page.locator("input[name=email]").fill(email);
  await page.locator("input[name=password]").fill(STAFF_PASSWORD);
  await page.locator("form.auth-form button[type=submit]").click();
  await page.waitForURL((url) => !url.pathname.endsWith("/auth/login"));
}

const heartOf = (page: Page, slug: string) =>
  page
    .locator("article.product-card", {
      has: page.locator(`a[href$="/product-details/${slug}"], a[href*="/product-details/${slug}?"]`),
    })
    .locator(".wishlist-heart");
const headerCount = (page: Page) => page.locator(".icon-button--wishlist .badge").textContent();

/** Staff move a product's price by a percentage through the console's API (the bulk edit). */
async function movePrice(staffToken: string, id: number, body: unknown): Promise<void> {
  const res = await fetch(`${base}/backend/admin/products/bulk`, {
    method: "POST",
    headers: api(staffToken),
    body: JSON.stringify({ ids: [id], price: body }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe("the wishlist in Chromium", () => {
  for (const locale of LOCALES) {
    const t = messages[locale].wishlist;

    journeyIt(locale, "ar")(
      `(${locale}) a guest's two hearts join the account's one on sign-in; a lower price shows; a shared link is read-only until revoked`,
      async () => {
        const [a, b, c] = fresh(3);
        const { email, token } = await account("Layla Haddad");
        // The account already holds one other product.
        const seeded = await fetch(`${base}/backend/client/wishlist/add`, {
          method: "POST",
          headers: api(token),
          body: JSON.stringify({ slug: c.slug }),
        });
        expect(seeded.status).toBe(200);

        // Staff made before the browser starts: seating them writes the worker's database file directly.
        const [staffEmail] = Object.values(await newStaffAccounts(base, { pricer: "manager" }));
        const { token: staffToken } = await consoleHttpSession(base, staffEmail);

        const { context, page, errors } = await newPage(browser);
        // A guest hearts one product on the list and one on its own page.
        await page.goto(`${base}/${locale}/products?q=${encodeURIComponent(a.name)}`);
        await hydrated(page, ".wishlist-heart");
        await heartOf(page, a.slug).click();
        await expect.poll(() => heartOf(page, a.slug).getAttribute("aria-pressed"), WAIT).toBe("true");
        await page.goto(`${base}/${locale}/product-details/${b.slug}`);
        await hydrated(page, ".product__title .wishlist-heart");
        await page.locator(".product__title .wishlist-heart").click();
        await expect.poll(() => headerCount(page), WAIT).toBe("2");
        // The guest's list is this browser's: a reload keeps it.
        await page.reload();
        await hydrated(page, ".product__title .wishlist-heart");
        await expect
          .poll(() => page.locator(".product__title .wishlist-heart").getAttribute("aria-pressed"), WAIT)
          .toBe("true");
        await expect.poll(() => headerCount(page), WAIT).toBe("2");

        await signIn(page, locale, email);
        await expect.poll(() => accountSlugs(token), WAIT).toEqual([a.slug, b.slug, c.slug].sort());
        // The browser's copy now mirrors the account's.
        await expect.poll(() => headerCount(page), WAIT).toBe("3");

        // Staff lower the price of one saved product by a fifth: the list says so.
        await movePrice(staffToken, a.id, { mode: "percent", percent: -20 });
        try {
          const lower = Math.round(a.price * 0.8);
          await page.goto(`${base}/${locale}/wishlist`);
          await expect.poll(() => page.locator(".wishlist__item").count(), WAIT).toBe(3);
          const dropped = page.locator(".wishlist__change--price_dropped");
          await expect.poll(() => dropped.count(), WAIT).toBe(1);
          const said = (await dropped.textContent())!.replace(/\s+/g, " ");
          expect(said).toContain(t.priceDropped.split("{{")[0].trim());
          if (locale === "en")
            expect(said).toBe(`Price dropped from ${riyals(a.price)} to ${riyals(lower)}`.replace(/\s+/g, " "));
          await expectAxeClean(page);

          // Share: the link is copied or, refused the clipboard, shown to copy by hand.
          await page.getByRole("button", { name: t.share }).click();
          const field = page.getByLabel(t.shareLink);
          await expect.poll(() => field.inputValue(), WAIT).toMatch(/\/wishlist\/shared\/[A-Za-z0-9_-]{43}$/);
          const link = await field.inputValue();

          const visitor = await newPage(browser, { viewport: { width: 390, height: 844 } });
          await visitor.page.goto(link);
          expect(await visitor.page.locator("h1").textContent()).toBe(t.sharedTitleOf.replace("{{name}}", "Layla"));
          expect(await visitor.page.locator(".wishlist__item").count()).toBe(3);
          // Read-only: nothing to remove, no share buttons, and no personal details.
          expect(await visitor.page.getByRole("button", { name: t.remove }).count()).toBe(0);
          expect(await visitor.page.locator(".wishlist-share").count()).toBe(0);
          const html = await visitor.page.content();
          expect(html).not.toContain(email);
          expect(html).not.toContain("Haddad");
          expect(await visitor.page.locator('meta[name="robots"]').getAttribute("content")).toContain("noindex");
          expect(await seriousViolations(visitor.page)).toEqual([]);

          await page.getByRole("button", { name: t.shareRevoke }).click();
          await expect.poll(() => page.getByRole("button", { name: t.share }).count(), WAIT).toBe(1);
          const gone = await visitor.page.goto(link);
          expect(gone?.status()).toBe(404);
          expect(await visitor.page.getByText(t.sharedGone).count()).toBe(1);
          await visitor.context.close();
        } finally {
          await movePrice(staffToken, a.id, { mode: "set", amount: a.price });
        }
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    journeyIt(locale, "en")(
      `(${locale}) a heart pressed offline stays pressed and reaches the account when the connection returns`,
      async () => {
        const { email, token } = await account("Omar Saleh");
        const { context, page } = await newPage(browser);
        await signIn(page, locale, email);
        await page.goto(`${base}/${locale}/products`);
        await hydrated(page, ".product-card .wishlist-heart");
        const [a, b] = await page
          .locator("article.product-card .product-card__link")
          .evaluateAll((links) =>
            links.slice(0, 2).map((l) => decodeURIComponent(l.getAttribute("href")!.split("?")[0].split("/").pop()!)),
          );
        // Online first: the heart's code is then in the page (a shopper's service worker precaches it too).
        await heartOf(page, a).click();
        await expect.poll(() => accountSlugs(token), WAIT).toEqual([a]);
        // The server has it; the page must have the answer too before the connection drops, or
        // the sync's reply (the account's list) lands after the offline heart below.
        await networkQuiet(page);

        await context.setOffline(true);
        await heartOf(page, b).click();
        await expect.poll(() => heartOf(page, b).getAttribute("aria-pressed"), WAIT).toBe("true");
        await expect.poll(() => headerCount(page), WAIT).toBe("2");
        // Kept in this browser, and not sent while offline: the account still holds one.
        expect(await page.evaluate(() => localStorage.getItem("souq.wishlist") ?? "")).toContain(`"slug":"${b}"`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(await accountSlugs(token)).toEqual([a]);
        // The connection returns: the change is sent.
        await context.setOffline(false);
        await expect.poll(() => accountSlugs(token), WAIT).toEqual([a, b].sort());
        expect(await heartOf(page, b).getAttribute("aria-pressed")).toBe("true");
        await context.close();
      },
    );

    journeyIt(locale, "en")(
      `(${locale}) with the shop installed, the wishlist page opens offline with what was saved`,
      async () => {
        const { context, page, errors } = await newPage(browser, { serviceWorkers: "allow" });
        await page.goto(`${base}/${locale}/products`);
        await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 30_000 });
        await expect
          .poll(() => page.locator(".pwa-status").getAttribute("data-sw-state"), { timeout: 30_000 })
          .toBe("offline-ready");
        await hydrated(page, ".product-card .wishlist-heart");
        await page.locator(".product-card .wishlist-heart").first().click();
        await expect.poll(() => headerCount(page), WAIT).toBe("1");
        const name = (await page.locator(".product-card .product-card__link").first().textContent())!.trim();
        // Visited once online, as a shopper opens any page; then the connection goes.
        await page.goto(`${base}/${locale}/wishlist`);
        await expect.poll(() => page.locator(".wishlist__item").count(), WAIT).toBe(1);
        await context.setOffline(true);
        await page.reload();
        await expect.poll(() => page.locator(".wishlist__item").count(), WAIT).toBe(1);
        expect((await page.locator(".wishlist__name").textContent())!.trim()).toBe(name);
        expect(await page.locator("h1").textContent()).toBe(t.title);
        expect(await page.getByText(t.offline).count()).toBe(1);
        await context.setOffline(false);
        expect(errors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
        await context.close();
      },
    );

    journeyIt(locale, "ar")(
      `(${locale}) recently viewed: the products seen last on the home page, newest first; on a product's page the others; Clear forgets them`,
      async () => {
        const seen = fresh(3);
        const { context, page, errors } = await newPage(browser);
        for (const p of seen) {
          await page.goto(`${base}/${locale}/product-details/${p.slug}`);
          await hydrated(page, ".product__title .wishlist-heart");
          // Recorded once the page is idle after hydration.
          await expect
            .poll(() => page.evaluate(() => localStorage.getItem("souq.recent") ?? ""), WAIT)
            .toContain(p.slug);
        }
        await page.goto(`${base}/${locale}`);
        const strip = page.locator(".recently-viewed");
        const slugs = () =>
          strip
            .locator(".recently-viewed__item")
            .evaluateAll((links) => links.map((l) => decodeURIComponent(l.getAttribute("href")!.split("/").pop()!)));
        await expect.poll(slugs, WAIT).toEqual(seen.map((p) => p.slug).reverse());
        expect(await strip.locator("h2").textContent()).toBe(messages[locale].recentlyViewed.title);

        await page.goto(`${base}/${locale}/product-details/${seen[1].slug}`);
        await expect.poll(slugs, WAIT).toEqual([seen[2].slug, seen[0].slug]);
        await strip.getByRole("button", { name: messages[locale].recentlyViewed.clear }).click();
        await expect.poll(() => strip.count(), WAIT).toBe(0);
        await page.goto(`${base}/${locale}`);
        await hydrated(page, ".wishlist-heart");
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(await page.locator(".recently-viewed").count()).toBe(0);
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    it(`(${locale}) the wishlist page and the product page's strip, as a shopper sees them (screenshots, axe)`, async () => {
      const [a, b, c] = fresh(3);
      const { context, page, errors } = await newPage(browser);
      // Viewed, then saved: one saved at a higher price than today's, one while it was sold out.
      for (const p of [a, b, c]) {
        await page.goto(`${base}/${locale}/product-details/${p.slug}`);
        await hydrated(page, ".product__title .wishlist-heart");
        const heart = page.locator(".product__title .wishlist-heart");
        await heart.click();
        // Pressed once saved: the save loads on the first press, so leaving sooner would lose it.
        await expect.poll(() => heart.getAttribute("aria-pressed"), WAIT).toBe("true");
        await expect.poll(() => page.evaluate(() => localStorage.getItem("souq.recent") ?? ""), WAIT).toContain(p.slug);
      }
      await page.evaluate(
        ([higher, soldOut]) => {
          const list = JSON.parse(localStorage.getItem("souq.wishlist")!) as {
            items: { slug: string; saved_price: number; saved_in_stock: boolean }[];
          };
          for (const item of list.items) {
            if (item.slug === higher) item.saved_price = Math.round(item.saved_price * 1.25);
            if (item.slug === soldOut) item.saved_in_stock = false;
          }
          localStorage.setItem("souq.wishlist", JSON.stringify(list));
        },
        [a.slug, b.slug],
      );
      await page.goto(`${base}/${locale}/wishlist`);
      await expect.poll(() => page.locator(".wishlist__item").count(), WAIT).toBe(3);
      await expect.poll(() => page.locator(".wishlist__change--price_dropped").count(), WAIT).toBe(1);
      expect(await page.locator(".wishlist__change--back_in_stock").textContent()).toBe(
        messages[locale].wishlist.backInStock,
      );
      expect(await page.locator("html").getAttribute("dir")).toBe(locale === "ar" ? "rtl" : "ltr");
      // Right to left, the image sits at the start of the line: the right in Arabic.
      const item = await page.locator(".wishlist__item").first().boundingBox();
      const image = await page.locator(".wishlist__item img").first().boundingBox();
      if (locale === "ar") expect(image!.x + image!.width).toBeGreaterThan(item!.x + item!.width - 40);
      else expect(image!.x).toBeLessThan(item!.x + 40);
      await expectAxeClean(page);
      await fullPageScreenshot(page, `${SCREENSHOTS}/wishlist-${locale}.png`);

      await page.goto(`${base}/${locale}/product-details/${c.slug}`);
      await expect
        .poll(() => page.locator(".product__title .wishlist-heart").getAttribute("aria-pressed"), WAIT)
        .toBe("true");
      await page.screenshot({ path: `${SCREENSHOTS}/product-heart-${locale}.png` });
      const strip = page.locator(".recently-viewed");
      await expect.poll(() => strip.locator(".recently-viewed__item").count(), WAIT).toBe(2);
      await strip.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOTS}/recently-viewed-${locale}.png` });
      await expectAxeClean(page);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
