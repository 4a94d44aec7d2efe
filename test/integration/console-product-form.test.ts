import { applyD1Migrations, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PRODUCT_CSV_COLUMNS, SLUG, validGtin } from "../../contract/console-catalogue";
import { freeSlug, slugFromNames, slugify } from "../../contract/slug";
import {
  bulkEditProducts,
  bulkPrice,
  getConsoleProduct,
  updateConsoleProduct,
} from "../../worker/backend/services/console/products";
import { productDetails } from "../../worker/backend/services/catalogue/product";
import { csvText, parseCsv } from "../../worker/backend/services/shared/csv";
import { call, freshIp } from "../support/commerce";
import { consoleCast, newStaff, type Staff } from "../support/console";

/**
 * The product form's additions: SEO title and description per language, weight in grams, a
 * checked GTIN barcode (stored by migration 0031, in the CSV, used by the product page), the slug
 * made from the name, duplicating a product, and the list's bulk price and stock edit.
 */

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

async function category(): Promise<number> {
  await env.DB.prepare(
    "INSERT INTO categories (slug, name_en, name_ar) VALUES ('product-form', 'Form gadgets', 'أجهزة النموذج') ON CONFLICT (slug) DO NOTHING",
  ).run();
  return (await env.DB.prepare("SELECT id FROM categories WHERE slug = 'product-form'").first<number>("id"))!;
}

async function productInput(overrides: Record<string, unknown> = {}) {
  const slug = unique("kettle");
  return {
    slug,
    sku: slug.toUpperCase(),
    model: "",
    name_en: "Falcon kettle",
    name_ar: "غلاية صقر",
    price: 14900,
    compare_at_price: null,
    stock: 10,
    category_id: await category(),
    ...overrides,
  };
}

