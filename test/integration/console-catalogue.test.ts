import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { MEDIA_MAX_BYTES } from "../../contract/console-catalogue";
import { VERSION_TTL_MS } from "../../worker/backend/cache";
import { backendApp } from "../../worker/backend";
import { sniffImage } from "../../worker/backend/services/console/media";
import type { HonoEnv } from "../../worker/env";
import { securityHeaders } from "../../worker/middleware/headers";
import { call, createProduct, freshIp, newGuest } from "../support/commerce";
import { consoleCast, newStaff, type Staff } from "../support/console";

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** A category of the console's tests (real rows, as the console's category page would make them). */
async function category(): Promise<number> {
  await env.DB.prepare(
    "INSERT INTO categories (slug, name_en, name_ar) VALUES ('console-test', 'Console gadgets', 'أجهزة اللوحة') ON CONFLICT (slug) DO NOTHING",
  ).run();
  return (await env.DB.prepare("SELECT id FROM categories WHERE slug = 'console-test'").first<number>("id"))!;
}

async function productInput(overrides: Record<string, unknown> = {}) {
  const slug = unique("lamp");
  return {
    slug,
    sku: slug.toUpperCase(),
    model: "L-1",
    name_en: "Aurora desk lamp",
    name_ar: "مصباح مكتب أورورا",
    description_en: "A warm light for late work.",
    description_ar: "ضوء دافئ للعمل المتأخر.",
    specs_en: [{ label: "Power", value: "9 W" }],
    specs_ar: [{ label: "القدرة", value: "9 واط" }],
    price: 14900,
    compare_at_price: 19900,
    stock: 7,
    max_per_order: 3,
    low_stock_threshold: 2,
    category_id: await category(),
    brand_id: null,
    images: [],
    is_featured: false,
    is_new: true,
    active: true,
    ...overrides,
  };
}

async function auditLines(entityId: number) {
  const { results } = await env.DB.prepare(
    "SELECT action, staff_email, before_json, after_json FROM audit_log WHERE entity = 'product' AND entity_id = ? ORDER BY id",
  )
    .bind(String(entityId))
    .all<{ action: string; staff_email: string; before_json: string | null; after_json: string | null }>();
  return results;
}

const version = async () =>
  (await env.DB.prepare("SELECT value FROM versions WHERE name = 'catalogue'").first<number>("value"))!;

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (ch) => ch.charCodeAt(0),
);

async function upload(staff: Staff, body: BodyInit, contentType = "application/octet-stream") {
  const res = await SELF.fetch("http://shop.test/backend/admin/media", {
    method: "POST",
    headers: {
      ...staff.headers,
      "content-type": contentType,
      accept: "application/json",
      "cf-connecting-ip": freshIp(),
    },
    body,
  });
  return {
    status: res.status,
    body: (await res.json()) as { data: { url: string; width: number }; errors?: Record<string, string[]> },
  };
}

