import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProductDetails, ProductSummary } from "../../contract/catalogue";
import type { ConsoleVariants } from "../../contract/console-catalogue";
import type { ConsoleAttribute } from "../../contract/console-catalogue-shapes";
import type { InventoryAdjustment } from "../../contract/console-content";
import { call, createProduct, newUser } from "../support/commerce";
import { seedCatalogue } from "../support/catalogue";
import { newStaff, type Staff } from "../support/console";

/**
 * The console edits a product's options and variants: a manager names every option and variant to
 * sell, all checked before anything is written (with bilingual field errors), written in one
 * batch; new variants' opening stock is on the ledger, a removed variant that was sold is only
 * stopped, and the shop sells what was set.
 */

let manager: Staff;
let support: Staff;

beforeAll(async () => {
  // The demo catalogue's categories and attributes (phones list storage).
  await seedCatalogue(env.DB);
  [manager, support] = await Promise.all([newStaff("manager"), newStaff("support")]);
});

async function shown(slug: string): Promise<ProductDetails> {
  const res = await SELF.fetch(`https://shop.test/backend/products/${slug}`, {
    headers: { "content-language": "ar", "cache-control": "no-cache" },
  });
  return ((await res.json()) as { data: ProductDetails }).data;
}

const OPTIONS = [
  {
    code: "colour",
    name_en: "Colour",
    name_ar: "اللون",
    kind: "swatch",
    values: [
      { code: "graphite", value_en: "Graphite", value_ar: "جرافيت", swatch: "#383838" },
      { code: "silver", value_en: "Silver", value_ar: "فضي", swatch: "#d9d9d9" },
    ],
  },
  {
    code: "storage",
    name_en: "Storage",
    name_ar: "السعة",
    kind: "button",
    values: [
      { code: "128gb", value_en: "128 GB", value_ar: "128 جيجابايت" },
      { code: "256gb", value_en: "256 GB", value_ar: "256 جيجابايت" },
      { code: "512gb", value_en: "512 GB", value_ar: "512 جيجابايت" },
    ],
  },
];

/** Two colours by three sizes: six variants, the silver 512 GB sold out. */
function sixVariants(sku: string) {
  return OPTIONS[0].values.flatMap((colour, c) =>
    OPTIONS[1].values.map((size, s) => ({
      sku: `${sku}-${colour.code}-${size.code}`.toUpperCase(),
      price: 200000 + s * 40000,
      compare_at_price: null,
      stock: c === 1 && s === 2 ? 0 : 3 + s,
      max_per_order: 3,
      active: true,
      options: { colour: colour.code, storage: size.code },
    })),
  );
}

