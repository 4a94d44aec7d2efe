import { applyD1Migrations, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AttributeFacet, ListMeta, ProductFacets, ProductSummary } from "../../contract/catalogue";
import { attributeStatements, CATEGORY_ATTRIBUTES, ownValues, VALUES } from "../../scripts/seed/attributes";
import { catalogueStatements, CATEGORIES, seedProducts } from "../../scripts/seed/catalogue";
import { variantStatements, VARIANTS } from "../../scripts/seed/variants";
import { variantAttributeSql } from "../../worker/backend/services/catalogue/variant-attributes";
import { call } from "../support/commerce";
import { newStaff } from "../support/console";
import { detailsText, indexNames, searchBody, type DetailsOf } from "../../worker/backend/services/console/products";
import { dropAll } from "../support/d1-schema";
import { seedCatalogue } from "../support/catalogue";

/**
 * Attribute filters and facets on the product list: a category's typed attributes filter the list
 * (`filter.<code>`), and each of their values is counted with every other filter applied, so a
 * count is what choosing it shows. Counts are checked against the lists they promise.
 */

interface Page {
  data: ProductSummary[];
  meta: ListMeta & { facets: ProductFacets };
}

/** A list as the backend answers it; `fresh` skips the answers kept for a second (after a write). */
async function list(query: string, lang: "en" | "ar" = "en", fresh = false): Promise<Page> {
  const perPage = query.includes("per_page=") ? "" : "per_page=48&";
  const res = await SELF.fetch(`https://shop.test/backend/products?facets=1&${perPage}${query}`, {
    headers: { "content-language": lang, ...(fresh ? { "cache-control": "no-cache" } : {}) },
  });
  expect(res.status, query).toBe(200);
  return (await res.json()) as Page;
}

const facet = (page: Page, code: string): AttributeFacet => {
  const found = page.meta.facets.attributes?.find((a) => a.code === code);
  expect(found, code).toBeDefined();
  return found!;
};

/** The demo catalogue's products of these slugs with an attribute's value, by the seed's own table. */
const seeded = (slugs: string[], code: string, test: (value: number | boolean | string) => boolean) =>
  slugs.filter((s) => valuesOf(s, code).some(test)).sort();

/** A demo product's values of an attribute: its variants' sizes when they give it (a TV's), else its own. */
function valuesOf(slug: string, code: string): (number | boolean | string)[] {
  if (VALUES[slug]?.[code] === undefined) return [];
  if (code in ownValues(slug)) return [VALUES[slug][code]];
  return VARIANTS[slug].sizes.map(([size]) => (typeof VALUES[slug][code] === "number" ? Number(size) : size));
}

const slugsOf = (page: Page) => page.data.map((p) => p.slug).sort();

/** The demo's values and products as seeded, whatever a file before this one (or a test here) changed. */
async function restoreSeed(): Promise<void> {
  const products = seedProducts();
  await env.DB.batch([
    env.DB.prepare("DELETE FROM product_attribute_values"),
    ...attributeStatements(
      new Map(CATEGORIES.map((c) => [c.slug, c.id])),
      new Map(products.map((p) => [p.slug, p.id])),
    ).map((sql) => env.DB.prepare(sql)),
    ...products.map((p) =>
      env.DB.prepare(
        "UPDATE products SET price = ?, stock = ?, active = 1, category_id = ?, brand_id = ? WHERE id = ?",
      ).bind(p.price, p.stock, p.category.id, p.brand.id, p.id),
    ),
    ...variantAttributeSql("SELECT id FROM products WHERE variant_count > 1").map((sql) => env.DB.prepare(sql)),
  ]);
}

beforeAll(async () => {
  await seedCatalogue(env.DB);
  await restoreSeed();
});

