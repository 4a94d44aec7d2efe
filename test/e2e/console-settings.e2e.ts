import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { atRest, expectAxeClean } from "../support/axe.ts";
import {
  fullPageScreenshot,
  hydrated,
  journeyLocales,
  launchBrowser,
  LOCALES,
  newPage,
  SCREENSHOTS,
} from "../support/browser.ts";
import { consoleHttpSession, newStaffAccounts, openConsole } from "../support/console-browser.ts";
import { builtWorker } from "../support/http.ts";
import { say as msg } from "../support/messages.ts";
import { REGIONS, type RegionId } from "../../contract/regions.ts";
import mailAr from "../../worker/backend/messages/ar.json" with { type: "json" };
import mailEn from "../../worker/backend/messages/en.json" with { type: "json" };

/** The backend's words, for the refusals it sends. */
const MAIL = { en: mailEn, ar: mailAr } as const;

/**
 * The store's settings in Chromium, in both languages: an owner changes the shipping rate on the
 * settings page (a typo is refused on its field first), and a shopper's next checkout page shows
 * the new rate, with no restart of the worker in between. The owner renames the store in both
 * languages and gives it a logo, and the shop's header, footer, page titles and manifests follow.
 */
const base = builtWorker().url;
type Locale = (typeof LOCALES)[number];
let browser: Browser;
let accounts: Record<string, string>;
let product: { id: number; slug: string };

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/** What each language types: English with Latin digits, Arabic with Arabic-Indic ones and its decimal sign. */
const TYPED: Record<Locale, { standard: string; shown: string }> = {
  en: { standard: "19.50", shown: "19.50" },
  ar: { standard: "٢٢٫٧٥", shown: "22.75" },
};

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  // One account per sign-in: a console code is read from the outbox, so each session has its own.
  accounts = await newStaffAccounts(base, {
    "settings-en": "owner",
    "settings-ar": "owner",
    "settings-reset": "owner",
    "settings-store": "owner",
    "settings-manager": "manager",
    "zones-en": "owner",
    "zones-ar": "owner",
  });
  const res = await fetch(`${base}/backend/products?in_stock=1&per_page=24&sort=newest`, {
    headers: { "content-language": "en" },
  });
  const listed = ((await res.json()) as { data: { id: number; slug: string; stock: number; variant_count?: number }[] })
    .data;
  product = listed.find((p) => (p.variant_count ?? 1) === 1 && p.stock >= 5)!;
  expect(product).toBeTruthy();
});

afterAll(async () => {
  await browser?.close();
  // Later files on this worker's database expect the shipping and the name the deployment starts from.
  const { token } = await consoleHttpSession(base, accounts["settings-reset"]!);
  const put = (section: string, value: unknown) =>
    fetch(`${base}/backend/admin/settings/${section}`, {
      method: "PUT",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        origin: base,
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(value),
    });
  expect((await put("shipping", { standard: 2500, express: 5000, free_threshold: 30000 })).status).toBe(200);
  const builtIn = { name_en: msg("en", "app.name"), name_ar: msg("ar", "app.name"), logo_url: "" };
  expect((await put("store", builtIn)).status).toBe(200);
});

async function saveSection(page: Page, locale: Locale, section: string): Promise<void> {
  await saveButton(page, locale, section).click();
  await eventually(() => page.locator("[data-sonner-toast]").allTextContents()).toEqual(
    expect.arrayContaining([expect.stringContaining(msg(locale, "console.settings.saved"))]),
  );
  // The toast comes before the revalidation that remounts the section from what was stored:
  // wait for that too, or the next look at the section may find it detached.
  await atRest(page);
}

/** The shopper's checkout page with the product in the cart: the price of each delivery method. */
async function checkoutPrices(page: Page, locale: Locale): Promise<string[]> {
  await page.goto(`${base}/${locale}/checkout`);
  // The delivery methods' prices (a payment method's fee is priced beside it too).
  const prices = page.locator('.choice:has(input[name="shipping_method"]) .choice__price');
  await eventually(() => prices.count()).toBe(2);
  return prices.allTextContents();
}

