import { applyD1Migrations, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProductAttribute, ProductDetails } from "../../contract/catalogue";
import { attributeStatements, CATEGORY_ATTRIBUTES, VALUES } from "../../scripts/seed/attributes";
import { catalogueStatements, CATEGORIES, seedProducts } from "../../scripts/seed/catalogue";
import { seedCatalogue } from "../support/catalogue";

/**
 * Typed specifications (migration 0037): attributes defined once with a type, bilingual labels and
 * units, listed per category; one value per product; the product answer carries them in the
 * category's order, in the caller's language.
 */

async function details(slug: string, lang: "en" | "ar" = "en"): Promise<ProductDetails> {
  const res = await SELF.fetch(`https://shop.test/backend/products/${slug}`, { headers: { "content-language": lang } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: ProductDetails }).data;
}

beforeAll(async () => {
  await seedCatalogue(env.DB);
});

describe("a product's typed specifications", () => {
  it("come in the category's order, each of its type: numbers with their unit, an option, yes or no, text", async () => {
    const p = await details("iphone-16-pro");
    expect(p.attributes?.map((a) => a.code)).toEqual(CATEGORY_ATTRIBUTES.phones);
    const byCode = new Map<string, ProductAttribute>(p.attributes?.map((a) => [a.code, a]));
    expect(byCode.get("screen_size")).toEqual({
      code: "screen_size",
      label: "Screen size",
      group: "Display",
      type: "number",
      value: 6.3,
      unit: "inch",
    });
    // Its storage is its variants': each size it is sold in, in the attribute's order.
    expect(byCode.get("storage")).toEqual({
      code: "storage",
      label: "Storage",
      group: "Memory and storage",
      type: "enum",
      value: "128gb",
      option: "128 GB",
      options: ["128 GB", "256 GB", "512 GB", "1 TB"],
    });
    // A product whose variants do not give it keeps its own value alone.
    expect((await details("iphone-15-pro")).attributes?.find((a) => a.code === "storage")).toEqual({
      code: "storage",
      label: "Storage",
      group: "Memory and storage",
      type: "enum",
      value: "128gb",
      option: "128 GB",
    });
    expect(byCode.get("five_g")).toMatchObject({ type: "bool", value: true, label: "5G" });
    expect(byCode.get("chip")).toMatchObject({ type: "text", value: "A18 Pro", group: "Performance" });
  });

  it("are in Arabic for an Arabic caller: labels, groups, units and options", async () => {
    const p = await details("lg-oled-c3-65", "ar");
    expect(p.attributes?.map((a) => a.code)).toEqual(CATEGORY_ATTRIBUTES.tvs);
    const [size, refresh, panel, os] = p.attributes ?? [];
    // Its screen sizes are its variants'.
    expect(size).toMatchObject({ label: "حجم الشاشة", group: "الشاشة", value: 55, unit: "بوصة", values: [55, 65, 77] });
    expect(refresh).toMatchObject({ label: "معدل التحديث", value: 120, unit: "هرتز" });
    expect(panel).toMatchObject({ type: "enum", value: "oled", option: "OLED" });
    expect(os).toMatchObject({ label: "نظام التشغيل", value: "webos" });
  });

  it("are empty for a category without attributes, and a subcategory inherits its parent's", async () => {
    // A category of the shop's own that lists none: its product shows no typed values, though it holds some.
    await env.DB.batch([
      env.DB.prepare("INSERT INTO categories (id, slug, name_en, name_ar) VALUES (900, 'gifts', 'Gifts', 'هدايا')"),
      env.DB.prepare("UPDATE products SET category_id = 900 WHERE slug = 'airpods-pro-2'"),
    ]);
    expect((await details("airpods-pro-2")).attributes ?? []).toEqual([]);
    await env.DB.prepare(
      "UPDATE products SET category_id = (SELECT id FROM categories WHERE slug = 'headphones') WHERE slug = 'airpods-pro-2'",
    ).run();
    // MacBooks list no attributes of their own: they carry the laptops'.
    expect((await details("macbook-air-13-m3")).attributes?.map((a) => a.code)).toEqual(CATEGORY_ATTRIBUTES.laptops);
  });

  it("the demo catalogue fills every attribute its category lists, for every product", async () => {
    const { results } = await env.DB.prepare(
      `SELECT p.slug, COUNT(DISTINCT v.attribute_id) AS filled, (
         SELECT COUNT(*) FROM category_attributes ca WHERE ca.category_id IN (c.id, c.parent_id)
       ) AS listed
       FROM products p JOIN categories c ON c.id = p.category_id
       LEFT JOIN product_attribute_values v ON v.product_id = p.id
       WHERE p.slug IN (SELECT value FROM json_each(?))
       GROUP BY p.id`,
    )
      .bind(JSON.stringify(seedProducts().map((p) => p.slug)))
      .all<{ slug: string; filled: number; listed: number }>();
    expect(results.length).toBe(seedProducts().length);
    expect(Object.keys(VALUES).length).toBe(seedProducts().length);
    for (const r of results) expect(r.filled, r.slug).toBe(r.listed);
  });
});