describe("attribute facets", () => {
  it("a category's list offers its attributes (not text) in table order, each value counted", async () => {
    const page = await list("category=laptops");
    const codes = page.meta.facets.attributes?.map((a) => a.code);
    expect(codes).toEqual(CATEGORY_ATTRIBUTES.laptops.filter((c) => c !== "chip"));
    const laptops = slugsOf(page);
    expect(facet(page, "ram")).toMatchObject({ type: "number", label: "Memory", unit: "GB" });
    expect(facet(page, "ram").values).toEqual([
      { value: "8", count: seeded(laptops, "ram", (v) => v === 8).length },
      { value: "16", count: seeded(laptops, "ram", (v) => v === 16).length },
      { value: "18", count: 1 },
      { value: "32", count: 1 },
    ]);
    // An enumeration lists its options in their order, with their names; yes before no.
    expect(facet(page, "storage").values.map((v) => v.value)).toEqual(["256gb", "512gb", "1tb"]);
    expect(facet(page, "storage").values[0]).toMatchObject({ label: "256 GB" });
    expect(facet(page, "touch_screen").values).toEqual([
      { value: "1", count: 1 },
      { value: "0", count: laptops.length - 1 },
    ]);
  });

  it("every value's count is the total of the list that chooses it, alone and beside other filters", async () => {
    for (const base of ["category=laptops", "category=laptops&brand=lenovo", "category=tvs&in_stock=1"]) {
      const page = await list(base);
      for (const f of page.meta.facets.attributes ?? []) {
        for (const value of f.values) {
          const chosen = await list(`${base}&filter.${f.code}=${value.value}`);
          expect(chosen.meta.total, `${base} ${f.code}=${value.value}`).toBe(value.count);
          expect(chosen.data).toHaveLength(value.count);
        }
      }
    }
  });

  it("a list of one attribute value counts its category, brand, price and stock as its products", async () => {
    // Such a list is counted from that value's cells; its products are read from the products.
    for (const base of ["category=laptops&filter.ram=16", "category=tvs&filter.screen_size=65&in_stock=1"]) {
      const page = await list(base);
      expect(page.data).toHaveLength(page.meta.total);
      const { brands, price_bands, in_stock, categories } = page.meta.facets;
      expect(brands.length).toBeGreaterThan(0);
      for (const b of brands) expect((await list(`${base}&brand=${b.slug}`)).data, b.slug).toHaveLength(b.count);
      for (const c of categories)
        expect((await list(`${base.replace(/category=[a-z-]+/, `category=${c.slug}`)}`)).data, c.slug).toHaveLength(
          c.count,
        );
      for (const band of price_bands) {
        const max = band.max === null ? "" : `&max_price=${band.max - 1}`;
        expect((await list(`${base}&min_price=${band.min}${max}`)).data, `${band.min}`).toHaveLength(band.count);
      }
      expect((await list(`${base.replace("&in_stock=1", "")}&in_stock=1`)).data).toHaveLength(in_stock);
    }
  });

  it("under attribute filters too: an attribute's own count leaves its filter out, the others keep it", async () => {
    const bases: [string, Record<string, string>][] = [
      ["category=laptops", { ram: "16" }],
      ["category=laptops&brand=apple", { ram: "8" }],
      ["category=laptops", { ram: "16", os: "windows" }],
      ["category=tvs&in_stock=1", { screen_size: "65" }],
    ];
    for (const [base, chosen] of bases) {
      const query = (over: Record<string, string>) =>
        [base, ...Object.entries({ ...chosen, ...over }).map(([code, value]) => `filter.${code}=${value}`)].join("&");
      const page = await list(query({}));
      // A chosen attribute still offers its other values.
      for (const code of Object.keys(chosen)) expect(facet(page, code).values.length, code).toBeGreaterThan(1);
      for (const f of page.meta.facets.attributes ?? [])
        for (const value of f.values) {
          const chosenOne = await list(query({ [f.code]: value.value }));
          expect(chosenOne.meta.total, `${query({})}: ${f.code}=${value.value}`).toBe(value.count);
        }
    }
  });

  it("a subcategory offers its parent's attributes", async () => {
    const page = await list("category=windows-laptops");
    expect(facet(page, "os").values.map((v) => v.value)).toEqual(["windows"]);
  });

  it("a category without attributes, or no category, has no attribute facets", async () => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO categories (id, slug, name_en, name_ar) VALUES (900, 'gifts', 'Gifts', 'هدايا')",
    ).run();
    expect((await list("category=gifts", "en", true)).meta.facets.attributes).toBeUndefined();
    expect((await list("")).meta.facets.attributes).toBeUndefined();
  });

  it("labels and units are in the caller's language", async () => {
    const page = await list("category=tvs", "ar");
    expect(facet(page, "screen_size")).toMatchObject({ label: "حجم الشاشة", unit: "بوصة" });
    expect(facet(page, "panel").values.find((v) => v.value === "led")).toMatchObject({ label: "LED" });
  });
});