async function create(staff: Staff, overrides: Record<string, unknown> = {}) {
  const res = await call(staff, "POST", "/admin/products", await productInput(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  // As the form sends it back: a product without a model has "" for one.
  return { ...res.body.data, model: res.body.data.model ?? "" } as Record<string, unknown> & {
    id: number;
    slug: string;
    sku: string;
  };
}

const audit = async (id: number) =>
  (
    await env.DB.prepare(
      "SELECT action, before_json, after_json FROM audit_log WHERE entity = 'product' AND entity_id = ? ORDER BY id",
    )
      .bind(String(id))
      .all<{ action: string; before_json: string | null; after_json: string | null }>()
  ).results;

const row = (id: number) =>
  env.DB.prepare("SELECT price, stock FROM products WHERE id = ?").bind(id).first<{ price: number; stock: number }>();

/** A valid EAN-13 (its check digit 0) and UPC-A. */
const EAN = "6281000000000".slice(0, 12);
const ean13 = `${EAN}${(10 - ([...EAN].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0) % 10)) % 10}`;

describe("SEO, weight and barcode", () => {
  it("are stored, read back, cleared when emptied, and used by the product page", async () => {
    const manager = await newStaff("manager");
    const made = await create(manager, {
      seo_title_en: "Falcon kettle 1.7 L | Fast boil",
      seo_title_ar: "غلاية صقر 1.7 لتر",
      seo_description_en: "Boils in three minutes.",
      seo_description_ar: "تغلي في ثلاث دقائق.",
      weight_grams: "١٢٥٠",
      barcode: "4006381333931",
    });
    expect(made).toMatchObject({
      seo_title_en: "Falcon kettle 1.7 L | Fast boil",
      seo_description_ar: "تغلي في ثلاث دقائق.",
      weight_grams: 1250,
      barcode: "4006381333931",
    });
    const page = await SELF.fetch(`http://shop.test/backend/products/${made.slug}`, {
      headers: { "accept-language": "ar", "x-locale": "ar", "cf-connecting-ip": freshIp() },
    });
    const details = (await productDetails(env.DB, "ar", made.slug))!;
    expect(page.status).toBe(200);
    expect(details).toMatchObject({
      seo_title: "غلاية صقر 1.7 لتر",
      seo_description: "تغلي في ثلاث دقائق.",
      weight_grams: 1250,
    });
    expect((await productDetails(env.DB, "en", made.slug))!.seo_title).toBe("Falcon kettle 1.7 L | Fast boil");

    const cleared = await call(manager, "PUT", `/admin/products/${made.id}`, {
      ...made,
      seo_title_en: "",
      weight_grams: "",
      barcode: "",
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ seo_title_en: null, weight_grams: null, barcode: null });
    expect(cleared.body.data.seo_title_ar).toBe("غلاية صقر 1.7 لتر");
  });

  it("a client or file that does not know the new fields leaves them as they are", async () => {
    const manager = await newStaff("manager");
    const made = await create(manager, { seo_title_en: "Kept title", weight_grams: 900, barcode: ean13 });
    const { seo_title_en: _a, weight_grams: _b, barcode: _c, stock: _d, ...older } = made;
    const saved = await call(manager, "PUT", `/admin/products/${made.id}`, { ...older, name_en: "Falcon kettle II" });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      name_en: "Falcon kettle II",
      seo_title_en: "Kept title",
      weight_grams: 900,
      barcode: ean13,
    });
    // The audit line names what changed, not the fields left out.
    const lines = await audit(made.id);
    const changed = JSON.parse(lines.at(-1)!.after_json!) as Record<string, unknown>;
    expect(changed.name_en).toBe("Falcon kettle II");
    expect(Object.keys(changed)).not.toContain("weight_grams");
    expect(Object.keys(changed)).not.toContain("seo_title_en");
  });

  it("a barcode with a wrong check digit, a weight in kilograms and an over-long SEO title are refused by field, in Arabic", async () => {
    const manager = await newStaff("manager", "ar");
    const refused = await call(
      manager,
      "POST",
      "/admin/products",
      await productInput({ barcode: "4006381333932", weight_grams: "1.5", seo_title_ar: "ع".repeat(71) }),
    );
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors!).sort()).toEqual(["barcode", "seo_title_ar", "weight_grams"]);
    expect(refused.body.errors!.barcode[0]).toMatch(/رقم تحقق/);
    expect(refused.body.errors!.weight_grams[0]).toMatch(/بالغرامات/);
    // Spaces and hyphens as printed under the bars are read away; UPC-A and EAN-8 are GTINs too.
    expect(validGtin("036000291452")).toBe(true);
    expect(validGtin("96385074")).toBe(true);
    expect(validGtin("036000291453")).toBe(false);
    const spaced = await create(manager, { barcode: "4 006381 333931" });
    expect(spaced.barcode).toBe("4006381333931");
  });

  it("the CSV export has the new columns and an import sets them; a file without them leaves them", async () => {
    const owner = await newStaff("owner");
    const made = await create(owner, { weight_grams: 300 });
    const exported = await call(owner, "GET", "/admin/products/export.csv");
    const [header, ...rows] = parseCsv(String(exported.body.data).replace(/^\uFEFF/, ""));
    expect(header).toEqual([...PRODUCT_CSV_COLUMNS]);
    const mine = rows.find((r) => r[header.indexOf("sku")] === made.sku)!;
    expect(mine[header.indexOf("weight_grams")]).toBe("300");

    const importCsv = (text: string) =>
      SELF.fetch("http://shop.test/backend/admin/products/import?dry_run=0", {
        method: "POST",
        headers: {
          ...owner.headers,
          "content-type": "text/csv",
          accept: "application/json",
          "cf-connecting-ip": freshIp(),
        },
        body: text,
      });
    const columns = ["sku", "slug", "name_en", "name_ar", "price", "category_id"];
    const base = [made.sku, made.slug, "Falcon kettle", "غلاية صقر", "14900", String(made.category_id)];
    const withNew = await importCsv(
      csvText([
        [...columns, "seo_title_ar", "barcode", "weight_grams"],
        [...base, "عنوان من الملف", ean13, "1200"],
      ]),
    );
    expect(withNew.status).toBe(200);
    expect(await getConsoleProduct(env.DB, made.id)).toMatchObject({
      seo_title_ar: "عنوان من الملف",
      barcode: ean13,
      weight_grams: 1200,
    });
    expect((await importCsv(csvText([columns, base]))).status).toBe(200);
    expect(await getConsoleProduct(env.DB, made.id)).toMatchObject({
      seo_title_ar: "عنوان من الملف",
      weight_grams: 1200,
    });
  });
});

describe("the slug from the name", () => {
  it("is a valid slug for any name, English first, Arabic spelled in Latin when there is no English", () => {
    expect(slugFromNames("Falcon ANC Headphones (2nd gen.)", "سماعات صقر")).toBe("falcon-anc-headphones-2nd-gen");
    expect(slugFromNames("Café crème", "")).toBe("cafe-creme");
    expect(slugFromNames("", "سماعات صقر ٢")).toBe("smaat-sqr-2");
    expect(slugFromNames("", "شاحن متنقل")).toBe("shahn-mtnql");
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), fc.string({ maxLength: 300 }), (en, ar) => {
        const slug = slugFromNames(en, ar);
        expect(slug === "" || (SLUG.test(slug) && slug.length <= 120)).toBe(true);
      }),
    );
    expect(slugify("!!!")).toBe("");
    expect(freeSlug("kettle", (s) => ["kettle", "kettle-2"].includes(s))).toBe("kettle-3");
  });

  it("a slug another product uses is refused with the slug named and a free one offered", async () => {
    const manager = await newStaff("manager", "ar");
    const first = await create(manager);
    const taken = await call(manager, "POST", "/admin/products", await productInput({ slug: first.slug }));
    expect(taken.status).toBe(422);
    expect(taken.body.errors!.slug).toEqual([
      `المعرّف «${first.slug}» مستخدم لمنتج آخر: اختر معرّفًا غيره، مثل «${first.slug}-2».`,
    ]);
  });
});