describe("products in the console", () => {
  it("a manager creates, edits and deactivates a product, each with its audit line and a new catalogue version", async () => {
    const manager = await newStaff("manager");
    const before = await version();
    const created = await call(manager, "POST", "/admin/products", await productInput());
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({
      stock: 7,
      active: true,
      specs_ar: [{ label: "القدرة", value: "9 واط" }],
    });
    expect(await version()).toBeGreaterThan(before);

    const edit = { ...created.body.data, name_en: "Aurora desk lamp II", price: 15900 };
    const updated = await call(manager, "PUT", `/admin/products/${id}`, edit);
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name_en: "Aurora desk lamp II", price: 15900 });

    const off = await call(manager, "POST", `/admin/products/${id}/deactivate`);
    expect(off.status).toBe(200);
    expect(off.body.data.active).toBe(false);

    const lines = await auditLines(id);
    expect(lines.map((l) => l.action)).toEqual(["product.create", "product.update", "product.deactivate"]);
    expect(lines.every((l) => l.staff_email === manager.email)).toBe(true);
    expect(JSON.parse(lines[1].before_json!)).toEqual({ name_en: "Aurora desk lamp", price: 14900 });
    expect(JSON.parse(lines[1].after_json!)).toEqual({ name_en: "Aurora desk lamp II", price: 15900 });
    expect(JSON.parse(lines[2].after_json!)).toEqual({ active: false });
  });

  it("the product form cannot change stock after creation: that is the inventory ledger's", async () => {
    const owner = await newStaff("owner");
    const created = await call(owner, "POST", "/admin/products", await productInput());
    const id = created.body.data.id as number;
    const refused = await call(owner, "PUT", `/admin/products/${id}`, { ...created.body.data, stock: 99 });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.stock?.[0]).toMatch(/Inventory/);
    // Leaving stock out (or unchanged) is an ordinary edit.
    const { stock: _stock, ...rest } = created.body.data;
    expect((await call(owner, "PUT", `/admin/products/${id}`, rest)).status).toBe(200);
    expect((await call(owner, "GET", `/admin/products/${id}`)).body.data.stock).toBe(7);
  });

  it("a bad product is refused field by field in the operator's language, and nothing is written", async () => {
    const owner = await newStaff("owner", "ar");
    const input = await productInput({ name_ar: "", price: -1, slug: "Not a slug!", compare_at_price: 100 });
    const refused = await call(owner, "POST", "/admin/products", input);
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors ?? {}).sort()).toEqual(["name_ar", "price", "slug"]);
    expect(refused.body.errors?.name_ar?.[0]).toBe("الاسم (بالعربية) مطلوب.");
    const first = await call(owner, "POST", "/admin/products", await productInput());
    const taken = await call(owner, "POST", "/admin/products", {
      ...(await productInput()),
      slug: first.body.data.slug,
    });
    expect(taken.status).toBe(422);
    expect(taken.body.errors?.slug).toHaveLength(1);
  });

  it("support reads products but cannot change them (403); shoppers and guests find nothing (404)", async () => {
    const { owner, support, shopper } = await consoleCast();
    const created = await call(owner, "POST", "/admin/products", await productInput());
    const id = created.body.data.id as number;
    expect((await call(support, "GET", "/admin/products")).status).toBe(200);
    expect((await call(support, "GET", `/admin/products/${id}`)).status).toBe(200);
    expect((await call(support, "POST", "/admin/products", await productInput())).status).toBe(403);
    expect((await call(support, "PUT", `/admin/products/${id}`, created.body.data)).status).toBe(403);
    expect((await call(support, "POST", `/admin/products/${id}/deactivate`)).status).toBe(403);
    expect((await upload(support, PNG)).status).toBe(403);
    for (const who of [shopper, await newGuest(), null]) {
      expect((await call(who, "GET", "/admin/products")).status).toBe(404);
      expect((await call(who, "POST", "/admin/products", await productInput())).status).toBe(404);
    }
  });

  it("lists products sorted and paged on the server, filtered by name, SKU, state and stock", async () => {
    const owner = await newStaff("owner");
    const input = await productInput({ name_en: `Filterable ${unique("x")}`, stock: 0 });
    const created = await call(owner, "POST", "/admin/products", input);
    const id = created.body.data.id as number;
    const byName = await call(owner, "GET", `/admin/products?search=${encodeURIComponent(input.name_en)}`);
    expect(byName.body.data.map((r: { id: number }) => r.id)).toEqual([id]);
    expect(byName.body.data[0]).toMatchObject({ sku: input.sku, active: true, stock: 0 });
    const bySku = await call(owner, "GET", `/admin/products?search=${input.sku.toLowerCase()}&stock=out`);
    expect(bySku.body.data.map((r: { id: number }) => r.id)).toEqual([id]);
    expect((await call(owner, "GET", `/admin/products?search=${input.sku}&stock=in_stock`)).body.data).toEqual([]);
    const paged = await call(owner, "GET", "/admin/products?sort=price&dir=asc&per_page=2&page=2");
    expect(paged.body.meta).toMatchObject({ page: 2, per_page: 2, sort: "price", dir: "asc" });
    expect(paged.body.data).toHaveLength(2);
    expect(paged.body.data[0].price).toBeLessThanOrEqual(paged.body.data[1].price);
  });
});

