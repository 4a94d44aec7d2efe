import { mkdirSync } from "node:fs";
import type { Browser, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  hydrated,
  journeyIt,
  journeyLocales,
  launchBrowser,
  LOCALES,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import { registerAccount, STAFF_PASSWORD } from "../support/console-browser.ts";
import { backendJson, visitorIp, builtWorker } from "../support/http.ts";
import { say } from "../support/messages.ts";

// The spec's client rules in Chromium, both locales: the storefront's own-server calls (spec §4/§7), the
// change-password flow's check-password call with the Id header (spec §7, DESIGN §6), and the
// back action pushing history.state.back (spec §2), and a backend 404 on the pages the browser
// reads with the tab's identity redirecting to /error (spec §8).

const base = builtWorker().url;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

/** Every request the page makes, to read which calls a shopper's action caused. */
function recordRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on("request", (r) => seen.push(r));
  return seen;
}
const paths = (seen: Request[], method: string) =>
  seen.filter((r) => r.method() === method).map((r) => new URL(r.url()).pathname);

async function routerReady(page: Page): Promise<void> {
  await page.waitForFunction(
    () => (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined,
  );
  await page.waitForLoadState("networkidle");
}

/** A product in stock of one variant: the spec's add names the product alone. */
async function inStockProduct(): Promise<string> {
  const res = await fetch(`${base}/backend/products?per_page=12&in_stock=1`);
  const body = (await res.json()) as { data: { slug: string; variant_count?: number }[] };
  return body.data.find((p) => (p.variant_count ?? 1) === 1)!.slug;
}

for (const locale of journeyLocales("en")) {
  describe(`the spec's calls in Chromium (${locale})`, () => {
    it("§4/§7: login saves the user with POST /api/add-user, a new page restores it with GET /api/get-user, and an add goes through POST /api/cart/add-product", async () => {
      const email = `spec-calls-${locale}-${Date.now()}@example.com`;
      await registerAccount(base, email, locale === "en" ? "Omar Said" : "عمر سعيد");
      const { context, page, errors } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      const seen = recordRequests(page);

      await page.goto(`${base}/${locale}/auth/login`);
      await routerReady(page);
      await page.locator("input[name=email]").fill(email);
      await page.locator("input[name=password]").fill(STAFF_PASSWORD);
      await page.locator("form.auth-form button[type=submit]").click();
      await page.waitForURL((url) => url.pathname === `/${locale}/profile`);
      expect(paths(seen, "POST")).toContain("/api/add-user");

      const slug = await inStockProduct();
      seen.length = 0;
      await page.goto(`${base}/${locale}/product-details/${slug}`);
      await hydrated(page, ".add-to-cart__button");
      await expect.poll(() => paths(seen, "GET")).toContain("/api/get-user");
      const getUser = seen.find((r) => new URL(r.url()).pathname === "/api/get-user")!;
      expect((await getUser.response())?.status()).toBe(200);

      seen.length = 0;
      await page.locator(".add-to-cart__button").click();
      await expect.poll(() => paths(seen, "GET")).toContain("/backend/cart");
      const add = seen.find((r) => new URL(r.url()).pathname === "/api/cart/add-product")!;
      expect(add).toBeDefined();
      expect(add.postDataJSON()).toEqual({ productId: expect.any(Number), quantity: 1 });
      const headers = await add.allHeaders();
      expect(headers["content-language"]).toBe(locale);
      expect(headers["device-type"]).toBe("1");
      expect(headers.authorization).toMatch(/^Bearer /);
      expect((await add.response())?.status()).toBe(200);
      expect(paths(seen, "POST")).not.toContain("/backend/cart/add-product");

      // Signed out elsewhere (the own-server session is gone): the next start drops the tab's token.
      await page.evaluate(() => fetch("/api/logout", { method: "POST" }));
      await page.reload();
      await routerReady(page);
      await expect.poll(() => page.evaluate(() => sessionStorage.getItem("token"))).toBeNull();
      expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
      await context.close();
    });

    it("§7: the change-password tab checks the current password with check-password (with the Id header) before it changes anything", async () => {
      const email = `spec-check-${locale}-${Date.now()}@example.com`;
      await registerAccount(base, email);
      const { context, page } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      await page.goto(`${base}/${locale}/auth/login`);
      await routerReady(page);
      await page.locator("input[name=email]").fill(email);
      await page.locator("input[name=password]").fill(STAFF_PASSWORD);
      await page.locator("form.auth-form button[type=submit]").click();
      await page.waitForURL((url) => url.pathname === `/${locale}/profile`);
      const userId = await page.evaluate(() => sessionStorage.getItem("userId"));

      await page.goto(`${base}/${locale}/profile/change-password`);
      await routerReady(page);
      const seen = recordRequests(page);
      const next = "Quiet-Orchard-5521!";
      await page.locator("input[name=current_password]").fill("certainly-not-mine");
      await page.locator("input[name=password]").fill(next);
      await page.locator("input[name=password_confirmation]").fill(next);
      await page.locator(".profile-card form button[type=submit]").click();
      await expect.poll(() => page.locator("input[name=current_password]").getAttribute("aria-invalid")).toBe("true");
      const wrong = locale === "en" ? "The current password is incorrect." : "كلمة المرور الحالية غير صحيحة.";
      expect(await page.locator(".profile-card").textContent()).toContain(wrong);
      expect(paths(seen, "POST")).toEqual(["/backend/client/auth/check-password"]);
      // The POSTs by method: a link prefetch (spec §9) may be among the requests seen.
      const posts = () => seen.filter((r) => r.method() === "POST");
      expect((await posts()[0].allHeaders()).id).toBe(userId);
      await page.screenshot({ path: `${SCREENSHOTS}/spec-check-password-${locale}.png` });

      seen.length = 0;
      await page.locator("input[name=current_password]").fill(STAFF_PASSWORD);
      await page.locator(".profile-card form button[type=submit]").click();
      await expect.poll(() => page.locator(".form__success").isVisible()).toBe(true);
      expect(paths(seen, "POST")).toEqual([
        "/backend/client/auth/check-password",
        "/backend/client/auth/change-password",
      ]);
      expect((await posts()[1].allHeaders()).id).toBe(userId);
      await context.close();
    });

    it("§2: the back action pushes the previous route from history.state.back", async () => {
      const { context, page, errors } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      await page.goto(`${base}/${locale}/products`);
      await hydrated(page, ".product-card__link");
      await page.locator(".product-card__link").first().click();
      await page.waitForURL((url) => url.pathname.startsWith(`/${locale}/product-details/`));
      await hydrated(page, ".back-button");
      const before = await page.evaluate(() => ({ length: history.length, back: history.state?.back }));
      expect(before.back).toBe(`/${locale}/products`);
      await page.locator(".back-button").click();
      await page.waitForURL((url) => url.pathname === `/${locale}/products`);
      // A push: one more history entry, not a pop back to the old one.
      expect(await page.evaluate(() => history.length)).toBe(before.length + 1);

      // Opened directly, there is no previous route: the back action goes to the locale home.
      await page.goto(`${base}/${locale}/product-details/${await inStockProduct()}`);
      await hydrated(page, ".back-button");
      await page.locator(".back-button").click();
      await page.waitForURL((url) => url.pathname === `/${locale}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}

/** A guest of its own, with one product in the cart: the identity the pages below read with. */
async function guestWithCart(locale: string): Promise<string> {
  const ip = { "cf-connecting-ip": visitorIp() };
  const { guestId } = (await (await fetch(`${base}/api/cart/generate-guest-id`, { headers: ip })).json()) as {
    guestId: string;
  };
  const guest = { ...ip, "guest-id": guestId, "content-language": locale };
  // A product of one variant: the spec's add names the product alone.
  const product = (
    (await backendJson(base, "/backend/products?in_stock=1&per_page=12", guest)).data as unknown as {
      id: number;
      variant_count?: number;
    }[]
  ).find((p) => (p.variant_count ?? 1) === 1)!;
  await backendJson(base, "/backend/cart/add-product", guest, { product_id: product.id, quantity: 1 });
  return guestId;
}

for (const locale of journeyLocales("ar")) {
  describe(`§8 in Chromium (${locale}): a backend 404 redirects to /error`, () => {
    const UNKNOWN = "SQ-ZZZZZZZZ";
    const pages = [
      ["the order status page", `/${locale}/order/checkout/status?order=${UNKNOWN}`],
      ["the payment status page", `/${locale}/payment-status?payment_id=pay_unknown&order=${UNKNOWN}`],
      ["the payment start", `/${locale}/proceed-payement?order=${UNKNOWN}`],
      ["the tax invoice", `/${locale}/order/${UNKNOWN}/invoice`],
    ] as const;
    for (const [name, path] of pages) {
      it(`§8: 404 redirects to /error, from ${name} of an order that is not the visitor's`, async () => {
        const guestId = await guestWithCart(locale);
        const { context, page } = await newPage(browser);
        await context.addInitScript((id) => sessionStorage.setItem("guestId", id), guestId);
        await page.goto(`${base}${path}`);
        await page.waitForURL((url) => url.pathname.endsWith("/error"), { timeout: 15_000 });
        expect(await page.locator(".error-screen__status").textContent()).toBe("404");
        await context.close();
      });
    }

    it("§8: 404 redirects to /error when deleting an address already deleted elsewhere", async () => {
      const email = `spec-404-${locale}-${Date.now()}@example.com`;
      await registerAccount(base, email, locale === "en" ? "Omar Said" : "عمر سعيد");
      const { context, page } = await newPage(browser);
      page.setDefaultTimeout(15_000);
      await page.goto(`${base}/${locale}/auth/login`);
      await routerReady(page);
      await page.locator("input[name=email]").fill(email);
      await page.locator("input[name=password]").fill(STAFF_PASSWORD);
      await page.locator("form.auth-form button[type=submit]").click();
      await page.waitForURL((url) => url.pathname === `/${locale}/profile`);
      const auth = { authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem("token"))}` };
      const address = {
        label: "Home",
        name: "Omar Said",
        phone: "+966501234567",
        city: "Riyadh",
        district: "Olaya",
        street: "King Fahd Road",
      };
      const { id } = (await backendJson(base, "/backend/client/addresses", auth, address)).data as unknown as {
        id: number;
      };
      await page.goto(`${base}/${locale}/profile/addresses`);
      const remove = page.getByRole("button", { name: `${say(locale, "address.delete")}: Home` });
      await remove.waitFor();
      // Deleted in another tab meanwhile.
      const gone = await fetch(`${base}/backend/client/addresses/${id}`, { method: "DELETE", headers: auth });
      expect(gone.status).toBe(200);
      await remove.click();
      await page.getByRole("button", { name: say(locale, "address.confirmDelete") }).click();
      await page.waitForURL((url) => url.pathname.endsWith("/error"));
      expect(await page.locator(".error-screen__status").textContent()).toBe("404");
      await context.close();
    });

    it("§8: 404 redirects to /error from the promo code too; the backend's refusal of a code (422) stays on the form (§5)", async () => {
      const guestId = await guestWithCart(locale);
      const { context, page } = await newPage(browser);
      await context.addInitScript((id) => sessionStorage.setItem("guestId", id), guestId);
      await page.goto(`${base}/${locale}/shopping-cart`);
      await hydrated(page, "#promo-code");
      // A refusal: the server's message on the form, the page stays.
      await page.locator("#promo-code").fill("NOPE-NOT-A-CODE");
      await page.getByRole("button", { name: say(locale, "cart.promo.apply") }).click();
      await expect
        .poll(() => page.locator("#promo-message").getAttribute("class"), { timeout: 15_000 })
        .toContain("promo__message--invalid");
      expect(new URL(page.url()).pathname).toBe(`/${locale}/shopping-cart`);
      // A backend without the call (a 404): the common handler's redirect.
      await page.route("**/promo-code/check", (route) =>
        route.fulfill({ status: 404, contentType: "application/json", body: JSON.stringify({ message: "Not found" }) }),
      );
      await page.locator("#promo-code").fill("WELCOME10");
      await page.getByRole("button", { name: say(locale, "cart.promo.apply") }).click();
      await page.waitForURL((url) => url.pathname.endsWith("/error"), { timeout: 15_000 });
      expect(await page.locator(".error-screen__status").textContent()).toBe("404");
      await context.close();
    });
  });
}

for (const locale of LOCALES) {
  describe(`§9 toasts and the loading bar in Chromium (${locale})`, () => {
    it("§9: toasts sit top-right in the dark theme and close after 3000 ms", async () => {
      const { context, page } = await newPage(browser);
      await page.goto(`${base}/${locale}/product-details/${await inStockProduct()}`);
      await hydrated(page, ".add-to-cart__button");
      // The page notes when the toast arrives and when sonner starts taking it away (data-removed):
      // read on the page's own clock, not through a test's polling on a busy machine.
      await page.evaluate(() => {
        const w = window as unknown as { toastTimes: { added?: number; removed?: number } };
        w.toastTimes = {};
        new MutationObserver(() => {
          const el = document.querySelector("[data-sonner-toast][data-type=success]");
          if (el && w.toastTimes.added === undefined) w.toastTimes.added = performance.now();
          if (el?.getAttribute("data-removed") === "true" && w.toastTimes.removed === undefined)
            w.toastTimes.removed = performance.now();
        }).observe(document.body, { subtree: true, childList: true, attributes: true });
      });
      await page.locator(".add-to-cart__button").click();
      const toast = page.locator("[data-sonner-toast][data-type=success]").first();
      await toast.waitFor({ timeout: 15_000 });
      const toaster = page.locator("[data-sonner-toaster]").first();
      expect(await toaster.getAttribute("data-y-position")).toBe("top");
      expect(await toaster.getAttribute("data-x-position")).toBe("right");
      expect(await toaster.getAttribute("data-sonner-theme")).toBe("dark");
      // It sits at the viewport's right edge, in either direction.
      const box = (await toast.boundingBox())!;
      expect(box.x + box.width).toBeGreaterThan(page.viewportSize()!.width - 60);
      await toast.waitFor({ state: "detached", timeout: 10_000 });
      const { added, removed } = await page.evaluate(
        () => (window as unknown as { toastTimes: { added: number; removed: number } }).toastTimes,
      );
      // 3000 ms from its arrival to its leaving; a timer fires late on a busy page, never early.
      expect(removed - added).toBeGreaterThanOrEqual(2_990);
      expect(removed - added).toBeLessThan(4_000);
      await context.close();
    });

    journeyIt(locale, "en")(
      "§4: a loading toast is not closed automatically: it stays past 3000 ms until the answer replaces it",
      async () => {
        const { context, page } = await newPage(browser);
        await page.goto(`${base}/${locale}/contact-us`);
        await hydrated(page, "#contact-name");
        // The backend takes 5 s to answer.
        let release: () => void = () => undefined;
        const answered = new Promise<void>((r) => (release = r));
        await page.route("**/backend/contact", async (route) => {
          if (route.request().method() !== "POST") return route.continue();
          await answered;
          await route.continue();
        });
        await page.locator("#contact-name").fill(locale === "ar" ? "سارة أحمد" : "Sara Ahmed");
        await page.locator("#contact-email").fill(`sara.loading.${locale}@example.com`);
        await page.locator("#contact-subject").fill(locale === "ar" ? "سؤال عن طلب" : "A question about an order");
        await page
          .locator("#contact-message")
          .fill(locale === "ar" ? "أود معرفة موعد توصيل طلبي." : "When will my order arrive?");
        await page.locator("form button[type=submit]").last().click();
        const loading = page.locator("[data-sonner-toast][data-type=loading]");
        await loading.waitFor({ timeout: 15_000 });
        const shown = await page.evaluate(() => performance.now());
        await page.waitForFunction((from) => performance.now() - from > 4_000, shown, { polling: 200 });
        expect(await loading.count()).toBe(1);
        expect(await loading.getAttribute("data-removed")).not.toBe("true");
        release();
        await expect
          .poll(() => page.locator("[data-sonner-toast][data-type=success]").count(), { timeout: 15_000 })
          .toBe(1);
        expect(await loading.count()).toBe(0);
        await context.close();
      },
    );

    journeyIt(locale, "ar")(
      "§9: the loading bar is 3 px, waits the 200 ms throttle, runs while a navigation is slow and hides 500 ms after it ends",
      async () => {
        // Link prefetch is off (newPage's default, Save-Data): the navigation below fetches its own data, once.
        const { context, page } = await newPage(browser);
        await page.goto(`${base}/${locale}`);
        await hydrated(page, "#site-search");
        // The next page's data takes 1.5 s.
        await page.route("**/products.data*", async (route) => {
          await new Promise((r) => setTimeout(r, 1_500));
          await route.continue();
        });
        const bar = page.locator(".loading-bar");
        expect(await bar.getAttribute("data-phase")).toBe("idle");
        // The bar's changes, on the page's own clock, from the click on.
        await page.evaluate(() => {
          const el = document.querySelector(".loading-bar")!;
          const w = window as unknown as { barLog: [string, number][] };
          w.barLog = [];
          document.addEventListener("click", () => w.barLog.push(["click", performance.now()]), { capture: true });
          new MutationObserver(() =>
            w.barLog.push([`${el.getAttribute("data-phase")}:${el.getAttribute("aria-valuenow")}`, performance.now()]),
          ).observe(el, { attributes: true, attributeFilter: ["data-phase", "aria-valuenow"] });
          // The new page's title lands in the commit that ends the navigation, before the bar's
          // effect starts its hide delay.
          const title = document.title;
          new MutationObserver(() => {
            if (document.title !== title && !w.barLog.some(([s]) => s === "page"))
              w.barLog.push(["page", performance.now()]);
          }).observe(document.head, { subtree: true, childList: true, characterData: true });
        });
        await page.locator(`.site-nav a[href="/${locale}/products"]`).first().click();
        await expect.poll(() => bar.getAttribute("data-phase"), { timeout: 5_000 }).toBe("running");
        expect(await bar.evaluate((el) => el.getBoundingClientRect().height)).toBe(3);
        // It grows over its 2000 ms duration.
        expect(await bar.evaluate((el) => el.style.transitionDuration)).toBe("2000ms");
        await page.waitForURL(`**/${locale}/products`);
        await expect.poll(() => bar.getAttribute("aria-valuenow"), { timeout: 5_000 }).toBe("0");
        const log = await page.evaluate(() => (window as unknown as { barLog: [string, number][] }).barLog);
        const at = (state: string) => log.find(([s]) => s.startsWith(state))?.[1] ?? NaN;
        const click = at("click");
        const running = at("running");
        const finishing = at("finishing");
        const idle = at("idle");
        const reset = log.find(([s]) => s === "idle:0")?.[1] ?? NaN;
        expect(running - click).toBeGreaterThanOrEqual(195);
        // The hide delay runs from the navigation's end (the new page committed).
        const committed = at("page");
        expect(finishing).toBeGreaterThanOrEqual(committed);
        expect(idle - committed).toBeGreaterThanOrEqual(495);
        // The reset delay follows the hide delay: the width goes back to 0 at least 500 + 400 ms on.
        expect(reset - committed).toBeGreaterThanOrEqual(895);
        expect(reset).toBeGreaterThan(idle);
        await context.close();
      },
    );
  });
}
