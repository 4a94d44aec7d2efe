import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import { PAGE_CACHEABLE_HEADER } from "../../contract/edge";
import { callBackend, forgetKnownVersion, VERSION_TTL_MS } from "../../worker/backend-client";
import {
  catalogueVersion as backendVersion,
  forgetCatalogueVersion,
  forgetRemembered,
} from "../../worker/backend/cache";
import type { HonoEnv } from "../../worker/env";
import { forgetPages, keepPage, PAGE_TTL_MS, servePage, SHORT_TTL_MS } from "../../worker/page-cache";
import { call, checkoutWith, createProduct, newGuest, newUser, stockOf } from "../support/commerce";
import { newStaff } from "../support/console";
import { paidOrder } from "../support/orders";
import { counted } from "../support/counted-db";
import { releaseExpiredReservations } from "../../worker/backend/services/orders/reservations";

// Caches that purge: the page cache (worker/page-cache.ts) keeps a rendered page under
// the catalogue version it was rendered under and never serves it under another; the version
// moves with console edits and with a product going out of stock or back (services/catalogue/availability.ts),
// not with a sale that leaves stock. The React build only exists in the built worker (test/http),
// so the page here is a small render through the same pieces: servePage, the in-process backend
// client (which notes each catalogue answer's version) and keepPage.

const shop = new Hono<HonoEnv>();
shop.get("/en/p/:slug", async (c) => {
  c.set("language", "en");
  const kept = await servePage(c, "");
  if (kept) return kept;
  const res = await callBackend(c, `/products/${c.req.param("slug")}`, { headers: { "content-language": "en" } });
  const { data } = (await res.json()) as { data: { name: string; price: number; stock: number; in_stock: boolean } };
  const html = `<p>${data.name}|${data.price}|${data.stock}|${data.in_stock ? "in" : "out"}</p>`;
  const page = new Response(html, { headers: { "content-type": "text/html", [PAGE_CACHEABLE_HEADER]: "1" } });
  return keepPage(c, page, "");
});

// The same read for no kept page (a signed-in visitor's render, which the page cache never keeps).
shop.get("/en/direct/:slug", async (c) => {
  const res = await callBackend(c, `/products/${c.req.param("slug")}`, { headers: { "content-language": "en" } });
  return new Response(await res.text(), { headers: { "x-answer-cache": res.headers.get("x-cache") ?? "" } });
});

/** The backend's product answer read for no kept page: where the backend found it (x-cache). */
async function directRead(slug: string): Promise<string | null> {
  const ctx = createExecutionContext();
  const res = await shop.request(`https://shop.test/en/direct/${slug}`, {}, env, ctx);
  await res.text();
  await waitOnExecutionContext(ctx); // the backend's copy is written in waitUntil
  return res.headers.get("x-answer-cache");
}

/** A new anonymous visitor's look at a product's page: what it says and where it came from. */
async function visit(slug: string): Promise<{ text: string; cache: string | null; tier: string | null }> {
  const ctx = createExecutionContext();
  const res = await shop.request(`https://shop.test/en/p/${slug}`, {}, env, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx); // the page is kept in waitUntil
  return { text, cache: res.headers.get("x-page-cache"), tier: res.headers.get("x-page-cache-tier") };
}

/** Both isolate memos of the version (the backend's and the page cache's): the next look asks D1. */
function forgetVersions(): void {
  forgetCatalogueVersion();
  forgetKnownVersion();
}

const catalogueVersion = async () =>
  (await env.DB.prepare("SELECT value FROM versions WHERE name = 'catalogue'").first<number>("value"))!;

/** A new category, so a product's page shows no other test's products as related. */
async function ownCategory(): Promise<number> {
  return (await env.DB.prepare("INSERT INTO categories (slug, name_en, name_ar) VALUES (?, 'Own', 'خاص') RETURNING id")
    .bind(`own-${crypto.randomUUID().slice(0, 8)}`)
    .first<number>("id"))!;
}