describe("hidden products on the storefront", () => {
  it("an inactive product is 404 on its page, absent from lists, search and suggest, and cannot go in a cart", async () => {
    const owner = await newStaff("owner");
    const name = `Hideable ${unique("h").replace(/-/g, "")}`;
    const created = await call(owner, "POST", "/admin/products", await productInput({ name_en: name }));
    const { id, slug } = created.body.data as { id: number; slug: string };
    const shopper = await newGuest();
    expect((await call(shopper, "GET", `/products/${slug}`)).status).toBe(200);
    expect((await call(shopper, "POST", "/cart/add-product", { product_id: id, quantity: 1 })).status).toBe(200);
    const suggestedBefore = await call(shopper, "GET", `/search/suggest?q=${encodeURIComponent(name)}`);
    expect(JSON.stringify(suggestedBefore.body.data)).toContain(slug);

    expect((await call(owner, "POST", `/admin/products/${id}/deactivate`)).status).toBe(200);
    expect((await call(shopper, "GET", `/products/${slug}`)).status).toBe(404);
    const listed = await call(shopper, "GET", "/products?category=console-test&per_page=48");
    expect(listed.body.data.some((p: { id: number }) => p.id === id)).toBe(false);
    const searched = await call(shopper, "GET", `/products?q=${encodeURIComponent(name)}`);
    expect(searched.body.data.some((p: { id: number }) => p.id === id)).toBe(false);
    const suggested = await call(shopper, "GET", `/search/suggest?q=${encodeURIComponent(name)}`);
    expect(JSON.stringify(suggested.body.data)).not.toContain(slug);
    const other = await newGuest();
    const add = await call(other, "POST", "/cart/add-product", { product_id: id, quantity: 1 });
    expect(add.status).toBe(422);
    expect(add.body.errors?.product_id).toBeTruthy();
    // The line already in a cart is flagged as invalid, so checkout refuses it.
    const cart = await call(shopper, "GET", "/cart");
    expect(cart.body.data.invalid).toContain(id);

    expect((await call(owner, "POST", `/admin/products/${id}/reactivate`)).status).toBe(200);
    expect((await call(shopper, "GET", `/products/${slug}`)).status).toBe(200);
  });

  it("search finds a new product by its Arabic and its English name at once", async () => {
    const owner = await newStaff("owner");
    const word = `zorblax${Date.now().toString(36).replace(/\d/g, "")}`;
    const created = await call(
      owner,
      "POST",
      "/admin/products",
      await productInput({ name_en: `${word} speaker`, name_ar: "مكبر صوت قمرستان" }),
    );
    const id = created.body.data.id as number;
    for (const [lang, q] of [
      ["en", word],
      ["ar", "قمرستان"],
    ] as const) {
      const found = await call(await newGuest(lang), "GET", `/products?q=${encodeURIComponent(q)}`);
      expect(found.body.data.map((p: { id: number }) => p.id)).toContain(id);
    }
    // A renamed product is found by its new name, no longer by the old one.
    await call(owner, "PUT", `/admin/products/${id}`, { ...created.body.data, name_ar: "مكبر صوت نجمستان" });
    const renamed = await call(await newGuest("ar"), "GET", `/products?q=${encodeURIComponent("نجمستان")}`);
    expect(renamed.body.data.map((p: { id: number }) => p.id)).toContain(id);
    const old = await call(await newGuest("ar"), "GET", `/products?q=${encodeURIComponent("قمرستان")}`);
    expect(old.body.data.map((p: { id: number }) => p.id)).not.toContain(id);
  });

  it("a name changed in the console shows in the public catalogue API at once, though it was cached", async () => {
    const owner = await newStaff("owner");
    const created = await call(owner, "POST", "/admin/products", await productInput());
    const { id, slug } = created.body.data as { id: number; slug: string };
    const shopper = await newGuest("ar");
    // Read twice: the second answer comes from the catalogue cache.
    await call(shopper, "GET", `/products/${slug}`);
    const cachedRes = await SELF.fetch(`http://shop.test/backend/products/${slug}`, { headers: shopper.headers });
    expect(cachedRes.headers.get("x-cache")).toBe("HIT");
    await cachedRes.arrayBuffer();
    const renamed = await call(owner, "PUT", `/admin/products/${id}`, { ...created.body.data, name_ar: "مصباح جديد" });
    expect(renamed.status).toBe(200);
    const read = await call(shopper, "GET", `/products/${slug}`);
    expect(read.body.data.name).toBe("مصباح جديد");
  });
});