describe("duplicating a product", () => {
  it("makes a hidden copy with no stock, '(copy)' names, a free slug and SKU, audited as a duplicate of the original", async () => {
    const { owner, support } = await consoleCast();
    const original = await create(owner, { seo_title_en: "Original", weight_grams: 800, is_featured: true });
    const copy = await call(owner, "POST", `/admin/products/${original.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.body.data).toMatchObject({
      name_en: "Falcon kettle (copy)",
      name_ar: "غلاية صقر (نسخة)",
      slug: `${original.slug}-copy`,
      sku: `${original.sku}-COPY`,
      stock: 0,
      active: false,
      is_featured: false,
      price: 14900,
      seo_title_en: "Original",
      weight_grams: 800,
    });
    expect(copy.body.data.id).not.toBe(original.id);
    const again = await call(owner, "POST", `/admin/products/${original.id}/duplicate`);
    expect(again.body.data).toMatchObject({ slug: `${original.slug}-copy-2`, sku: `${original.sku}-COPY-2` });
    const [line] = await audit(copy.body.data.id);
    expect(line.action).toBe("product.duplicate");
    expect(JSON.parse(line.after_json!)).toMatchObject({ copied_from: original.id, stock: 0, active: false });
    expect((await call(support, "POST", `/admin/products/${original.id}/duplicate`)).status).toBe(403);
    expect((await call(owner, "POST", "/admin/products/999999999/duplicate")).status).toBe(404);
  });
});

describe("bulk edit of price and stock", () => {
  it("moves prices by a percentage to the halala and sets stock, with an audit line and a ledger line per product", async () => {
    const manager = await newStaff("manager");
    const a = await create(manager, { price: 1999, stock: 4 });
    const b = await create(manager, { price: 14900, stock: 0 });
    const res = await call(manager, "POST", "/admin/products/bulk", {
      ids: [a.id, b.id],
      price: { mode: "percent", percent: -12.5 },
      stock: { mode: "set", value: 20 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ updated: 2 });
    expect(await row(a.id)).toEqual({ price: 1749, stock: 20 });
    expect(await row(b.id)).toEqual({ price: 13038, stock: 20 });
    const line = (await audit(a.id)).at(-1)!;
    expect(line.action).toBe("product.bulk_edit");
    expect(JSON.parse(line.before_json!)).toEqual({ price: 1999, stock: 4 });
    expect(JSON.parse(line.after_json!)).toEqual({ price: 1749, stock: 20 });
    const ledger = await env.DB.prepare(
      "SELECT delta, reason, stock_after FROM inventory_adjustments WHERE product_id = ? ORDER BY id DESC",
    )
      .bind(b.id)
      .first();
    expect(ledger).toEqual({ delta: 20, reason: "count", stock_after: 20 });
    expect(bulkPrice(1999, { mode: "percent", percent: 10 })).toBe(2199);
    expect(bulkPrice(5, { mode: "percent", percent: 10 })).toBe(6);
  });

  it("writes nothing when one product would go below zero, or above its compare-at price, and says which", async () => {
    const manager = await newStaff("manager", "ar");
    const a = await create(manager, { price: 10000, stock: 10 });
    const b = await create(manager, { price: 10000, stock: 2 });
    const c = await create(manager, { price: 10000, compare_at_price: 10500, stock: 5 });
    const low = await call(manager, "POST", "/admin/products/bulk", {
      ids: [a.id, b.id],
      price: { mode: "set", amount: 9000 },
      stock: { mode: "adjust", delta: -3 },
    });
    expect(low.status).toBe(422);
    expect(low.body.errors!.stock[0]).toContain(b.sku);
    expect(low.body.errors!.stock[0]).not.toContain(a.sku);
    expect(await row(a.id)).toEqual({ price: 10000, stock: 10 });
    const over = await call(manager, "POST", "/admin/products/bulk", {
      ids: [a.id, c.id],
      price: { mode: "percent", percent: 10 },
    });
    expect(over.status).toBe(422);
    expect(over.body.errors!.price[0]).toContain(c.sku);
    expect(await row(a.id)).toEqual({ price: 10000, stock: 10 });
    expect((await audit(a.id)).map((l) => l.action)).toEqual(["product.create"]);
  });

  it("refuses a product whose stock moved since it was read, as a whole (the ledger guard)", async () => {
    const manager = await newStaff("manager");
    const a = await create(manager, { stock: 5 });
    const b = await create(manager, { stock: 5 });
    // A sale between the read and the write: the batch's guard fails and nothing of it stays.
    const racing = Object.create(env.DB) as D1Database;
    racing.batch = async <T>(statements: D1PreparedStatement[]) => {
      await env.DB.prepare("UPDATE products SET stock = 4 WHERE id = ?").bind(b.id).run();
      return env.DB.batch<T>(statements);
    };
    const staff = { user_id: manager.userId, email: manager.email };
    await expect(
      bulkEditProducts(racing, "en", staff, {
        ids: [a.id, b.id],
        price: { mode: "set", amount: 100 },
        stock: { mode: "adjust", delta: 1 },
      }),
    ).rejects.toMatchObject({ status: 422 });
    expect(await row(a.id)).toMatchObject({ price: 14900, stock: 5 });
  });

  it("is for managers, and refuses empty, unknown or malformed requests by field", async () => {
    const { owner, support } = await consoleCast();
    const a = await create(owner);
    const body = { ids: [a.id], price: { mode: "set", amount: 100 } };
    expect((await call(support, "POST", "/admin/products/bulk", body)).status).toBe(403);
    expect((await call(owner, "POST", "/admin/products/bulk", { ids: [a.id] })).status).toBe(422);
    expect((await call(owner, "POST", "/admin/products/bulk", { ...body, ids: [] })).status).toBe(422);
    expect((await call(owner, "POST", "/admin/products/bulk", { ...body, ids: [a.id, 999999999] })).status).toBe(422);
    const zero = await call(owner, "POST", "/admin/products/bulk", {
      ids: [a.id],
      price: { mode: "percent", percent: 0 },
    });
    expect(zero.status).toBe(422);
    expect((await row(a.id))!.price).toBe(14900);
  });
});

describe("migration 0031 on a database made and used under the schema before it", () => {
  it("keeps every product as it was, with no SEO, weight or barcode, and the console and shop read and edit it", async () => {
    const db = env.REPLICA_DB;
    await applyD1Migrations(
      db,
      env.TEST_MIGRATIONS.filter((m) => m.name < "0031"),
    );
    await db
      .prepare(
        "INSERT INTO categories (slug, name_en, name_ar) VALUES ('old-form', 'Old', 'قديم') ON CONFLICT (slug) DO NOTHING",
      )
      .run();
    const categoryId = (await db.prepare("SELECT id FROM categories WHERE slug = 'old-form'").first<number>("id"))!;
    const id = (await db
      .prepare(
        "INSERT INTO products (slug, sku, category_id, name_en, name_ar, description_en, price, compare_at_price, stock) VALUES ('old-lamp', 'OLD-LAMP', ?, 'Old lamp', 'مصباح قديم', 'Still bright.', 9900, 12900, 3) RETURNING id",
      )
      .bind(categoryId)
      .first<number>("id"))!;
    await db.prepare("UPDATE products SET stock = stock - 1 WHERE id = ?").bind(id).run();
    await db.prepare("INSERT INTO product_search (rowid, name, body) VALUES (?, 'old lamp', '')").bind(id).run();
    await db.prepare("INSERT INTO product_details_search (rowid, details) VALUES (?, '')").bind(id).run();
    const before = await db.prepare("SELECT * FROM products WHERE id = ?").bind(id).first<Record<string, unknown>>();

    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    const after = (await db.prepare("SELECT * FROM products WHERE id = ?").bind(id).first<Record<string, unknown>>())!;
    expect(after).toMatchObject(before!);
    expect(after).toMatchObject({
      seo_title_en: null,
      seo_title_ar: null,
      seo_description_en: null,
      seo_description_ar: null,
      weight_grams: null,
      barcode: null,
    });
    const product = await getConsoleProduct(db, id);
    expect(product).toMatchObject({ stock: 2, price: 9900, weight_grams: null });
    expect((await productDetails(db, "en", "old-lamp"))!).toMatchObject({ seo_title: null, weight_grams: null });
    const staff = { user_id: 0, email: "owner@example.test" };
    const { id: _id, created_at: _c, updated_at: _u, ...fields } = product;
    const edited = await updateConsoleProduct(db, "en", staff, id, {
      ...fields,
      model: "",
      stock: null,
      weight_grams: 450,
      barcode: ean13,
      seo_title_en: "Old lamp, still bright",
    });
    expect(edited).toMatchObject({ weight_grams: 450, barcode: ean13, stock: 2, seo_title_ar: null });
    await expect(db.prepare("UPDATE products SET weight_grams = -1 WHERE id = ?").bind(id).run()).rejects.toThrow(
      /CHECK/,
    );
  });
});