/** A page read until it is served from the page cache. */
async function kept(slug: string): Promise<string> {
  await visit(slug);
  const again = await visit(slug);
  expect(again.cache, slug).toBe("HIT");
  return again.text;
}

describe("the page cache follows the catalogue version", () => {
  it("GET /backend/catalogue/version answers the version, never cached", async () => {
    forgetVersions();
    const res = await call(null, "GET", "/catalogue/version");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ version: String(await catalogueVersion()) });
  });

  it("a console price edit reaches a kept page within the version's seconds, with no help; the new page is kept again", async () => {
    const manager = await newStaff("manager");
    const created = await call(manager, "POST", "/admin/products", {
      slug: `purge-${crypto.randomUUID().slice(0, 8)}`,
      sku: `PURGE-${crypto.randomUUID().slice(0, 8)}`,
      model: "P-1",
      name_en: "Purge lamp",
      name_ar: "مصباح التحديث",
      description_en: "",
      description_ar: "",
      specs_en: [],
      specs_ar: [],
      price: 14900,
      compare_at_price: null,
      stock: 40,
      max_per_order: 3,
      low_stock_threshold: 2,
      category_id: await ownCategory(),
      brand_id: null,
      images: [],
      is_featured: false,
      is_new: false,
      active: true,
    });
    expect(created.status, JSON.stringify(created.body.errors)).toBe(201);
    const { id, slug } = created.body.data as { id: number; slug: string };
    forgetVersions();
    expect(await kept(slug)).toBe("<p>Purge lamp|14900|40|in</p>");

    const updated = await call(manager, "PUT", `/admin/products/${id}`, {
      ...created.body.data,
      name_en: "Purge lamp II",
      price: 12900,
    });
    expect(updated.status, JSON.stringify(updated.body.errors)).toBe(200);
    const editedAt = Date.now();
    // No memo is forgotten: each isolate (the backend's and the page cache's) asks within a second.
    let page = await visit(slug);
    while (page.text !== "<p>Purge lamp II|12900|40|in</p>" && Date.now() - editedAt < 5_000) {
      await new Promise((r) => setTimeout(r, 100));
      page = await visit(slug);
    }
    expect(page.text).toBe("<p>Purge lamp II|12900|40|in</p>");
    expect(Date.now() - editedAt, "shown within the two memos of the version").toBeLessThan(2 * VERSION_TTL_MS + 1_000);
    expect(await kept(slug)).toBe("<p>Purge lamp II|12900|40|in</p>");
    // The catalogue API says the same, from its own caches after a first rebuild.
    const detail = await call(null, "GET", `/products/${slug}`);
    expect(detail.body.data).toMatchObject({ name: "Purge lamp II", price: 12900 });
  });

  it("a sale that leaves stock keeps the version, so unchanged pages stay kept; the last unit sold bumps it and the page shows sold out", async () => {
    const plenty = await createProduct({ stock: 30, maxPerOrder: 5, name: "Plenty" });
    const other = await createProduct({ stock: 30, maxPerOrder: 5, name: "Bystander" });
    const last = await createProduct({ stock: 1, maxPerOrder: 5, name: "Last one" });
    forgetVersions();
    expect(await kept(other.slug)).toBe(`<p>Bystander|${other.price}|30|in</p>`);
    expect(await kept(last.slug)).toBe(`<p>Last one|${last.price}|1|in</p>`);

    const before = await catalogueVersion();
    expect((await checkoutWith(await newGuest(), plenty.id, 2)).status).toBe(201);
    expect(await catalogueVersion(), "a sale that leaves stock").toBe(before);
    forgetVersions();
    expect((await visit(other.slug)).cache, "an unrelated page after a sale").toBe("HIT");

    const sold = await checkoutWith(await newGuest(), last.id, 1);
    expect(sold.status).toBe(201);
    expect(await catalogueVersion(), "the last unit sold").toBe(before + 1);
    forgetVersions();
    const soldOut = await visit(last.slug);
    expect(soldOut.cache).toBe("MISS");
    expect(soldOut.text).toBe(`<p>Last one|${last.price}|0|out</p>`);
    // Every page moved with the version (all are rendered once again), then is kept again.
    expect(await kept(other.slug)).toBe(`<p>Bystander|${other.price}|30|in</p>`);

    // The reservation runs out: the stock comes back, the version moves, the page shows it.
    await env.DB.prepare("UPDATE orders SET reserved_until = '2000-01-01T00:00:00.000Z' WHERE number = ?")
      .bind(sold.body.data.number)
      .run();
    await kept(last.slug);
    expect(await releaseExpiredReservations(env.DB)).toBeGreaterThan(0);
    expect(await catalogueVersion(), "back in stock").toBe(before + 2);
    forgetVersions();
    expect(await visit(last.slug)).toMatchObject({ text: `<p>Last one|${last.price}|1|in</p>`, cache: "MISS" });
  });

  it("a cancellation and a return received that bring a sold-out product back each move the version", async () => {
    const manager = await newStaff("manager");
    // A paid order of the whole stock (2 of 2): sold out, then cancelled by the shopper.
    const cancelling = await newUser();
    const cancelled = await paidOrder(cancelling, { stock: 2, quantity: 2 });
    expect(await stockOf(cancelled.product.id)).toBe(0);
    let before = await catalogueVersion();
    expect((await call(cancelling, "POST", `/orders/${cancelled.number}/cancel`)).status).toBe(200);
    expect(await stockOf(cancelled.product.id)).toBe(2);
    expect(await catalogueVersion(), "back in stock by a cancellation").toBe(before + 1);

    // Another sold out by a delivered order; one unit comes back through a return.
    const returning = await newUser();
    const order = await paidOrder(returning, { stock: 2, quantity: 2 });
    expect((await call(manager, "POST", `/admin/orders/${order.number}/process`)).status).toBe(200);
    const shipped = await call(manager, "POST", `/admin/orders/${order.number}/ship`, {
      carrier: "SMSA",
      tracking_number: "SM123456",
    });
    expect(shipped.status).toBe(200);
    expect((await call(manager, "POST", `/admin/orders/${order.number}/deliver`)).status).toBe(200);
    const requested = await call(returning, "POST", `/orders/${order.number}/returns`, {
      items: [{ product_id: order.product.id, quantity: 1, reason: "damaged" }],
    });
    const id = requested.body.data.self_service.returns[0].id as string;
    const returns = `/admin/orders/${order.number}/returns/${id}`;
    expect((await call(manager, "POST", `${returns}/approve`)).status).toBe(200);
    before = await catalogueVersion();
    expect((await call(manager, "POST", `${returns}/receive`)).status).toBe(200);
    expect(await stockOf(order.product.id)).toBe(1);
    expect(await catalogueVersion(), "back in stock by a return").toBe(before + 1);
  });

  it("a burst of visitors to a page nobody kept yet costs one render: the others wait for its copy", async () => {
    const product = await createProduct({ stock: 30, maxPerOrder: 5, name: "Burst" });
    const primer = await createProduct({ stock: 30, maxPerOrder: 5, name: "Primer" });
    forgetVersions();
    await visit(primer.slug); // the version is known: the burst below starts together
    const answers = await Promise.all(Array.from({ length: 6 }, () => visit(product.slug)));
    expect(answers.map((a) => a.cache).sort()).toEqual(["HIT", "HIT", "HIT", "HIT", "HIT", "MISS"]);
    expect(answers.filter((a) => a.cache === "HIT").map((a) => a.tier)).toEqual(Array(5).fill("waited"));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
  });

  it("another isolate of the data centre gets the kept page from the Cache API tier, under the current version only", async () => {
    const product = await createProduct({ stock: 30, maxPerOrder: 5, name: "Shared" });
    await env.DB.prepare("UPDATE products SET category_id = ? WHERE id = ?")
      .bind(await ownCategory(), product.id)
      .run();
    forgetVersions();
    await kept(product.slug);
    // This isolate's memory gone (another isolate's would be empty): the colo's copy answers.
    forgetPages();
    expect(await visit(product.slug)).toEqual({
      text: `<p>Shared|${product.price}|30|in</p>`,
      cache: "HIT",
      tier: "colo",
    });
    expect((await visit(product.slug)).tier, "remembered in memory again").toBe("memory");

    // A console price edit (the batch the console runs): the colo's copy is of the old version.
    await env.DB.batch([
      env.DB.prepare("UPDATE products SET price = 777 WHERE id = ?").bind(product.id),
      env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'catalogue'"),
    ]);
    forgetVersions();
    forgetPages();
    expect(await visit(product.slug)).toMatchObject({ text: "<p>Shared|777|30|in</p>", cache: "MISS" });
    forgetPages();
    expect(await visit(product.slug)).toMatchObject({ text: "<p>Shared|777|30|in</p>", tier: "colo" });
  });

  it("a page kept in the colo's tier is the only copy there: its render's backend answers stay in memory", async () => {
    const product = await createProduct({ stock: 30, maxPerOrder: 5, name: "Single copy" });
    forgetVersions();
    expect(await visit(product.slug)).toMatchObject({ cache: "MISS" });
    // Another isolate of the data centre: the page comes from the colo's tier…
    forgetPages();
    forgetRemembered();
    expect(await visit(product.slug)).toMatchObject({
      text: `<p>Single copy|${product.price}|30|in</p>`,
      tier: "colo",
    });
    // …but a read of the same answer for no kept page finds no copy of it there: D1 answers, and
    // that read, which no kept page covers, leaves its copy for the next isolate as before.
    expect(await directRead(product.slug)).toBe("MISS");
    forgetRemembered();
    expect(await directRead(product.slug)).toBe("HIT");
  });

  it("a page showing 'only N left' has its counts checked every SHORT_TTL_MS: unchanged it stays kept, a sale shows within that", async () => {
    expect(PAGE_TTL_MS).toBeGreaterThan(SHORT_TTL_MS);
    const low = await createProduct({ stock: 3, maxPerOrder: 5, name: "Low" });
    const steady = await createProduct({ stock: 4, maxPerOrder: 5, name: "Steady" });
    const calm = await createProduct({ stock: 30, maxPerOrder: 5, name: "Calm" });
    // Each alone in a category of its own: their pages' related products show no other count.
    for (const p of [low, steady, calm])
      await env.DB.prepare("UPDATE products SET category_id = ? WHERE id = ?")
        .bind(await ownCategory(), p.id)
        .run();
    forgetVersions();
    await kept(low.slug);
    await kept(steady.slug);
    await kept(calm.slug);
    const before = await catalogueVersion();
    expect((await checkoutWith(await newGuest(), low.id, 1)).status).toBe(201);
    expect(await catalogueVersion(), "3 to 2 left is no flip").toBe(before);
    const soldAt = Date.now();
    let page = await visit(low.slug);
    while (page.text !== `<p>Low|${low.price}|2|in</p>` && Date.now() - soldAt < SHORT_TTL_MS + 2_000) {
      await new Promise((r) => setTimeout(r, 250));
      page = await visit(low.slug);
    }
    expect(page.text).toBe(`<p>Low|${low.price}|2|in</p>`);
    expect(Date.now() - soldAt).toBeLessThanOrEqual(SHORT_TTL_MS + 1_000);
    // Past SHORT_TTL_MS, a page whose count did not change was checked, not rendered again; a
    // page with no count was not even checked.
    expect(await visit(steady.slug)).toMatchObject({ text: `<p>Steady|${steady.price}|4|in</p>`, cache: "HIT" });
    expect((await visit(calm.slug)).cache).toBe("HIT");
  }, 20_000);

  it("GET /backend/catalogue/stock answers the stock of the ids asked, and refuses anything else with a 422", async () => {
    const a = await createProduct({ stock: 3 });
    const b = await createProduct({ stock: 0 });
    const res = await call(null, "GET", `/catalogue/stock?ids=${a.id},${b.id},999999999`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ [a.id]: 3, [b.id]: 0 });
    for (const bad of [
      "",
      "ids=",
      "ids=1,,2",
      "ids=a",
      `ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}`,
    ]) {
      const refused = await call(null, "GET", `/catalogue/stock?${bad}`);
      expect(refused.status, bad).toBe(422);
      expect(refused.body.errors?.ids, bad).toBeDefined();
    }
  });

  it("hidden product probe: the public stock endpoint says nothing of an inactive product", async () => {
    const shown = await createProduct({ stock: 4 });
    const hidden = await createProduct({ stock: 5 });
    await env.DB.prepare("UPDATE products SET active = 0 WHERE id = ?").bind(hidden.id).run();
    const res = await call(null, "GET", `/catalogue/stock?ids=${shown.id},${hidden.id}`);
    expect(res.status).toBe(200);
    // Left out, as a product that does not exist: the same answer a stranger's guess gets.
    expect(res.body.data).toEqual({ [shown.id]: 4 });
    expect((await call(null, "GET", `/catalogue/stock?ids=${hidden.id}`)).body.data).toEqual({});
  });
});