describe("catalogue caches and the catalogue version", () => {
  it("an edit made elsewhere (another isolate) is served within a second: the version is read at most once a second", async () => {
    const owner = await newStaff("owner");
    const created = await call(owner, "POST", "/admin/products", await productInput());
    const { id, slug } = created.body.data as { id: number; slug: string };
    const shopper = await newGuest();
    await call(shopper, "GET", `/products/${slug}`);
    // Another isolate's console write: the row and the version change, this isolate is not told.
    await env.DB.batch([
      env.DB.prepare("UPDATE products SET name_en = 'Renamed elsewhere' WHERE id = ?").bind(id),
      env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'catalogue'"),
    ]);
    await new Promise((r) => setTimeout(r, VERSION_TTL_MS + 50));
    const read = await call(shopper, "GET", `/products/${slug}`);
    expect(read.body.data.name).toBe("Renamed elsewhere");
  });
});

describe("images uploaded in the console", () => {
  it("accepts a small PNG, reads its size and serves it with its type, nosniff and an immutable cache", async () => {
    const manager = await newStaff("manager");
    const done = await upload(manager, PNG, "image/png");
    expect(done.status).toBe(201);
    expect(done.body.data).toMatchObject({ content_type: "image/png", width: 1, height: 1, size: PNG.byteLength });
    expect(done.body.data.url).toMatch(/^\/backend\/media\/uploads\/[a-f0-9]{32}\.png$/);
    const served = await SELF.fetch(`http://shop.test${done.body.data.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toContain("immutable");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    const key = done.body.data.url.split("/").pop()!;
    const line = await env.DB.prepare(
      "SELECT staff_email FROM audit_log WHERE action = 'media.upload' AND entity_id = ?",
    )
      .bind(key)
      .first<{ staff_email: string }>();
    expect(line).toBeTruthy();
    // As a multipart form field too; a product then shows it.
    const form = new FormData();
    form.set("file", new File([PNG], "dot.png", { type: "image/png" }));
    const res = await SELF.fetch("http://shop.test/backend/admin/media", {
      method: "POST",
      headers: { ...manager.headers, accept: "application/json" },
      body: form,
    });
    expect(res.status).toBe(201);
    const created = await call(
      manager,
      "POST",
      "/admin/products",
      await productInput({ images: [done.body.data.url] }),
    );
    expect(created.status).toBe(201);
    const page = await call(null, "GET", `/products/${created.body.data.slug}`);
    expect(page.body.data.image).toBe(done.body.data.url);
  });

  it("refuses an SVG (even named .png) and a file over the limit with a clear 422", async () => {
    const manager = await newStaff("manager");
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const refused = await upload(manager, svg, "image/png");
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.file?.[0]).toMatch(/JPEG, PNG and WebP/);
    const big = new Uint8Array(MEDIA_MAX_BYTES + 1);
    big.set(PNG);
    const tooBig = await upload(manager, big, "image/png");
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.errors?.file?.[0]).toMatch(/larger than 5 MB/);
    // A product cannot point at an image elsewhere.
    const elsewhere = await call(
      manager,
      "POST",
      "/admin/products",
      await productInput({ images: ["https://evil.example/x.png"] }),
    );
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.errors?.images).toBeTruthy();
  });

  it("reads the size of JPEG and WebP headers, and refuses a truncated PNG", () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 30, 0, 40, 3, 0, 0, 0]);
    expect(sniffImage(jpeg)).toEqual({ type: "image/jpeg", width: 40, height: 30 });
    const webp = new Uint8Array(30);
    webp.set(new TextEncoder().encode("RIFF"), 0);
    webp.set(new TextEncoder().encode("WEBPVP8X"), 8);
    webp.set([99, 0, 0, 49, 0, 0], 24);
    expect(sniffImage(webp)).toEqual({ type: "image/webp", width: 100, height: 50 });
    expect(sniffImage(PNG.subarray(0, 12))).toBeNull();
  });

  it("page CSP over an image: an uploaded image and the generated art keep their own default-src 'none' behind the shop's security headers", async () => {
    // The shop's worker as worker/index.ts puts it together: the security headers in front of the backend.
    const shop = new Hono<HonoEnv>();
    shop.use(securityHeaders());
    shop.route("/backend", backendApp);
    const manager = await newStaff("manager");
    const done = await upload(manager, PNG, "image/png");
    expect(done.status).toBe(201);
    const product = await createProduct({ stock: 1 });
    for (const path of [done.body.data.url as string, `/backend/media/products/${product.slug}.svg`]) {
      const served = await shop.request(`https://shop.test${path}`, {}, env);
      expect(served.status, path).toBe(200);
      const csp = served.headers.get("content-security-policy") ?? "";
      expect(csp, path).toMatch(/^default-src 'none'/);
      expect(csp, path).not.toContain("script-src");
      // The rest of the shop's headers still apply.
      expect(served.headers.get("x-frame-options"), path).toBe("DENY");
    }
    // A page keeps the shop's policy.
    const page = await shop.request("https://shop.test/backend/catalogue/version", {}, env);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'nonce-");
  });
});