describe("the database keeps values typed", () => {
  it("refuses a value of another type than its attribute's, and an option of another attribute", async () => {
    const product = (await env.DB.prepare("SELECT id FROM products WHERE slug = 'galaxy-s24'").first<{ id: number }>())!
      .id;
    // Storage is an enumeration: a number is refused.
    await expect(
      env.DB.prepare(
        "UPDATE product_attribute_values SET option_id = NULL, number_value = 256 WHERE product_id = ? AND attribute_id = 7",
      )
        .bind(product)
        .run(),
    ).rejects.toThrow(/does not match its attribute/);
    // The operating system's option "android" (801+) is not a storage option.
    const android = (await env.DB.prepare(
      "SELECT o.id FROM attribute_options o JOIN attributes a ON a.id = o.attribute_id WHERE a.code = 'os' AND o.code = 'android'",
    ).first<{ id: number }>())!.id;
    await expect(
      env.DB.prepare("UPDATE product_attribute_values SET option_id = ? WHERE product_id = ? AND attribute_id = 7")
        .bind(android, product)
        .run(),
    ).rejects.toThrow(/does not match its attribute/);
    // Two kinds of value at once: refused by the row's own check.
    await expect(
      env.DB.prepare("UPDATE product_attribute_values SET bool_value = 1 WHERE product_id = ? AND attribute_id = 1")
        .bind(product)
        .run(),
    ).rejects.toThrow();
    expect(
      await env.DB.prepare(
        "SELECT o.code FROM product_attribute_values v JOIN attribute_options o ON o.id = v.option_id WHERE v.product_id = ? AND v.attribute_id = 7",
      )
        .bind(product)
        .first("code"),
    ).toBe("256gb");
  });
});

describe("migration 0037 on a database made under the schema before it", () => {
  // A second, empty database of this file's own (the main one already has every migration).
  const db = () => env.REPLICA_DB;

  it("keeps every product and its free-form specifications, and takes the typed values afterwards", async () => {
    await applyD1Migrations(
      db(),
      env.TEST_MIGRATIONS.filter((m) => m.name < "0037"),
    );
    await db().batch(catalogueStatements().map((sql) => db().prepare(sql)));
    const before = await db()
      .prepare("SELECT id, slug, specs_en, specs_ar, price, stock FROM products ORDER BY id")
      .all();
    expect(before.results.length).toBe(seedProducts().length);

    await applyD1Migrations(db(), env.TEST_MIGRATIONS);
    const after = await db()
      .prepare("SELECT id, slug, specs_en, specs_ar, price, stock FROM products ORDER BY id")
      .all();
    expect(after.results).toEqual(before.results);
    expect(await db().prepare("SELECT COUNT(*) AS n FROM product_attribute_values").first("n")).toBe(0);

    await db().batch(
      attributeStatements(
        new Map(CATEGORIES.map((c) => [c.slug, c.id])),
        new Map(seedProducts().map((p) => [p.slug, p.id])),
      ).map((sql) => db().prepare(sql)),
    );
    const values = Object.values(VALUES).reduce((n, v) => n + Object.keys(v).length, 0);
    expect(await db().prepare("SELECT COUNT(*) AS n FROM product_attribute_values").first("n")).toBe(values);
  });
});