describe("the catalogue version is read ahead", () => {
  it("the backend reads it again after an answer once it is past half its second, never serving one older", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      forgetCatalogueVersion();
      const tasks: Promise<unknown>[] = [];
      const defer = (task: Promise<unknown>) => void tasks.push(task);
      const db = counted(env.DB);
      const before = await backendVersion(db.db, defer);
      expect(db.trips()).toBe(1);
      // Young: served as read, nothing more.
      vi.setSystemTime(Date.now() + VERSION_TTL_MS * 0.4);
      expect(await backendVersion(db.db, defer)).toBe(before);
      expect(tasks).toHaveLength(0);
      // Past half its second: still served (it is not a second old), and read again after the answer.
      await env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'catalogue'").run();
      vi.setSystemTime(Date.now() + VERSION_TTL_MS * 0.2);
      expect(await backendVersion(db.db, defer)).toBe(before);
      expect(tasks).toHaveLength(1);
      await Promise.all(tasks);
      expect(db.trips()).toBe(2);
      // The next request has the new version at once, with no read of its own.
      expect(await backendVersion(db.db, defer)).toBe(String(Number(before) + 1));
      expect(db.trips()).toBe(2);
      // Without a waitUntil (or once a second has passed) the read is waited for, as before.
      vi.setSystemTime(Date.now() + VERSION_TTL_MS);
      await backendVersion(db.db);
      expect(db.trips()).toBe(3);
      // This isolate changes the catalogue while a read is under way: that read's answer is not kept.
      forgetCatalogueVersion();
      const underWay = backendVersion(db.db);
      forgetCatalogueVersion();
      await env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'catalogue'").run();
      await underWay;
      expect(await backendVersion(db.db)).toBe(String(await catalogueVersion()));
      expect(db.trips()).toBe(5);
    } finally {
      vi.useRealTimers();
    }
  });

  it("the page cache asks again after a page past half the version's second, so the next visitor gets the new version", async () => {
    const product = await createProduct({ stock: 30, maxPerOrder: 5, name: "Ahead" });
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      forgetVersions();
      forgetPages();
      await kept(product.slug);
      // The catalogue moves (an edit in another isolate); this isolate's backend reads D1 afresh.
      await env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'catalogue'").run();
      forgetCatalogueVersion();
      // Past half the second: the kept page is still served under the version known (not a second
      // old), and the question is asked again after it…
      vi.setSystemTime(Date.now() + VERSION_TTL_MS * 0.6);
      expect((await visit(product.slug)).cache).toBe("HIT");
      // …so the very next visitor's page is rendered under the new version, with no second to wait.
      expect((await visit(product.slug)).cache).toBe("MISS");
    } finally {
      vi.useRealTimers();
    }
  });
});