describe("fuzzed console catalogue inputs", () => {
  it("malformed products, list queries, CSV files and uploads never cause a 5xx nor a stray write", async () => {
    const manager = await newStaff("manager");
    const created = await call(manager, "POST", "/admin/products", await productInput());
    const id = created.body.data.id as number;
    const products = await env.DB.prepare("SELECT COUNT(*) AS n FROM products").first<number>("n");
    const value = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.anything(), { maxLength: 5 }),
      fc.constantFrom("'; DROP TABLE products; --", "<script>", "\u0000", "٣٤٥", "-1", "1e309", "../../etc"),
    );
    const fields = Object.keys(await productInput());
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...fields, "__proto__", "id"), value), async (body) => {
        const res = await call(manager, "PUT", `/admin/products/${id}`, body);
        expect(res.status).toBeLessThan(500);
        const fresh = await call(manager, "POST", "/admin/products", body);
        expect(fresh.status).toBe(422);
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom("page", "per_page", "sort", "dir", "search", "category_id", "active", "stock"),
          fc.string({ maxLength: 40 }),
        ),
        async (query) => {
          const res = await call(manager, "GET", `/admin/products?${new URLSearchParams(query)}`);
          expect([200, 422]).toContain(res.status);
        },
      ),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 400 }), async (text) => {
        const res = await SELF.fetch("http://shop.test/backend/admin/products/import?dry_run=0", {
          method: "POST",
          headers: { ...manager.headers, "content-type": "text/csv", "cf-connecting-ip": freshIp() },
          body: `sku,slug,name_en,name_ar,price,category_id\r\n${text}`,
        });
        expect(res.status).toBeLessThan(500);
        await res.arrayBuffer();
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), async (bytes) => {
        expect((await upload(manager, bytes)).status).toBe(422);
      }),
      { numRuns: 40 },
    );
    // Every fuzzed create was refused; the fuzzed CSV rows could not all be good (no category).
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM products").first<number>("n")).toBe(products);
    // Some 200 requests: about 3 s on a quiet machine, more beside other work.
  }, 60_000);
});
