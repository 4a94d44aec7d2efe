import { mkdirSync } from "node:fs";
import { crc32, deflateSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAxeClean } from "../support/axe.ts";
import {
  belowStickyHeader,
  hydrated,
  journeyIt,
  launchBrowser,
  LOCALES,
  newPage,
  SCREENSHOTS,
  toastSays,
} from "../support/browser.ts";
import {
  consoleHttpSession,
  newStaffAccounts,
  openConsole,
  registerAccount,
  STAFF_PASSWORD,
} from "../support/console-browser.ts";
import { builtWorker, jsonApi, visitorIp } from "../support/http.ts";
import { withLocalD1 } from "../support/local-d1.ts";
import { say } from "../support/messages.ts";
import type { OwnReview } from "../../contract/reviews.ts";

/**
 * Product reviews in Chromium, in both languages. A buyer whose order was delivered is invited
 * by email, follows the link (signing in on the way), rates the product and writes a review with a
 * photo, resized in the browser; staff approve it and reply in the console; a new visitor then sees
 * the stars and count on the product's card, and the review, its photo and the store's reply on the
 * product page, whose JSON-LD carries the rating. A shopper who never bought the product is offered
 * no form and the API refuses their review. A review's text that is markup shows as text.
 */
const base = builtWorker().url;
const persistDir = builtWorker().persistDir;
type Locale = (typeof LOCALES)[number];
let browser: Browser;
let staff: Record<string, string>;
let products: { id: number; slug: string; model: string; name: string }[];
/** The owner's console API, which sets the store's review settings. */
let owner: Awaited<ReturnType<typeof staffApi>>;

const eventually = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 150 });
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** A real PNG the browser decodes: `width` × `height` of one colour, built by hand. */
function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "ascii");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Runs SQL on the suite's worker's D1, as the clock moving on would leave it. */
function sql(command: string, ...args: (string | number)[]): void {
  withLocalD1(persistDir, (db) => db.prepare(command).run(...args));
}

const fireCron = () => fetch(`${base}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`);

/** Signs in over HTTP: the account's bearer token. */
async function tokenOf(email: string): Promise<string> {
  const login = await jsonApi(base, { "cf-connecting-ip": visitorIp() })("/backend/client/auth/login", {
    method: "POST",
    body: { email, password: STAFF_PASSWORD },
  });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return login.body.data.auth_data.access_token as string;
}

/** A staff member's console API (their console session opened over HTTP). */
async function staffApi(email: string) {
  const { token } = await consoleHttpSession(base, email);
  return jsonApi(base, { authorization: `Bearer ${token}`, "cf-connecting-ip": visitorIp() });
}

/**
 * A new account buys `productId` through the real cart, checkout and the sandbox's card page, in
 * `locale`, and a manager delivers it through the console's API.
 */