const band = (c: string) =>
  `CASE WHEN ${c} < 50000 THEN 0 WHEN ${c} < 150000 THEN 1 WHEN ${c} < 300000 THEN 2 WHEN ${c} < 600000 THEN 3 ELSE 4 END`;
const cellsEqualCount = async (db: D1Database = env.DB) => {
  const kept = await db
    .prepare(
      "SELECT category_id, brand_id, attribute_id, value, band, in_stock, n FROM attribute_value_counts WHERE n > 0 ORDER BY 1, 2, 3, 4, 5, 6",
    )
    .all();
  const counted = await db
    .prepare(
      `SELECT p.category_id, IFNULL(p.brand_id, 0) AS brand_id, v.attribute_id,
       COALESCE(v.option_id, v.number_value, v.bool_value) AS value,
       ${band("p.price")} AS band, p.stock > 0 AS in_stock, COUNT(*) AS n
     FROM product_attribute_values v JOIN products p ON p.id = v.product_id
     WHERE p.active = 1 AND v.text_en IS NULL GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`,
    )
    .all();
  expect(kept.results.length).toBeGreaterThan(0);
  expect(kept.results).toEqual(counted.results);
  // The pairs of two attributes' values (migration 0042), both ways, by leaf category.
  const value = (v: string) => `COALESCE(${v}.option_id, ${v}.number_value, ${v}.bool_value)`;
  const [pairs, paired] = await db.batch([
    db.prepare(
      "SELECT attribute_id, value, category_id, other_id, other_value, n FROM attribute_pair_counts WHERE n > 0 ORDER BY 1, 2, 3, 4, 5",
    ),
    db.prepare(
      `SELECT a.attribute_id, ${value("a")} AS value, p.category_id, b.attribute_id AS other_id,
         ${value("b")} AS other_value, COUNT(*) AS n
       FROM products p JOIN product_attribute_values a ON a.product_id = p.id AND a.text_en IS NULL
         JOIN product_attribute_values b ON b.product_id = p.id AND b.text_en IS NULL AND b.attribute_id <> a.attribute_id
       WHERE p.active = 1 GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
    ),
  ]);
  expect(pairs.results.length).toBeGreaterThan(0);
  expect(pairs.results).toEqual(paired.results);
  expect(await db.prepare("SELECT COUNT(*) AS n FROM attribute_pair_counts WHERE n < 0").first("n")).toBe(0);
};

describe("the kept attribute cells", () => {
  it("equal a count of the values after every kind of write, and the lists' facets follow at once", async () => {
    await cellsEqualCount();
    const id = async (slug: string) =>
      (await env.DB.prepare("SELECT id FROM products WHERE slug = ?").bind(slug).first<number>("id"))!;
    const [xps, victus, oled] = await Promise.all([id("dell-xps-13"), id("hp-victus-15"), id("lg-oled-c3-65")]);
    const before = facet(await list("category=laptops"), "ram").values.find((v) => v.value === "16")!.count;
    const copyValues = (to: number, from: number, where: string) =>
      env.DB.prepare(
        `INSERT INTO product_attribute_values (product_id, attribute_id, number_value, option_id, bool_value, text_en, text_ar, value_key)
         SELECT ?, attribute_id, number_value, option_id, bool_value, text_en, text_ar, value_key
         FROM product_attribute_values WHERE product_id = ? AND ${where}`,
      ).bind(to, from);
    const writes = [
      // A value changed, removed and added; a text value (not counted) changed.
      env.DB.prepare(
        "UPDATE product_attribute_values SET number_value = 64 WHERE product_id = ? AND attribute_id = 6",
      ).bind(xps),
      env.DB.prepare("DELETE FROM product_attribute_values WHERE product_id = ? AND attribute_id = 4").bind(victus),
      env.DB.prepare(
        "UPDATE product_attribute_values SET text_en = 'X', text_ar = 'X' WHERE product_id = ? AND attribute_id = 5",
      ).bind(victus),
      // A product into another price band and brand, out of stock, hidden and shown, into another category.
      env.DB.prepare("UPDATE products SET price = 20000000 WHERE id = ?").bind(victus),
      env.DB.prepare("UPDATE products SET brand_id = (SELECT id FROM brands WHERE slug = 'dell') WHERE id = ?").bind(
        victus,
      ),
      env.DB.prepare("UPDATE products SET brand_id = NULL WHERE id = ?").bind(oled),
      env.DB.prepare("UPDATE products SET stock = 0 WHERE id = ?").bind(oled),
      env.DB.prepare("UPDATE products SET active = 0 WHERE id = ?").bind(oled),
      env.DB.prepare("UPDATE products SET active = 1 WHERE id = ?").bind(oled),
      env.DB.prepare(
        "UPDATE products SET category_id = (SELECT id FROM categories WHERE slug = 'macbooks') WHERE id = ?",
      ).bind(xps),
      // A value added (the one removed above, as another laptop holds it).
      copyValues(victus, xps, "attribute_id = 4"),
      // A new laptop given the XPS's values, then removed (nothing was sold of it).
      env.DB.prepare(
        `INSERT INTO products (id, slug, sku, category_id, name_en, name_ar, price, stock)
         VALUES (990001, 'counted-laptop', 'CNT-1', (SELECT id FROM categories WHERE slug = 'laptops'), 'Counted', 'معدود', 100000, 2)`,
      ),
      copyValues(990001, xps, "1"),
      env.DB.prepare("DELETE FROM products WHERE id = 990001"),
    ];
    try {
      for (const write of writes) {
        await write.run();
        await cellsEqualCount();
      }
      // The list's facet (summed from the held cells) follows the writes at once.
      const after = facet(await list("category=laptops"), "ram").values.find((v) => v.value === "16")?.count ?? 0;
      expect(after).toBe(before - 1);
      expect(facet(await list("category=laptops"), "ram").values.find((v) => v.value === "64")?.count).toBe(1);
    } finally {
      await restoreSeed();
    }
    await cellsEqualCount();
  });
});

/**
 * The second database of this file's own (the main one has every migration), emptied, migrated up
 * to `before` and given the demo's products and values, then `used`.
 */
async function oldShop(before: string, used: string[]): Promise<D1Database> {
  const db = env.REPLICA_DB;
  await dropAll(db);
  await applyD1Migrations(
    db,
    env.TEST_MIGRATIONS.filter((m) => m.name < before),
  );
  await db.batch(
    [
      ...catalogueStatements(),
      ...attributeStatements(
        new Map(CATEGORIES.map((c) => [c.slug, c.id])),
        new Map(seedProducts().map((p) => [p.slug, p.id])),
      ),
      ...used,
    ].map((sql) => db.prepare(sql)),
  );
  return db;
}

describe("migration 0039 on a database made and used under the schema before it", () => {
  it("keep every product and value, and count the values already there into the cells", async () => {
    // Used: a product hidden, one sold out, one moved to another price band.
    const db = await oldShop("0039", [
      "UPDATE products SET active = 0 WHERE slug = 'iphone-14'",
      "UPDATE products SET stock = 0 WHERE slug = 'galaxy-s24'",
      "UPDATE products SET price = 90000 WHERE slug = 'ipad-10th-gen'",
    ]);
    const read = () =>
      db.batch([
        db.prepare("SELECT id, slug, price, stock, active FROM products ORDER BY id"),
        db.prepare(
          `SELECT product_id, attribute_id, number_value, option_id, bool_value, text_en, text_ar
           FROM product_attribute_values ORDER BY product_id, attribute_id`,
        ),
      ]);
    const before = await read();
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    const after = await read();
    expect(after.map((r) => r.results)).toEqual(before.map((r) => r.results));
    await cellsEqualCount(db);
  });
});

describe("migration 0042 on a database made and used under the schema before it", () => {
  it("keeps every value and counts the pairs of values already there", async () => {
    const db = await oldShop("0042", [
      ...variantStatements(seedProducts()),
      "UPDATE products SET active = 0 WHERE slug = 'iphone-14'",
      "UPDATE products SET category_id = (SELECT id FROM categories WHERE slug = 'macbooks') WHERE slug = 'dell-xps-13'",
    ]);
    await db.batch(
      variantAttributeSql("SELECT id FROM products WHERE variant_count > 1").map((sql) => db.prepare(sql)),
    );
    const read = () => db.prepare("SELECT * FROM product_attribute_values ORDER BY 1, 2, value_key").all();
    const before = (await read()).results;
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    expect((await read()).results).toEqual(before);
    await cellsEqualCount(db);
  });
});

describe("migration 0041 on a database made and used with variants before it", () => {
  it("keeps every value as the product's own, and the variants then give theirs with the cells still right", async () => {
    const db = await oldShop("0041", [
      ...variantStatements(seedProducts()),
      "UPDATE products SET active = 0 WHERE slug = 'iphone-14'",
      "UPDATE product_variants SET stock = 0 WHERE product_id = (SELECT id FROM products WHERE slug = 'galaxy-s24')",
    ]);
    // Made before 0041: its key is the old one.
    expect(
      await db
        .prepare("SELECT COUNT(*) AS n FROM pragma_table_info('product_attribute_values') WHERE name = 'value_key'")
        .first("n"),
    ).toBe(0);
    const columns = "product_id, attribute_id, number_value, option_id, bool_value, text_en, text_ar";
    const read = () => db.prepare(`SELECT ${columns} FROM product_attribute_values ORDER BY 1, 2`).all();
    const before = (await read()).results;
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    expect((await read()).results).toEqual(before);
    expect(await db.prepare("SELECT COUNT(*) AS n FROM product_attribute_values WHERE value_key <> 0").first("n")).toBe(
      0,
    );
    await cellsEqualCount(db);
    // The variants give their sizes: the 16 Pro's four storages, the Sony's four screens, each counted.
    await db.batch(
      variantAttributeSql("SELECT id FROM products WHERE variant_count > 1").map((sql) => db.prepare(sql)),
    );
    const given = async (slug: string, code: string) =>
      (
        await db
          .prepare(
            `SELECT COALESCE(o.code, v.number_value) AS value FROM product_attribute_values v
             JOIN attributes a ON a.id = v.attribute_id LEFT JOIN attribute_options o ON o.id = v.option_id
             JOIN products p ON p.id = v.product_id WHERE p.slug = ? AND a.code = ? ORDER BY o.position, v.number_value`,
          )
          .bind(slug, code)
          .all<{ value: string | number }>()
      ).results.map((r) => r.value);
    expect(await given("iphone-16-pro", "storage")).toEqual(["128gb", "256gb", "512gb", "1tb"]);
    expect(await given("sony-bravia-7-65", "screen_size")).toEqual([55, 65, 75, 85]);
    // A laptop's "16 GB · 512 GB" is no storage option: its own value stays.
    expect(await given("macbook-air-13-m3", "storage")).toEqual([VALUES["macbook-air-13-m3"].storage]);
    await cellsEqualCount(db);
  });
});

describe("attribute filters", () => {
  it("keep the products holding any of the values; two attributes both apply", async () => {
    const laptops = slugsOf(await list("category=laptops"));
    const ram = await list("category=laptops&filter.ram=16,32");
    expect(slugsOf(ram)).toEqual(seeded(laptops, "ram", (v) => v === 16 || v === 32));
    // A repeated parameter is the same as values separated by commas.
    const repeated = await list("category=laptops&filter.ram=16&filter.ram=32");
    expect(slugsOf(repeated)).toEqual(slugsOf(ram));
    const both = await list("category=laptops&filter.ram=16&filter.os=windows");
    expect(slugsOf(both)).toEqual(seeded(laptops, "ram", (v) => v === 16).filter((s) => VALUES[s].os === "windows"));
  });

  it("a number's range includes both ends; its own facet still counts every value", async () => {
    const page = await list("category=tvs&filter.screen_size.gte=55&filter.screen_size.lte=65");
    const tvs = slugsOf(await list("category=tvs"));
    expect(slugsOf(page)).toEqual(seeded(tvs, "screen_size", (v) => Number(v) >= 55 && Number(v) <= 65));
    expect(page.data.length).toBe(3);
    // Its own facet leaves it out: every size is offered; the others count within the range.
    // The TVs sold in several sizes offer each of them.
    expect(facet(page, "screen_size").values.map((v) => v.value)).toEqual(["43", "50", "55", "65", "75", "77", "85"]);
    expect(facet(page, "panel").values.reduce((n, v) => n + v.count, 0)).toBe(3);
  });

  it("the other facets (categories, brands, price, stock) count with the attribute filter applied", async () => {
    const page = await list("category=laptops&filter.ram=16");
    const brands = page.meta.facets.brands;
    expect(brands.length).toBeGreaterThan(0);
    for (const b of brands) {
      const chosen = await list(`category=laptops&filter.ram=16&brand=${b.slug}`);
      expect(chosen.meta.total, b.slug).toBe(b.count);
    }
    const inStock = await list("category=laptops&filter.ram=16&in_stock=1");
    expect(inStock.meta.total).toBe(page.meta.facets.in_stock);
    expect(page.meta.facets.price_bands.reduce((n, b) => n + b.count, 0)).toBe(page.meta.total);
  });

  it("apply to a search and to every sort and page", async () => {
    const found = await list("q=apple&category=laptops&filter.ram=8");
    expect(found.data.map((p) => p.slug)).toEqual(["macbook-air-13-m3"]);
    expect(facet(found, "ram").values.find((v) => v.value === "16")?.count).toBe(1);
    const byPrice = await list("category=laptops&filter.ram=16&sort=price_asc&per_page=2&page=2");
    const all = await list("category=laptops&filter.ram=16&sort=price_asc");
    expect(byPrice.data.map((p) => p.slug)).toEqual(all.data.slice(2, 4).map((p) => p.slug));
  });

  it("an unknown attribute or option keeps nothing, as an unknown brand does", async () => {
    expect((await list("category=laptops&filter.nonesuch=1")).meta.total).toBe(0);
    expect((await list("category=laptops&filter.os=beos")).meta.total).toBe(0);
  });

  it("a malformed filter is a 422 naming the parameter, in the caller's language", async () => {
    for (const [query, field] of [
      ["filter.ram=%3Cscript%3E", "filter.ram"],
      ["filter.ram.gte=lots", "filter.ram.gte"],
      ["filter.RAM=16", "filter.RAM"],
    ] as const) {
      const res = await SELF.fetch(`https://shop.test/backend/products?${query}`, {
        headers: { "content-language": "ar" },
      });
      expect(res.status, query).toBe(422);
      const body = (await res.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(body.errors)).toEqual([field]);
      expect(body.errors[field][0]).toMatch(/[\u0600-\u06ff]/);
    }
  });
});