describe("store settings in the console", () => {
  it("a manager has no settings entry in the console's navigation", async () => {
    const { page } = await newPage(browser);
    await openConsole(page, base, "en", accounts["settings-manager"]!);
    await eventually(() => page.locator(".console-nav a").count()).toBeGreaterThan(3);
    expect(await page.locator(".console-nav").getByText(msg("en", "console.nav.settings")).count()).toBe(0);
    await page.close();
  });

  for (const locale of journeyLocales("en")) {
    it(`${locale}: the owner changes the shipping rate and the shopper's next checkout page charges it`, async () => {
      // The shopper's cart, and the rate checkout shows before the change.
      const shopper = await newPage(browser);
      await shopper.page.goto(`${base}/${locale}/product-details/${product.slug}`);
      await hydrated(shopper.page, ".add-to-cart__button");
      await shopper.page.locator(".add-to-cart__button").click();
      await eventually(() => shopper.page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(
        true,
      );
      const before = await checkoutPrices(shopper.page, locale);
      expect(before.join(" ")).not.toContain(TYPED[locale].shown);

      // The owner opens Settings from the console's navigation.
      const { page } = await newPage(browser);
      await openConsole(page, base, locale, accounts[`settings-${locale}`]!);
      await page.getByRole("link", { name: msg(locale, "console.nav.settings"), exact: true }).click();
      await page.waitForURL(`${base}/${locale}/admin/settings`);
      await hydrated(page, "#settings-shipping-standard");
      expect(await page.locator("html").getAttribute("dir")).toBe(locale === "ar" ? "rtl" : "ltr");

      // A typo is refused on its field, and nothing is saved.
      await page.locator("#settings-shipping-standard").fill("19,5x");
      await saveButton(page, locale, "shipping").click();
      await eventually(() => page.locator("#settings-shipping-standard-error").textContent()).toBe(
        msg(locale, "console.settings.errors.riyals"),
      );

      // The new rate, free delivery only on very large orders so this cart pays it.
      await page.locator("#settings-shipping-standard").fill(TYPED[locale].standard);
      await page.locator("#settings-shipping-free_threshold").fill("100000");
      await saveSection(page, locale, "shipping");
      await eventually(() => page.locator("#settings-shipping-standard").inputValue()).toBe(TYPED[locale].shown);
      // The saved section starts again from what was stored; every section is still there once.
      expect(await page.locator(".settings-section").count()).toBe(12);
      // Cart reminders: the code offered must be one of the shop's active codes, said on its field.
      await page.locator("#settings-cart-reminders-promo_code").fill("NO-SUCH-CODE");
      await saveButton(page, locale, "cart_reminders").click();
      await eventually(() => page.locator("#settings-cart-reminders-promo_code-error").textContent()).toBe(
        MAIL[locale].cartReminders.unknownCode,
      );
      await page.locator("#settings-cart-reminders-promo_code").fill("");
      await saveSection(page, locale, "cart_reminders");
      await page
        .locator("section[aria-labelledby='settings-cart-reminders-title']")
        .screenshot({ path: `${SCREENSHOTS}/console-settings-cart-reminders-${locale}.png` });
      await expectAxeClean(page, `settings ${locale}`);
      await fullPageScreenshot(page, `${SCREENSHOTS}/console-settings-${locale}.png`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${SCREENSHOTS}/console-settings-top-${locale}.png` });
      await page
        .locator("section[aria-labelledby='settings-messages-title']")
        .screenshot({ path: `${SCREENSHOTS}/console-settings-messages-${locale}.png` });

      // The delivery promise's section: a cut-off that is no time of day is refused on its field;
      // a later cut-off and the Hijri date are saved and read back after a reload.
      await page.locator("#settings-delivery-cutoff").fill("2pm");
      await saveButton(page, locale, "delivery").click();
      await eventually(() => page.locator("#settings-delivery-cutoff-error").textContent()).toBe(
        msg(locale, "console.settings.errors.cutoff"),
      );
      await page.locator("#settings-delivery-cutoff").fill("15:30");
      await page.locator("#settings-delivery-hijri").selectOption("on");
      await saveSection(page, locale, "delivery");
      await page.reload();
      await hydrated(page, "#settings-delivery-cutoff");
      await eventually(() => page.locator("#settings-delivery-cutoff").inputValue()).toBe("15:30");
      expect(await page.locator("#settings-delivery-hijri").inputValue()).toBe("on");
      expect(await page.locator("#settings-delivery-holidays").inputValue()).toMatch(/^\d{4}-02-22$/m);
      await page
        .locator("section[aria-labelledby='settings-delivery-title']")
        .screenshot({ path: `${SCREENSHOTS}/console-settings-delivery-${locale}.png` });

      // The shopper's next page load charges it: no deploy, no restart.
      const after = await checkoutPrices(shopper.page, locale);
      expect(after[0]).toContain(TYPED[locale].shown);
      await page.close();
      await shopper.page.close();
    }, 180_000);
  }
});

/** Each language's zone: its region, a city of it as a shopper writes it, another city, and the rate as typed. */
const ZONE: Record<
  Locale,
  { region: RegionId; name_en: string; name_ar: string; city: string; elsewhere: string; typed: string; shown: string }
> = {
  en: {
    region: "eastern",
    name_en: "Gulf coast",
    name_ar: "ساحل الخليج",
    city: "Al Khobar",
    elsewhere: "Riyadh",
    typed: "11.25",
    shown: "11.25",
  },
  ar: {
    region: "makkah",
    name_en: "Western region",
    name_ar: "المنطقة الغربية",
    city: "جدة",
    elsewhere: "الرياض",
    typed: "١٢٫٥٠",
    shown: "12.50",
  },
};

describe("shipping zones in the console and at checkout", () => {
  for (const locale of journeyLocales("ar")) {
    it(`${locale}: the owner adds a zone for a region, and a guest's checkout charges it there and the rest of the country's rate elsewhere`, async () => {
      const zone = ZONE[locale];
      const { page } = await newPage(browser);
      await openConsole(page, base, locale, accounts[`zones-${locale}`]!);
      await page.goto(`${base}/${locale}/admin/settings`);
      await hydrated(page, "#settings-shipping-standard");
      const i = await page.locator(".shipping-zone").count();
      await page.getByRole("button", { name: msg(locale, "console.shippingZones.add") }).click();
      const id = (field: string) => `#settings-shipping-zones-${i}-${field}`;
      await page.locator(id("name_en")).fill(zone.name_en);
      await page.locator(id("name_ar")).fill(zone.name_ar);
      const box = page
        .locator(`.shipping-zone >> nth=${i}`)
        .getByRole("checkbox", { name: REGIONS[zone.region][locale] });
      await box.check();
      await page.locator(id("standard")).fill(zone.typed);
      await page.locator(id("free_threshold")).fill(locale === "ar" ? "١٠٠٠٠٠" : "100000");
      if (i > 0) {
        // A region already in another zone is refused on the zone's regions, before anything is sent.
        const taken = page
          .locator(`.shipping-zone >> nth=${i}`)
          .getByRole("checkbox", { name: REGIONS.eastern[locale] });
        await taken.check();
        await saveButton(page, locale, "shipping").click();
        await eventually(() => page.locator(`${id("regions")}-error`).textContent()).toContain(REGIONS.eastern[locale]);
        await taken.uncheck();
      }
      await saveSection(page, locale, "shipping");
      await eventually(() => page.locator(id("standard")).inputValue()).toBe(zone.shown);
      await expectAxeClean(page, `shipping zones ${locale}`);
      await page
        .locator("section[aria-labelledby='settings-shipping-title']")
        .screenshot({ path: `${SCREENSHOTS}/settings-shipping-zones-${locale}.png` });
      await page.close();

      // A guest: the rest of the country's rate until the city is one of the zone's.
      const shopper = await newPage(browser);
      await shopper.page.goto(`${base}/${locale}/product-details/${product.slug}`);
      await hydrated(shopper.page, ".add-to-cart__button");
      await shopper.page.locator(".add-to-cart__button").click();
      await eventually(() => shopper.page.locator("#cart-drawer").evaluate((d) => (d as HTMLDialogElement).open)).toBe(
        true,
      );
      const rest = (await checkoutPrices(shopper.page, locale))[0]!;
      expect(rest).not.toContain(zone.shown);
      const zoneName = locale === "ar" ? zone.name_ar : zone.name_en;
      await shopper.page.locator("#co-city").fill(zone.city);
      await eventually(() => shopper.page.locator(".checkout__zone").textContent()).toBe(
        msg(locale, "checkoutZone.rates", { zone: zoneName }),
      );
      await eventually(() => shopper.page.locator(".choice__price").first().textContent()).toContain(zone.shown);
      await shopper.page.screenshot({ path: `${SCREENSHOTS}/checkout-zone-${locale}.png`, fullPage: true });
      await shopper.page.locator("#co-city").fill(zone.elsewhere);
      await eventually(() => shopper.page.locator(".checkout__zone").textContent()).toBe(
        msg(locale, "checkoutZone.rest"),
      );
      await eventually(() => shopper.page.locator(".choice__price").first().textContent()).toBe(rest);
      await shopper.page.close();
    }, 180_000);
  }
});

/** A new name for the store in each language (unique per run: the worker's database outlives a run). */
const STORE_NAME: Record<Locale, string> = {
  en: `Falcon Gadgets ${Date.now() % 1000}`,
  ar: `الصقر للأجهزة ${Date.now() % 1000}`,
};

describe("the store's name and logo in the shop", () => {
  it("the owner renames the store in both languages with a logo; the shop's header, footer, titles and manifests follow without a restart", async () => {
    const { page } = await newPage(browser);
    await openConsole(page, base, "ar", accounts["settings-store"]!);
    await page.goto(`${base}/ar/admin/settings`);
    await hydrated(page, "#settings-store-store_name_ar");
    await page.locator("#settings-store-store_name_en").fill(STORE_NAME.en);
    await page.locator("#settings-store-store_name_ar").fill(STORE_NAME.ar);
    await page.locator("#settings-store-logo_url").fill("/icons/icon-192.png");
    await saveSection(page, "ar", "store");
    await page.close();

    for (const locale of LOCALES) {
      const name = STORE_NAME[locale];
      const shopper = await newPage(browser);
      // A fresh page load each time: the shop learns the catalogue version within a second or two.
      await eventually(async () => {
        await shopper.page.goto(`${base}/${locale}/products`);
        return shopper.page.locator(".site-header__name").textContent();
      }).toBe(name);
      const logo = shopper.page.locator(".site-header__logo img");
      expect(await logo.getAttribute("alt")).toBe(name);
      expect(await logo.getAttribute("src")).toBe("/icons/icon-192.png");
      expect([await logo.getAttribute("width"), await logo.getAttribute("height")]).toEqual(["36", "36"]);
      expect(await shopper.page.locator(".site-footer__brand").textContent()).toBe(name);
      expect(await shopper.page.locator(".site-footer__legal").textContent()).toContain(name);
      // Nowhere in the footer the built-in name any more: the about line and the rights line name the store.
      expect(await shopper.page.locator("#site-footer").textContent()).not.toContain(msg(locale, "app.name"));
      expect(await shopper.page.title()).toBe(`${msg(locale, "pages.products.title")} | ${name}`);
      expect(await shopper.page.locator("meta[property='og:site_name']").getAttribute("content")).toBe(name);
      // A client-side navigation keeps them (the layout's data, no script of its own).
      await hydrated(shopper.page, ".site-nav a");
      await shopper.page
        .locator(".site-nav")
        .getByRole("link", { name: msg(locale, "nav.services") })
        .click();
      await eventually(() => shopper.page.title()).toBe(`${msg(locale, "pages.services.title")} | ${name}`);
      expect(await shopper.page.locator(".site-header__name").textContent()).toBe(name);
      await expectAxeClean(shopper.page, `store identity ${locale}`);
      await shopper.page.evaluate(() => window.scrollTo(0, 0));
      await shopper.page.screenshot({ path: `${SCREENSHOTS}/store-identity-${locale}.png` });
      await shopper.page
        .locator("#site-footer")
        .screenshot({ path: `${SCREENSHOTS}/store-identity-footer-${locale}.png` });
      const manifest = (await (await fetch(`${base}/manifest.${locale}.webmanifest`)).json()) as Record<string, string>;
      expect([manifest.name, manifest.short_name]).toEqual([name, name]);
      await shopper.page.close();
    }
  }, 180_000);
});

function saveButton(page: Page, locale: Locale, section: string) {
  const title = msg(locale, `console.settings.sections.${section}`);
  return page.getByRole("button", { name: msg(locale, "console.settings.save", { section: title }) });
}
