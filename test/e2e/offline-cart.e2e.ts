import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ar from "../../locales/ar.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import { atRest, expectAxeClean } from "../support/axe.ts";
import { hydrated, journeyLocales, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { buyThroughCheckout, builtWorker, visitorIp } from "../support/http.ts";

// The cart offline (app/lib/offline-cart): with the network cut, products are added and a quantity
// changed; on reconnect the server cart holds them, and a product that sold out meanwhile is
// explained in the shopper's language. Both locales: the explanation's wording and mirror are the point.
const base = builtWorker().url;
const messages = { en, ar } as const;

interface Product {
  id: number;
  slug: string;
  name: string;
  brand: { slug: string } | null;
  category: { slug: string };
  stock: number;
  variant_count?: number;
  max_per_order: number;
  is_featured: boolean;
  is_new: boolean;
}

let browser: Browser;
/** Three products per locale: two kept, one bought out while the shopper is offline. */
const picks: Record<(typeof LOCALES)[number], Product[]> = { en: [], ar: [] };
/** For the Background Sync journey. */
let synced: Product;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=48&sort=price_desc`, {
    headers: { "content-language": "en" },
  });
  // Products of one variant no other suite leans on (not featured, new, phones or Apple); the one
  // bought out can be in one order (its stock within the per-order maximum).
  const all = ((await res.json()) as { data: Product[] }).data.filter(
    (p) =>
      !p.is_featured &&
      !p.is_new &&
      p.category.slug !== "phones" &&
      p.brand?.slug !== "apple" &&
      (p.variant_count ?? 1) === 1 &&
      p.stock >= 3,
  );
  const buyable = all.filter((p) => p.stock <= p.max_per_order);
  expect(buyable.length).toBeGreaterThanOrEqual(2);
  const rest = all.filter((p) => !buyable.slice(0, 2).includes(p));
  expect(rest.length).toBeGreaterThanOrEqual(4);
  picks.en = [rest[0], rest[1], buyable[0]];
  picks.ar = [rest[2], rest[3], buyable[1]];
  synced = rest[4];
});

afterAll(async () => {
  await browser?.close();
});

async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 30_000 });
}

/** The guest's cart as the backend holds it: [product id, quantity] per line. */
async function serverCart(guestId: string): Promise<number[][]> {
  const res = await fetch(`${base}/backend/cart`, { headers: { "guest-id": guestId, "content-language": "en" } });
  const body = (await res.json()) as { data: { products: { product_id: number; quantity: number }[] } };
  return body.data.products.map((l) => [l.product_id, l.quantity]).sort((a, b) => a[0] - b[0]);
}

describe("the cart offline", () => {
  for (const locale of LOCALES) {
    it(`in ${locale}: changes made offline sync on reconnect, and a product sold out meanwhile is explained`, async () => {
      const t = messages[locale];
      const [first, second, soldOut] = picks[locale];
      const { context, page } = await newPage(browser, { serviceWorkers: "allow" });
      let hold: { decline: () => Promise<void> } | undefined;
      try {
        await page.goto(`${base}/${locale}`);
        await waitForServiceWorker(page);
        // Visited while online, so the service worker has them for later; their names in this language.
        const names = new Map<number, string>();
        for (const p of [first, second, soldOut]) {
          await page.goto(`${base}/${locale}/product-details/${p.slug}`);
          await hydrated(page, ".add-to-cart__button");
          names.set(p.id, (await page.locator("h1.product__name").textContent()) ?? "");
        }

        await context.setOffline(true);
        await expect.poll(() => page.getByText(t.sw.offline).isVisible()).toBe(true);
        // The last page visited, then the other two reopened offline from the service worker.
        await page.locator(".add-to-cart__button").click();
        await expect.poll(() => page.getByText(t.offlineCart.savedToast).isVisible()).toBe(true);
        for (const p of [first, second]) {
          await page.goto(`${base}/${locale}/product-details/${p.slug}`);
          await hydrated(page, ".add-to-cart__button");
          await page.locator(".add-to-cart__button").click();
          await expect
            .poll(() => page.locator(`#cart-drawer .cart-line[data-product-id="${p.id}"]`).count(), { timeout: 15_000 })
            .toBe(1);
        }
        // A quantity changed in the drawer, at once.
        const firstLine = page.locator(`#cart-drawer .cart-line[data-product-id="${first.id}"]`);
        await firstLine
          .getByRole("button", { name: t.cart.increase.replace("{{name}}", names.get(first.id)!) })
          .click();
        await expect.poll(() => firstLine.locator(".stepper__input").inputValue()).toBe("2");
        const drawer = page.locator("#cart-drawer");
        expect(await drawer.locator(".cart-line").count()).toBe(3);
        expect(await drawer.getByText(t.offlineCart.savedOffline).count()).toBe(3);
        // Checkout needs the connection: the drawer says so instead of offering it.
        expect(await drawer.getByText(t.offlineCart.checkoutNeedsConnection).isVisible()).toBe(true);
        expect(await drawer.getByRole("link", { name: t.cart.checkout, exact: true }).count()).toBe(0);
        await page.screenshot({ path: `${SCREENSHOTS}/offline-cart-saved-${locale}.png` });

        // Meanwhile someone else buys every one of the third product (its stock is held by their order).
        hold = await buyThroughCheckout(base, soldOut.id, soldOut.stock, visitorIp());

        await context.setOffline(false);
        const notice = drawer.locator("[data-offline-notice]");
        await expect.poll(() => notice.isVisible(), { timeout: 20_000 }).toBe(true);
        expect(await notice.getByRole("heading").textContent()).toBe(t.offlineCart.noticeTitle);
        const conflict = notice.locator('li[data-conflict="soldOut"]');
        expect(await conflict.count()).toBe(1);
        expect(await conflict.textContent()).toBe(`${names.get(soldOut.id)} ${t.offlineCart.soldOut}`);
        await expect.poll(() => page.getByText(t.offlineCart.conflictsToast).isVisible()).toBe(true);
        expect(await drawer.getByText(t.offlineCart.savedOffline).count()).toBe(0);

        // The server's cart holds what was added and changed offline; the sold-out product is not in it.
        const guestId = await page.evaluate(() => sessionStorage.getItem("guestId"));
        expect(guestId).toBeTruthy();
        expect(await serverCart(guestId!)).toEqual(
          [
            [first.id, 2],
            [second.id, 1],
          ].sort((a, b) => a[0] - b[0]),
        );
        // And nothing waits any more.
        expect(
          await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("offlineCart:"))),
        ).toEqual([]);

        await atRest(page);
        await page.screenshot({ path: `${SCREENSHOTS}/offline-cart-conflict-${locale}.png` });
        await expectAxeClean(page);
        await drawer.getByRole("button", { name: t.offlineCart.dismiss }).click();
        expect(await notice.count()).toBe(0);
      } finally {
        await hold?.decline();
        await context.close();
      }
    });
  }

  for (const locale of journeyLocales("en")) {
    it(`in ${locale}: the service worker's Background Sync has the open page replay its changes`, async () => {
      const t = messages[locale];
      const { context, page } = await newPage(browser, { serviceWorkers: "allow" });
      try {
        const cdp = await context.newCDPSession(page);
        const registrations = new Map<string, string>();
        cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations: list }) => {
          for (const r of list) if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
        });
        await cdp.send("ServiceWorker.enable");
        await page.goto(`${base}/${locale}/product-details/${synced.slug}`);
        await waitForServiceWorker(page);
        await hydrated(page, ".add-to-cart__button");
        // The shop's own server and backend cannot be reached, though the browser thinks it is
        // online: no `online` event will come to replay the change, only the sync.
        const unreachable = (route: { abort: () => Promise<void> }) => route.abort();
        await context.route(/\/(api\/cart|backend\/cart)/, unreachable);
        await page.locator(".add-to-cart__button").click();
        await expect.poll(() => page.getByText(t.offlineCart.savedToast).isVisible()).toBe(true);
        await expect.poll(() => page.locator("#cart-drawer").getByText(t.offlineCart.savedOffline).count()).toBe(1);
        await context.unroute(/\/(api\/cart|backend\/cart)/, unreachable);
        expect(await page.evaluate(() => sessionStorage.getItem("guestId"))).toBeNull();

        // The browser fires `sync` for the tag the page registered (DevTools does it here).
        const registrationId = registrations.get(`${base}/`);
        expect(registrationId).toBeDefined();
        await cdp.send("ServiceWorker.dispatchSyncEvent", {
          origin: base,
          registrationId: registrationId!,
          tag: "cart-sync",
          lastChance: false,
        });
        await expect.poll(() => page.getByText(t.offlineCart.synced).isVisible(), { timeout: 15_000 }).toBe(true);
        const guestId = await page.evaluate(() => sessionStorage.getItem("guestId"));
        expect(await serverCart(guestId!)).toEqual([[synced.id, 1]]);
        expect(await page.locator("#cart-drawer").getByText(t.offlineCart.savedOffline).count()).toBe(0);
      } finally {
        await context.close();
      }
    });
  }
});