describe("a product's variants in the console", () => {
  it("a manager sets two options and six variants, one sold out; the shop sells each at its price", async () => {
    const product = await createProduct({ price: 210000, stock: 9 });
    const sku = product.slug.toUpperCase();
    // Its index rows as a product made in the console has them, before it has options.
    await env.DB.batch([
      env.DB.prepare("INSERT INTO product_search (rowid, name, body) VALUES (?, 'gadget4711 test', '')").bind(
        product.id,
      ),
      env.DB.prepare("INSERT INTO product_details_search (rowid, details) VALUES (?, '')").bind(product.id),
    ]);
    const put = await call<ConsoleVariants>(manager, "PUT", `/admin/products/${product.id}/variants`, {
      options: OPTIONS,
      variants: sixVariants(sku),
    });
    expect(put.status).toBe(200);
    // A search naming the product and a variant finds it, and its card opens that variant.
    for (const [q, chosen] of [
      ["gadget4711 silver 256", { colour: "silver", storage: "256gb" }],
      ["gadget4711 فضي", { colour: "silver" }],
    ] as const) {
      const res = await SELF.fetch(`https://shop.test/backend/products?q=${encodeURIComponent(q)}`, {
        headers: { "cache-control": "no-cache" },
      });
      const found = ((await res.json()) as { data: ProductSummary[] }).data;
      expect(
        found.map((p) => [p.id, p.chosen]),
        q,
      ).toEqual([[product.id, chosen]]);
    }
    expect(put.body.data.options.map((o) => [o.code, o.values.length])).toEqual([
      ["colour", 2],
      ["storage", 3],
    ]);
    expect(put.body.data.variants.map((v) => [v.sku, v.price, v.stock, v.options])).toEqual(
      sixVariants(sku).map((v) => [v.sku, v.price, v.stock, v.options]),
    );
    // The product lists at its cheapest price, with the stock of all of them.
    const row = await env.DB.prepare("SELECT price, stock, variant_count FROM products WHERE id = ?")
      .bind(product.id)
      .first();
    expect(row).toEqual({ price: 200000, stock: 3 + 4 + 5 + 3 + 4, variant_count: 6 });
    // The product form's price cannot part it from its variants': an edit leaves it theirs.
    const form = (await call(manager, "GET", `/admin/products/${product.id}`)).body.data;
    expect(form).toMatchObject({ variant_count: 6, price: 200000 });
    const { stock: _stock, ...fields } = form;
    const edited = await call(manager, "PUT", `/admin/products/${product.id}`, {
      ...fields,
      name_en: "Test gadget II",
      price: 100,
      compare_at_price: 999900,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ name_en: "Test gadget II", price: 200000, compare_at_price: null });
    const page = await shown(product.slug);
    expect(page.options?.map((o) => o.name)).toEqual(["اللون", "السعة"]);
    expect(page.variants?.find((v) => v.sku.endsWith("SILVER-512GB"))).toMatchObject({
      in_stock: false,
      price: 280000,
    });
    // Each new variant's opening stock is a ledger line of its own.
    const ledger = await call<InventoryAdjustment[]>(
      manager,
      "GET",
      `/admin/inventory/adjustments?product_id=${product.id}`,
    );
    expect(
      ledger.body.data
        .filter((l) => l.reason === "count")
        .map((l) => l.sku)
        .sort(),
    ).toEqual(
      sixVariants(sku)
        .filter((v) => v.stock > 0)
        .map((v) => v.sku)
        .sort(),
    );
    // One variant's stock adjusted: that variant moves, and reads in the ledger by its SKU and values.
    const target = put.body.data.variants[1];
    const adjusted = await call<InventoryAdjustment>(manager, "POST", "/admin/inventory/adjustments", {
      product_id: product.id,
      variant_id: target.id,
      reason: "damaged",
      delta: -2,
      note: "dropped",
    });
    expect(adjusted.status).toBe(201);
    expect(adjusted.body.data).toMatchObject({
      sku: target.sku,
      stock_after: target.stock - 2,
      name_en: "Test gadget II, Graphite, 256 GB",
    });
    // A shopper buys one variant: the sold-out one is refused.
    const shopper = await newUser();
    const silver512 = put.body.data.variants[5];
    expect(
      (await call(shopper, "POST", "/cart/add-product", { product_id: product.id, variant_id: silver512.id })).status,
    ).toBe(422);
    expect(
      (await call(shopper, "POST", "/cart/add-product", { product_id: product.id, variant_id: target.id })).status,
    ).toBe(200);
  });

  it("refuses a variant missing a value, two alike, a SKU twice or another product's, and none on sale; nothing is written", async () => {
    const [product, other] = await Promise.all([createProduct(), createProduct()]);
    const sku = product.slug.toUpperCase();
    const variants = sixVariants(sku);
    const broken = [
      { ...variants[0], options: { colour: "graphite" } },
      // The same values as variant 4 (index 3), which comes after it.
      { ...variants[1], options: variants[3].options },
      { ...variants[2], sku: variants[3].sku },
      variants[3],
      { ...variants[4], sku: other.slug.toUpperCase() },
    ];
    for (const [lang, everyOption, taken] of [
      ["en", "Choose one of the listed values of every option: Colour, Storage.", "Another product uses this SKU."],
      ["ar", "اختر إحدى القيم المدرجة لكل خيار: اللون، السعة.", "يستخدم منتج آخر رمز المنتج هذا."],
    ] as const) {
      const staff = lang === "ar" ? { ...manager, headers: { ...manager.headers, "content-language": "ar" } } : manager;
      const res = await call(staff, "PUT", `/admin/products/${product.id}/variants`, {
        options: OPTIONS,
        variants: broken,
      });
      expect(res.status).toBe(422);
      expect(res.body.errors?.["variants.0.options"]).toEqual([everyOption]);
      expect(res.body.errors?.["variants.3.options"]?.[0]).toMatch(/2/);
      expect(res.body.errors).toHaveProperty(["variants.3.sku"]);
      expect(res.body.errors?.["variants.4.sku"]).toEqual([taken]);
    }
    const stopped = await call(manager, "PUT", `/admin/products/${product.id}/variants`, {
      options: OPTIONS,
      variants: variants.map((v) => ({ ...v, active: false })),
    });
    expect(stopped.status).toBe(422);
    expect(stopped.body.errors).toHaveProperty("variants");
    // A bad swatch or option code is refused by the schema.
    const badSwatch = await call(manager, "PUT", `/admin/products/${product.id}/variants`, {
      options: [{ ...OPTIONS[0], values: [{ code: "x", value_en: "X", value_ar: "س", swatch: "red" }] }],
      variants: [{ ...variants[0], options: { colour: "x" } }],
    });
    expect(badSwatch.status).toBe(422);
    // Nothing was written: still the one variant it was made with.
    const still = await call<ConsoleVariants>(support, "GET", `/admin/products/${product.id}/variants`);
    expect(still.body.data.options).toEqual([]);
    expect(still.body.data.variants).toHaveLength(1);
    // Support reads, but may not edit.
    expect(
      (await call(support, "PUT", `/admin/products/${product.id}/variants`, { options: OPTIONS, variants })).status,
    ).toBe(403);
  });

  it("a storage option gives the product its storage values: filtered by each, shown read-only, not edited alone", async () => {
    const product = await createProduct({ price: 210000, stock: 9 });
    const category = await env.DB.prepare("SELECT id FROM categories WHERE slug = 'android-phones'").first<number>(
      "id",
    );
    await env.DB.batch([
      env.DB.prepare("UPDATE products SET category_id = ? WHERE id = ?").bind(category, product.id),
      // Its own storage before it has variants: 128 GB.
      env.DB.prepare(
        `INSERT INTO product_attribute_values (product_id, attribute_id, option_id)
         SELECT ?, a.id, o.id FROM attributes a JOIN attribute_options o ON o.attribute_id = a.id
         WHERE a.code = 'storage' AND o.code = '128gb'`,
      ).bind(product.id),
    ]);
    const inStorage = async (size: string) => {
      const res = await SELF.fetch(
        `https://shop.test/backend/products?category=android-phones&filter.storage=${size}&per_page=48`,
        { headers: { "cache-control": "no-cache" } },
      );
      return ((await res.json()) as { data: ProductSummary[] }).data.some((p) => p.id === product.id);
    };
    expect(await inStorage("128gb")).toBe(true);
    expect(await inStorage("512gb")).toBe(false);
    const sku = product.slug.toUpperCase();
    // Sold in 256 and 512 GB only (the 128 GB variants stopped).
    const variants = sixVariants(sku).map((v) => ({ ...v, active: v.options.storage !== "128gb" }));
    expect(
      (await call(manager, "PUT", `/admin/products/${product.id}/variants`, { options: OPTIONS, variants })).status,
    ).toBe(200);
    expect(await inStorage("512gb")).toBe(true);
    expect(await inStorage("256gb")).toBe(true);
    expect(await inStorage("128gb")).toBe(false);
    // The console shows the storage its variants give, and refuses an edit of it alone, in the caller's language.
    const attributes = await call<ConsoleAttribute[]>(manager, "GET", `/admin/products/${product.id}/attributes`);
    expect(attributes.body.data.find((a) => a.code === "storage")).toMatchObject({
      value: null,
      from_variants: ["256gb", "512gb"],
    });
    const refused = await call(manager, "PUT", `/admin/products/${product.id}/attributes`, {
      attributes: { storage: "1tb" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.["attributes.storage"]).toEqual([
      "The variants set this specification: change it with the options and variants.",
    ]);
    // Its options gone, the storage is its own again, to set.
    const one = [{ ...sixVariants(sku)[0], options: {} }];
    expect(
      (await call(manager, "PUT", `/admin/products/${product.id}/variants`, { options: [], variants: one })).status,
    ).toBe(200);
    expect(await inStorage("512gb")).toBe(false);
    expect(
      (await call(manager, "PUT", `/admin/products/${product.id}/attributes`, { attributes: { storage: "1tb" } }))
        .status,
    ).toBe(200);
    expect(await inStorage("1tb")).toBe(true);
  });

  it("a variant shows a picture of its own, kept when an edit leaves its pictures out", async () => {
    const product = await createProduct({ stock: 5 });
    const sku = product.slug.toUpperCase();
    const black = `/backend/media/products/${product.slug}.svg?colour=111111`;
    const variants = sixVariants(sku).slice(0, 2);
    const first = await call<ConsoleVariants>(manager, "PUT", `/admin/products/${product.id}/variants`, {
      options: OPTIONS,
      variants: [{ ...variants[0], images: [black] }, variants[1]],
    });
    expect(first.body.data.variants.map((v) => v.images)).toEqual([[black], []]);
    const page = await shown(product.slug);
    expect(page.variants?.[0].images).toEqual([black]);
    // Left out (a CSV row, an older client): the saved picture stays; an empty list clears it.
    const [a, b] = first.body.data.variants;
    const again = await call<ConsoleVariants>(manager, "PUT", `/admin/products/${product.id}/variants`, {
      options: OPTIONS,
      variants: [
        { ...variants[0], id: a.id },
        { ...variants[1], id: b.id, images: [] },
      ],
    });
    expect(again.body.data.variants.map((v) => v.images)).toEqual([[black], []]);
    // Only the shop's own pictures.
    const foreign = await call(manager, "PUT", `/admin/products/${product.id}/variants`, {
      options: OPTIONS,
      variants: [{ ...variants[0], id: a.id, images: ["https://example.com/x.png"] }],
    });
    expect(foreign.status).toBe(422);
  });

  it("a variant left out is removed, or only stopped when it was sold; its edit keeps its stock", async () => {
    const product = await createProduct({ stock: 5 });
    const sku = product.slug.toUpperCase();
    const first = await call<ConsoleVariants>(manager, "PUT", `/admin/products/${product.id}/variants`, {
      options: OPTIONS,
      variants: sixVariants(sku).slice(0, 3),
    });
    const [a, b, c] = first.body.data.variants;
    // b is sold (an order line points at it).
    const shopper = await newUser();
    await call(shopper, "POST", "/cart/add-product", { product_id: product.id, variant_id: b.id });
    const placed = await call(shopper, "POST", "/checkout", {
      idempotency_key: crypto.randomUUID(),
      email: shopper.email,
      address: { name: "Nora Test", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
      shipping_method: "standard",
      payment_method: "card",
    });
    expect(placed.status).toBe(201);
    const second = await call<ConsoleVariants>(manager, "PUT", `/admin/products/${product.id}/variants`, {
      options: OPTIONS,
      variants: [{ ...sixVariants(sku)[0], id: a.id, price: 199000, stock: 999 }],
    });
    expect(second.status).toBe(200);
    const byId = new Map(second.body.data.variants.map((v) => [v.id, v]));
    // a edited: new price, stock untouched (the ledger moves stock, not this form).
    expect(byId.get(a.id)).toMatchObject({ price: 199000, stock: a.stock, active: true });
    // b was sold: stopped, kept for its order; c never was: gone.
    // Two variants swap their SKUs in one save.
    const [x, y] = [byId.get(a.id)!, byId.get(b.id)!];
    const swapped = await call<ConsoleVariants>(manager, "PUT", `/admin/products/${product.id}/variants`, {
      options: OPTIONS,
      variants: [
        { ...sixVariants(sku)[0], id: x.id, sku: y.sku, price: x.price },
        { ...sixVariants(sku)[1], id: y.id, sku: x.sku, price: y.price, active: false },
      ],
    });
    expect(swapped.status).toBe(200);
    expect(swapped.body.data.variants.map((v) => [v.id, v.sku])).toEqual([
      [x.id, y.sku],
      [y.id, x.sku],
    ]);
    expect(byId.get(b.id)).toMatchObject({ active: false, ordered: true });
    expect(byId.has(c.id)).toBe(false);
    const page = await shown(product.slug);
    expect(page.variants?.map((v) => v.id)).toEqual([a.id]);
  });
});
