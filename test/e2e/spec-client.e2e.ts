import { mkdirSync } from "node:fs";
import type { Browser, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { hydrated, launchBrowser, LOCALES, newPage, SCREENSHOTS } from "../support/browser.ts";
import { registerAccount, STAFF_PASSWORD } from "../support/console-browser.ts";
import { backendJson, visitorIp } from "../support/http.ts";
import { say } from "../support/messages.ts";

// Issue 22 in Chromium, both locales: the storefront's own-server calls (spec §4/§7), the
// change-password flow's check-password call with the Id header (spec §7, DESIGN §6), and the
// back action pushing history.state.back (spec §2), and a backend 404 on the pages the browser
// reads with the tab's identity redirecting to /error (spec §8).

const base = inject("baseURL");
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

async function inStockProduct(): Promise<string> {
  const res = await fetch(`${base}/backend/products?per_page=1&in_stock=1`);
  const body = (await res.json()) as { data: { slug: string }[] };
  return body.data[0].slug;
}

for (const locale of LOCALES) {
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
      expect((await seen[0].allHeaders()).id).toBe(userId);
      await page.screenshot({ path: `${SCREENSHOTS}/spec-check-password-${locale}.png` });

      seen.length = 0;
      await page.locator("input[name=current_password]").fill(STAFF_PASSWORD);
      await page.locator(".profile-card form button[type=submit]").click();
      await expect.poll(() => page.locator(".form__success").isVisible()).toBe(true);
      expect(paths(seen, "POST")).toEqual([
        "/backend/client/auth/check-password",
        "/backend/client/auth/change-password",
      ]);
      expect((await seen[1].allHeaders()).id).toBe(userId);
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
  const [product] = (await backendJson(base, "/backend/products?in_stock=1&per_page=1", guest)).data as unknown as {
    id: number;
  }[];
  await backendJson(base, "/backend/cart/add-product", guest, { product_id: product.id, quantity: 1 });
  return guestId;
}

for (const locale of LOCALES) {
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