describe("search knows typed values", () => {
  const search = async (q: string, fresh = false) => slugsOf(await list(`q=${encodeURIComponent(q)}`, "en", fresh));

  it("a storage size finds the phones of that storage, as a typed value or as a variant's", async () => {
    const found = await search("iphone 256");
    // The 15 Pro Max holds 256 GB as its value; the 16 Pro and the 15 sell a 256 GB variant.
    expect(found).toEqual(expect.arrayContaining(["iphone-16-pro", "iphone-15-pro-max", "iphone-15"]));
    // The 15 Pro is 128 GB only; the 14 too.
    expect(found).not.toContain("iphone-15-pro");
    expect(found).not.toContain("iphone-14");
  });

  it("a screen size with its unit, in English and in Arabic, with Arabic-Indic digits", async () => {
    const sixtyFive = seeded(Object.keys(VALUES), "screen_size", (v) => v === 65);
    expect(await search("65 inch tv")).toEqual(sixtyFive);
    expect(await search("تلفزيون 65 بوصة")).toEqual(sixtyFive);
    expect(await search("تلفزيون ٦٥ بوصة")).toEqual(sixtyFive);
  });

  it("a number run into its unit finds the values written apart", async () => {
    const found = await search("16gb laptop");
    // Laptops are the products with a touch screen value, yes or no.
    const laptops = Object.keys(VALUES).filter((s) => VALUES[s].touch_screen !== undefined);
    // And the laptops that sell a 16 GB variant (the MacBook Air 13's 16 GB · 512 GB).
    expect(found).toEqual([...seeded(laptops, "ram", (v) => v === 16), "macbook-air-13-m3"].sort());
  });

  it("the seed indexes the same details and names' body as the worker does after an edit", async () => {
    for (const slug of ["iphone-16-pro", "lg-oled-c3-65", "hp-spectre-x360-14"]) {
      const p = (await env.DB.prepare(
        "SELECT id, sku, name_en, name_ar, model, description_en, description_ar, category_id, brand_id FROM products WHERE slug = ?",
      )
        .bind(slug)
        .first<DetailsOf & { id: number; sku: string; category_id: number; brand_id: number | null }>())!;
      const seeded = await env.DB.prepare("SELECT details FROM product_details_search WHERE rowid = ?")
        .bind(p.id)
        .first<string>("details");
      const words = (text: string) => text.split(" ").sort();
      const names = await indexNames(env.DB, [p.id]);
      const written = detailsText(p, names, names.words.get(p.id) ?? "");
      expect(written).toContain("بوص");
      expect(words(seeded!)).toEqual(words(written));
      // The body holds the variants' option values too ("iphone 16 pro 512" meets in one row).
      const body = await env.DB.prepare("SELECT body FROM product_search WHERE rowid = ?")
        .bind(p.id)
        .first<string>("body");
      const original = seedProducts().find((x) => x.slug === slug)!;
      expect(words(body!)).toEqual(
        words(searchBody({ ...p, sku: original.sku }, names, names.options.get(p.id) ?? "")),
      );
    }
  });

  it("a value set in the console is found at once", async () => {
    expect(await search("tablet 1 tb")).not.toContain("xiaomi-pad-6");
    const id = (await env.DB.prepare("SELECT id FROM products WHERE slug = 'xiaomi-pad-6'").first<number>("id"))!;
    const manager = await newStaff("manager");
    const res = await call(manager, "PUT", `/admin/products/${id}/attributes`, { attributes: { storage: "1tb" } });
    expect(res.status).toBe(200);
    expect(await search("tablet 1 tb", true)).toContain("xiaomi-pad-6");
    // In Arabic too: the unit's and the option's Arabic names.
    expect(await search("الأجهزة اللوحية 1 تيرابايت", true)).toContain("xiaomi-pad-6");
  });
});