async function deliveredOrder(locale: Locale, productId: number, label: string) {
  const email = `review-${label}-${locale}-${unique()}@example.com`;
  const name = locale === "ar" ? "نورة العتيبي" : "Noura Alotaibi";
  await registerAccount(base, email, name);
  const token = await tokenOf(email);
  const ip = visitorIp();
  const api = jsonApi(base, { authorization: `Bearer ${token}`, "cf-connecting-ip": ip, "content-language": locale });
  const added = await api("/backend/cart/add-product", {
    method: "POST",
    body: { product_id: productId, quantity: 1 },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const placed = await api("/backend/checkout", {
    method: "POST",
    body: {
      idempotency_key: crypto.randomUUID(),
      email,
      address: { name, phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
      shipping_method: "standard",
      payment_method: "card",
    },
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const number = String(placed.body.data.number);
  const started = await api(`/backend/payments/${number}/start`, {
    method: "POST",
    body: { return_url: `/${locale}/payment-status` },
  });
  expect(started.status).toBe(200);
  const paid = await fetch(`${base}${started.body.data.redirect_url}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base, "cf-connecting-ip": ip },
    body: new URLSearchParams({ card_number: "4242 4242 4242 4242", expiry: "12/39", cvc: "123", action: "pay" }),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  const manager = await staffApi(staff[`deliver-${label}-${locale}`]!);
  for (const [step, body] of [
    ["process", {}],
    ["ship", { carrier: "SMSA", tracking_number: `SM${Date.now()}` }],
    ["deliver", {}],
  ] as const) {
    const answer = await manager(`/backend/admin/orders/${number}/${step}`, { method: "POST", body });
    expect(answer.status, `${step}: ${JSON.stringify(answer.body)}`).toBe(200);
  }
  return { email, token, number, name };
}

/** Reads the outbox until a message to `to` of `purpose` arrives. */
async function messageTo(to: string, purpose: string): Promise<{ text: string; subject: string | null }> {
  let found: { text: string; subject: string | null } | undefined;
  await eventually(async () => {
    await fireCron();
    const res = await fetch(`${base}/backend/dev/outbox?to=${encodeURIComponent(to)}`);
    const body = (await res.json()) as { data: { purpose: string; text: string; subject: string | null }[] };
    found = body.data.find((m) => m.purpose === purpose);
    return Boolean(found);
  }, 30_000).toBe(true);
  return found!;
}

/** Scrolls the product page to its reviews and waits for the section's code and first page. */
async function openReviews(page: Page) {
  await page.locator("#reviews").scrollIntoViewIfNeeded();
  await page.waitForSelector("#reviews .reviews__body");
  await eventually(() => page.locator("#reviews .reviews__list").getAttribute("aria-busy")).toBe("false");
}

/** The product page's schema.org Product (or ProductGroup). */
async function productJsonLd(page: Page): Promise<Record<string, unknown>> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const data = blocks.map((b) => JSON.parse(b) as Record<string, unknown>);
  return data.find((d) => d["@type"] === "Product" || d["@type"] === "ProductGroup")!;
}

/** A browser page signed in as `email` (the own server's cookie and the tab's token), as after login. */
async function signedInPage(email: string) {
  const { token, cookie, userId } = await consoleHttpSession(base, email);
  const opened = await newPage(browser);
  const at = cookie.indexOf("=");
  await opened.context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: base }]);
  await opened.context.addInitScript(
    ([tk, id]) => {
      sessionStorage.setItem("token", tk);
      sessionStorage.setItem("userId", id);
    },
    [token, String(userId)] as const,
  );
  return { ...opened, token };
}

/** POST /client/reviews as the form sends it (multipart), with real photos. */
async function postReview(token: string, locale: Locale, fields: Record<string, string>, photos: Buffer[] = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  for (const [n, png] of photos.entries())
    form.append("photos", new File([new Uint8Array(png)], `photo-${n}.png`, { type: "image/png" }));
  const res = await fetch(`${base}/backend/client/reviews`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/json",
      "content-language": locale,
      "cf-connecting-ip": visitorIp(),
    },
    body: form,
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as { data: OwnReview } };
}

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  staff = await newStaffAccounts(
    base,
    Object.fromEntries([
      ["owner", "owner"] as const,
      ...LOCALES.flatMap((l) => [
        [`deliver-journey-${l}`, "manager"] as const,
        [`deliver-markup-${l}`, "manager"] as const,
        [`moderate-${l}`, "manager"] as const,
        [`markup-${l}`, "manager"] as const,
        [`deliver-edit-${l}`, "manager"] as const,
        [`settings-${l}`, "owner"] as const,
        [`reports-${l}`, "manager"] as const,
      ]),
    ]),
  );
  // Every review waits for a moderator here, and buyers are invited a day after delivery.
  owner = await staffApi(staff.owner!);
  const saved = await owner("/backend/admin/settings/reviews", {
    method: "PUT",
    body: { publish: "hold", screen_links: true, screen_contacts: true, blocked_words: [], invitation_days: 1 },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const listed = await jsonApi(base)("/backend/products?in_stock=1&per_page=48&sort=newest");
  products = (
    listed.body.data as {
      id: number;
      slug: string;
      model: string;
      name: string;
      stock: number;
      variant_count?: number;
    }[]
  )
    .filter((p) => (p.variant_count ?? 1) === 1 && p.stock >= 5)
    .slice(2);
  expect(products.length).toBeGreaterThan(8);
});

afterAll(async () => {
  // The shop's own defaults again, for whatever runs next on this worker.
  await owner?.("/backend/admin/settings/reviews", {
    method: "PUT",
    body: { publish: "clean", screen_links: true, screen_contacts: true, blocked_words: [], invitation_days: 7 },
  });
  await browser?.close();
});

describe("the review rules in the console's settings", () => {
  for (const locale of LOCALES) {
    it(`${locale}: an owner holds every review for approval and lists blocked words`, async () => {
      const t = (key: string, params?: Record<string, string | number>) => say(locale, key, params);
      const { context, page, errors } = await newPage(browser);
      await openConsole(page, base, locale, staff[`settings-${locale}`]!);
      await page.goto(`${base}/${locale}/admin/settings#settings-reviews-title`);
      const section = page.locator("section:has(#settings-reviews-title)");
      await hydrated(page, "#settings-reviews-publish");
      expect(await section.locator("h2").textContent()).toBe(t("console.settings.sections.reviews"));
      // A day too many is refused on its field before anything is sent.
      await section.locator("#settings-reviews-invitation_days").fill("91");
      await section
        .getByRole("button", { name: t("console.settings.save", { section: t("console.settings.sections.reviews") }) })
        .click();
      await eventually(() => section.locator(".field__error").first().textContent()).toBe(
        t("console.settings.errors.days", { max: 90 }),
      );
      await section.locator("#settings-reviews-publish").selectOption("hold");
      await section.locator("#settings-reviews-invitation_days").fill(locale === "ar" ? "١" : "1");
      await section.locator("#settings-reviews-blocked_words").fill(`spamword\nكلمة ممنوعة`);
      await section
        .getByRole("button", { name: t("console.settings.save", { section: t("console.settings.sections.reviews") }) })
        .click();
      await toastSays(page, t("console.settings.saved"));
      const saved = await owner("/backend/admin/settings");
      expect(saved.body.data.values.reviews).toEqual({
        publish: "hold",
        screen_links: true,
        screen_contacts: true,
        blocked_words: ["spamword", "كلمة ممنوعة"],
        invitation_days: 1,
      });
      // The section starts again from what was saved (its form is keyed by the save's time).
      await eventually(() => page.locator("#settings-reviews-invitation_days").inputValue()).toBe("1");
      await page.waitForLoadState("networkidle");
      await page
        .locator("section:has(#settings-reviews-title)")
        .screenshot({ path: `${SCREENSHOTS}/reviews-settings-${locale}.png` });
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

for (const [i, locale] of LOCALES.entries()) {
  const t = (key: string, params?: Record<string, string | number>) => say(locale, key, params);

  describe(`product reviews (${locale})`, () => {
    it("a buyer invited after delivery reviews with a photo, staff approve and reply, and a new visitor sees it all", async () => {
      const product = products[i]!;
      const buyer = await deliveredOrder(locale, product.id, "journey");

      // A day after delivery the cron invites the buyer, in the order's language.
      sql(
        "UPDATE orders SET delivered_at = ? WHERE number = ?",
        new Date(Date.now() - 26 * 3600_000).toISOString(),
        buyer.number,
      );
      const invitation = await messageTo(buyer.email, "shopper.review_invitation");
      const link = invitation.text.match(/https?:\/\/\S+\/reviews\/write\?order=[\w-]+/)?.[0];
      expect(link, invitation.text).toBeTruthy();
      const path = new URL(link!).pathname + new URL(link!).search;
      expect(path).toBe(`/${locale}/reviews/write?order=${buyer.number}`);

      // The link asks them to sign in, then opens the order's products to review.
      const shopper = await newPage(browser);
      const page = shopper.page;
      await page.goto(`${base}${path}`);
      await page.waitForURL(/\/auth\/login\?redirect=/);
      await hydrated(page, "form.auth-form");
      await page.locator("input[name=email]").fill(buyer.email);
      await page.locator("input[name=password]").fill(STAFF_PASSWORD);
      await page.locator("form.auth-form button[type=submit]").click();
      await page.waitForURL(`${base}${path}`);
      await hydrated(page, ".review-form button[type=submit]");
      const card = page.locator(`[data-product="${product.slug}"]`);
      await expect.poll(() => card.count()).toBe(1);

      // Sent empty, the form says what is missing on its fields and in the summary.
      await card.locator("button[type=submit]").click();
      await eventually(() => page.locator(".form__summary").count()).toBe(1);
      expect(await card.locator(".star-picker .field__error").textContent()).toBe(t("reviews.form.ratingRequired"));

      // Four stars with the keyboard: the radio group moves with the arrow keys.
      await card.locator(".star-picker input").first().focus();
      await page.keyboard.press("Space");
      for (let n = 1; n < 4; n++) await page.keyboard.press("ArrowDown");
      expect(await card.locator(".star-picker input:checked").getAttribute("value")).toBe("4");
      const title = locale === "ar" ? "شاشة رائعة وبطارية تدوم" : "Great screen, lasting battery";
      const body =
        locale === "ar"
          ? "استخدمته أسبوعين: الشاشة واضحة في الشمس والبطارية تكفي يومين."
          : "Two weeks in: the screen is clear in sunlight and the battery lasts two days.";
      await card.locator("#review-0-title").fill(title);
      await card.locator("#review-0-body").fill(body);
      await card.locator("#review-0-author_name").fill(locale === "ar" ? "نورة" : "Noura");
      // A 2400 × 1800 photo leaves the browser as a 1600 px display copy and a 320 px thumbnail.
      await card.locator("#review-0-photos").setInputFiles({
        name: "camera.png",
        mimeType: "image/png",
        buffer: solidPng(2400, 1800, [30, 120, 200]),
      });
      await eventually(() => card.locator(".photo-picker__item img").count()).toBe(1);
      await expectAxeClean(page, `review form (${locale})`);
      await page.screenshot({ path: `${SCREENSHOTS}/reviews-form-${locale}.png`, fullPage: true });

      const sent = page.waitForResponse(
        (r) => r.url().endsWith("/backend/client/reviews") && r.request().method() === "POST",
      );
      await card.locator("button[type=submit]").click();
      expect((await sent).status()).toBe(201);
      await eventually(() => card.locator(".review-write__done").textContent()).toContain(
        t("reviews.write.thanksPending"),
      );
      await shopper.context.close();

      // Staff approve it and reply, in the console.
      const moderator = await newPage(browser);
      await openConsole(moderator.page, base, locale, staff[`moderate-${locale}`]!);
      const console_ = moderator.page;
      await console_.goto(`${base}/${locale}/admin/reviews`);
      await hydrated(console_, ".console-reviews__tabs a");
      const on = (action: string) => t("console.reviews.actionOn", { action: t(action), title });
      await console_.getByRole("button", { name: on("console.reviews.approve") }).click();
      await toastSays(console_, t("console.reviews.approved"));
      await console_.locator('.console-reviews__tabs a[data-tab="published"]').click();
      await console_.waitForURL(/status=published/);
      await console_.getByRole("button", { name: on("console.reviews.reply") }).click();
      const dialog = console_.locator("dialog[open]");
      const reply =
        locale === "ar" ? "شكرًا لك يا نورة، سعدنا بتجربتك." : "Thank you, Noura: we are glad it serves you well.";
      await dialog.locator("textarea").fill(reply);
      await dialog.locator("select").selectOption(locale);
      await dialog.getByRole("button", { name: t("console.reviews.saveReply") }).click();
      await toastSays(console_, t("console.reviews.replied"));
      await eventually(() => console_.locator(".console-reviews__reply").first().textContent()).toContain(reply);
      await expectAxeClean(console_, `console reviews (${locale})`);
      await console_.screenshot({ path: `${SCREENSHOTS}/reviews-console-${locale}.png`, fullPage: true });
      await moderator.context.close();

      // A new visitor: the stars and count on the product's card...
      const visitor = await newPage(browser);
      const v = visitor.page;
      await v.goto(`${base}/${locale}/products?q=${encodeURIComponent(product.model)}`);
      const rating = v.locator(`.product-card:has(a[href*="/product-details/${product.slug}"]) .card-rating`);
      await eventually(() => rating.count()).toBe(1);
      expect(await rating.innerText()).toContain("4.0 (1)");
      await v
        .locator(`.product-card:has(a[href*="/product-details/${product.slug}"])`)
        .screenshot({ path: `${SCREENSHOTS}/reviews-card-${locale}.png` });
      expect(await rating.locator(".visually-hidden").textContent()).toBe(
        t("reviews.stars.label", { average: "4.0", count: 1 }),
      );

      // ...and on the product page: the rating by the name, the review, its photo and the reply.
      await v.goto(`${base}/${locale}/product-details/${product.slug}`);
      await hydrated(v, ".rating-link");
      await v.screenshot({ path: `${SCREENSHOTS}/reviews-product-top-${locale}.png` });
      const jsonLd = await productJsonLd(v);
      expect(jsonLd.aggregateRating).toEqual({
        "@type": "AggregateRating",
        ratingValue: "4.0",
        reviewCount: 1,
        bestRating: 5,
        worstRating: 1,
      });
      expect((jsonLd.review as { author: { name: string }; reviewBody: string }[])[0]).toMatchObject({
        author: { name: locale === "ar" ? "نورة" : "Noura" },
        reviewBody: body,
      });
      // The rating leads to the reviews, in view below the sticky header; Back returns to the top.
      await v.locator(".rating-link").click();
      await v.waitForURL((u) => u.hash === "#reviews");
      const reviewsBelowHeader = () => belowStickyHeader(v, "#reviews");
      await eventually(reviewsBelowHeader).toBe(true);
      await v.goBack();
      await v.waitForURL((u) => u.hash === "");
      await eventually(() => v.evaluate(() => scrollY)).toBe(0);
      await v.goForward();
      await eventually(reviewsBelowHeader).toBe(true);
      await openReviews(v);
      const review = v.locator("#reviews article.review").first();
      expect(await review.locator(".review__title").textContent()).toBe(title);
      expect(await review.locator(".review__text").first().textContent()).toBe(body);
      expect(await review.locator(".review__verified").textContent()).toBe(t("reviews.item.verified"));
      expect(await review.locator(".review__reply").textContent()).toContain(reply);
      expect(await review.locator(".review__helpful").textContent()).toBe(t("reviews.item.helpful", { count: 0 }));
      expect(await v.locator("#reviews .reviews__count").textContent()).toBe(
        say(locale, "reviews.count.one", { count: 1 }),
      );

      // The photo went up as a 320 px thumbnail and a 1600 px display copy (resized in the browser);
      // the thumbnail opens the display copy in a dialog that takes the focus and gives it back.
      const thumb = review.locator(".review__photo");
      await eventually(() =>
        thumb.locator("img").evaluate((img: HTMLImageElement) => img.complete && [img.naturalWidth, img.naturalHeight]),
      ).toEqual([320, 240]);
      await thumb.click();
      const viewer = v.locator("dialog.photo-viewer[open]");
      await eventually(() => viewer.count()).toBe(1);
      expect(await v.evaluate(() => document.activeElement?.textContent)).toBe(t("reviews.photos.close"));
      const shown = viewer.locator("img");
      await eventually(() =>
        shown.evaluate((img: HTMLImageElement) => img.complete && [img.naturalWidth, img.naturalHeight]),
      ).toEqual([1600, 1200]);
      await v.keyboard.press("Escape");
      await eventually(() => viewer.count()).toBe(0);
      expect(await thumb.evaluate((el) => el === document.activeElement)).toBe(true);

      // "Helpful" counts the visitor once (a guest id of their own).
      await review.locator(".review__helpful").click();
      await eventually(() => review.locator(".review__helpful").textContent()).toBe(
        t("reviews.item.helpful", { count: 1 }),
      );
      // "Report" asks for a reason in a small dialog; the review then waits in the console's Reported tab.
      await review.locator(".review__report").click();
      const reportDialog = v.locator("dialog.review-dialog[open]");
      await eventually(() => reportDialog.count()).toBe(1);
      await reportDialog.getByRole("button", { name: t("reviews.report.send") }).click();
      expect(await reportDialog.locator(".field__error").textContent()).toBe(t("reviews.report.pick"));
      await reportDialog.getByLabel(t("reviews.report.reasons.off_topic")).check();
      await reportDialog.getByRole("button", { name: t("reviews.report.send") }).click();
      await toastSays(v, t("reviews.report.thanks"));
      expect(await review.locator(".review__actions").textContent()).toContain(t("reviews.report.done"));
      const reported = await (await staffApi(staff[`reports-${locale}`]!))("/backend/admin/reviews?status=reported");
      expect(reported.body.data.map((r: { title: string }) => r.title)).toContain(title);
      await expectAxeClean(v, `product page with reviews (${locale})`);
      // The header stays put for the shots, so it covers nothing of the section.
      await v.evaluate(() =>
        document.querySelector<HTMLElement>(".site-header")?.style.setProperty("position", "static"),
      );
      await v.locator("#reviews").screenshot({ path: `${SCREENSHOTS}/reviews-section-${locale}.png` });
      await v.setViewportSize({ width: 390, height: 844 });
      await v.locator("#reviews").screenshot({ path: `${SCREENSHOTS}/reviews-section-${locale}-390.png` });
      expect(await v.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(visitor.errors).toEqual([]);
      await visitor.context.close();
    });

    it("a shopper who has not bought the product sees no way to review it, and the API refuses their review", async () => {
      const product = products[4 + i]!;
      const email = `review-stranger-${locale}-${unique()}@example.com`;
      await registerAccount(base, email, "Sami Stranger");
      const { context, page, errors, token } = await signedInPage(email);
      const eligibility = page.waitForResponse((r) => r.url().includes("/backend/client/reviews/eligibility"));
      await page.goto(`${base}/${locale}/product-details/${product.slug}`);
      await hydrated(page, "#reviews");
      await openReviews(page);
      expect((await eligibility).status()).toBe(200);
      await eventually(() => page.locator("#reviews .reviews__who").textContent()).toBe(t("reviews.write.notBought"));
      expect(await page.getByRole("link", { name: t("reviews.write.button") }).count()).toBe(0);

      // Straight to the API with a photo and all: refused, and nothing is written.
      const form = new FormData();
      form.set("product", product.slug);
      form.set("rating", "5");
      form.set("title", "Never bought it");
      form.set("body", "But I have opinions.");
      form.append("photos", new File([new Uint8Array(solidPng(40, 30, [200, 0, 0]))], "p.png", { type: "image/png" }));
      const refused = await fetch(`${base}/backend/client/reviews`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, accept: "application/json", "cf-connecting-ip": visitorIp() },
        body: form,
      });
      expect(refused.status).toBe(403);
      const list = await jsonApi(base)(`/backend/catalogue/products/${product.slug}/reviews`);
      expect(list.body.data.some((r: { title: string }) => r.title === "Never bought it")).toBe(false);

      // The form page, opened by hand, says why rather than offering a form.
      await page.goto(`${base}/${locale}/reviews/write?product=${product.slug}`);
      await hydrated(page, ".review-write");
      expect(await page.locator(".review-write .notice").textContent()).toBe(t("reviews.write.refused.notBought"));
      expect(await page.locator(".review-form").count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });

    journeyIt(locale, "en")(
      "a buyer edits their review from the product page: the form is prefilled and one photo is let go",
      async () => {
        const product = products[6 + i]!;
        const buyer = await deliveredOrder(locale, product.id, "edit");
        const { context, page, errors } = await signedInPage(buyer.email);

        // Before they write, their product page offers the form for that product.
        await page.goto(`${base}/${locale}/product-details/${product.slug}`);
        await hydrated(page, "#reviews");
        await openReviews(page);
        const write = page.getByRole("link", { name: t("reviews.write.button") });
        await eventually(() => write.count()).toBe(1);
        expect(await write.getAttribute("href")).toBe(`/${locale}/reviews/write?product=${product.slug}`);

        const first = await postReview(
          buyer.token,
          locale,
          { product: product.slug, rating: "3", title: "First look", body: "Works, but the case is loose." },
          [solidPng(400, 300, [200, 40, 40]), solidPng(300, 400, [40, 160, 60])],
        );
        expect(first.status, JSON.stringify(first.body)).toBe(201);
        const [gone, stays] = first.body.data.photos;

        await page.reload();
        await hydrated(page, "#reviews");
        await openReviews(page);
        await eventually(() => page.locator("#reviews .reviews__own").textContent()).toBe(t("reviews.own.pending"));
        await page.getByRole("link", { name: t("reviews.own.edit") }).click();
        await page.waitForURL(`${base}/${locale}/reviews/write?product=${product.slug}`);
        await hydrated(page, ".review-form button[type=submit]");
        expect(await page.locator("#review-0-title").inputValue()).toBe("First look");
        expect(await page.locator(".star-picker input:checked").getAttribute("value")).toBe("3");
        expect(await page.locator(".photo-picker__item img").count()).toBe(2);

        await page.getByRole("button", { name: t("reviews.form.removePhoto", { n: 1 }) }).click();
        expect(
          await page.getByRole("button", { name: t("reviews.form.keepPhoto", { n: 1 }) }).getAttribute("aria-pressed"),
        ).toBe("true");
        await page.locator("#review-0-title").fill("Better after a week");
        const saved = page.waitForResponse(
          (r) => r.url().endsWith("/backend/client/reviews") && r.request().method() === "POST",
        );
        await page.locator(".review-form button[type=submit]").click();
        expect((await saved).status()).toBe(200);
        await eventually(() => page.locator(".review-write__done").textContent()).toContain(
          t("reviews.write.thanksPending"),
        );

        const own = await jsonApi(base, { authorization: `Bearer ${buyer.token}` })(
          `/backend/client/reviews/eligibility?product=${product.slug}`,
        );
        expect(own.body.data.own.title).toBe("Better after a week");
        expect(own.body.data.own.photos.map((p: { key: string }) => p.key)).toEqual([stays!.key]);
        expect(gone!.key).not.toBe(stays!.key);
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    it("a review whose text is markup shows as text, and nothing in it runs", async () => {
      const product = products[2 + i]!;
      const buyer = await deliveredOrder(locale, product.id, "markup");
      const markup = "<script>alert(1)</script>";
      const title = `<img src=x onerror=alert(2)> ${locale}`;
      const posted = await postReview(buyer.token, locale, { product: product.slug, rating: "2", title, body: markup });
      expect(posted.status).toBe(201);
      const id = posted.body.data.id;
      const manager = await staffApi(staff[`markup-${locale}`]!);
      expect((await manager(`/backend/admin/reviews/${id}/approve`, { method: "POST", body: {} })).status).toBe(200);

      const { context, page, errors } = await newPage(browser);
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(`${base}/${locale}/product-details/${product.slug}`);
      await hydrated(page, "#reviews");
      await openReviews(page);
      const review = page.locator(`#reviews article[data-review="${id}"]`);
      expect(await review.locator(".review__text").textContent()).toBe(markup);
      expect(await review.locator(".review__title").textContent()).toBe(title);
      expect(await page.locator("#reviews script, #reviews img[src=x]").count()).toBe(0);
      // The structured data carries it as a string, escaped, never as a script of the page.
      const jsonLd = await productJsonLd(page);
      expect((jsonLd.review as { reviewBody: string }[])[0]!.reviewBody).toBe(markup);
      await page.waitForTimeout(300);
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
