import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PRICE_BANDS } from "../../worker/backend/services/catalogue/search-ranking";
import {
  expectSameFacets,
  facetsOf,
  FILTERS,
  ORDER,
  page,
  reference,
  referenceFacets,
  seedSearchCatalogue,
  type Filters,
} from "../support/search-reference";

/**
 * Lists without a search: the isolate holds the kept counts' cells with their version
 * (services/catalogue/held-cells.ts, migration 0023), sums each list's total and facets from
 * them (services/catalogue/facet-cells.ts), reads no subcategory the cells say holds none of the filtered
 * products, and no page past the last. Every answer must be what the straightforward statement
 * answers, and held cells must never answer for cells that changed since, whoever wrote them.
 */

/**
 * Subcategory arms: a category and a brand where one subcategory holds none of the brand's
 * products and a sibling does (the arm is left out), and one where a subcategory holds exactly one
 * (featured, so on the first page: the arm must be read). Found in the seeded catalogue.
 */
const ARMS: Filters[] = [];

beforeAll(async () => {
  await seedSearchCatalogue();
  const { results } = await env.DB.prepare(
    `SELECT c.id AS leaf, parent.slug AS category, b.id AS brand_id, b.slug AS brand
     FROM categories c JOIN categories parent ON parent.id = c.parent_id CROSS JOIN brands b
     WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.category_id = c.id AND p.brand_id = b.id AND p.active = 1)
       AND EXISTS (SELECT 1 FROM products p JOIN categories s ON s.id = p.category_id
                   WHERE s.parent_id = parent.id AND s.id <> c.id AND p.brand_id = b.id AND p.active = 1)
     ORDER BY c.id, b.id`,
  ).all<{ leaf: number; category: string; brand_id: number; brand: string }>();
  const [lone, none] = [
    results[0],
    results.find((r) => r.category !== results[0].category || r.brand !== results[0].brand),
  ];
  expect(lone && none).toBeTruthy();
  await env.DB.prepare(
    `INSERT INTO products (slug, sku, name_en, name_ar, category_id, brand_id, price, stock, is_featured)
     VALUES ('cells-lone', 'CELLS-LONE', 'A lone product', 'منتج وحيد', ?, ?, 99900, 2, 1)`,
  )
    .bind(lone.leaf, lone.brand_id)
    .run();
  ARMS.push({ category: lone.category, brand: lone.brand }, { category: none!.category, brand: none!.brand });
});

const LIST_FILTERS: Filters[] = [
  ...FILTERS,
  { category: "phones", brand: "samsung" },
  { category: "phones", brand: "apple", in_stock: true },
  { category: "phones", brand: "no-such-brand" },
  { category: "no-such-category" },
  { brand: "sony", min_price: PRICE_BANDS[1].min, max_price: PRICE_BANDS[2].max! - 1 },
  { category: "phones", min_price: PRICE_BANDS[4].min, in_stock: true },
];

async function expectListsRight(filters: Filters[], what: string, langs: ("en" | "ar")[] = ["en"]): Promise<number> {
  let nonEmpty = 0;
  for (const lang of langs)
    for (const f of filters)
      for (const sort of Object.keys(ORDER)) {
        const all = await reference("", lang, sort, f);
        if (all.length > 12) nonEmpty++;
        for (const [n, perPage] of [
          [1, 12],
          [3, 12],
          [2, 48],
          [Math.ceil(all.length / 12) + 1, 12],
        ]) {
          const got = await page("", lang, sort, f, n, perPage);
          const label = `${what}: ${lang} ${sort} ${JSON.stringify(f)} page ${n}/${perPage}`;
          expect(got.total, label).toBe(all.length);
          expect(got.slugs, label).toEqual(all.slice((n - 1) * perPage, n * perPage));
        }
      }
  return nonEmpty;
}

async function expectFacetsRight(filters: Filters[], what: string): Promise<void> {
  for (const f of filters)
    expectSameFacets(await facetsOf("", "en", f), await referenceFacets("", f), `${what}: ${JSON.stringify(f)}`);
}

async function facetsVersion(): Promise<number> {
  return (await env.DB.prepare("SELECT value FROM versions WHERE name = 'facets'").first<number>("value"))!;
}

describe("lists summed from the held cells", () => {
  it("list every sort, filter and page in both languages as the straightforward statement does, with its total", async () => {
    expect(ARMS).toHaveLength(2);
    // Both languages: the name sort reads each language's own name.
    const nonEmpty = await expectListsRight([...LIST_FILTERS, ...ARMS], "held cells", ["en", "ar"]);
    // Most combinations must list several pages, or the comparison proves little.
    expect(nonEmpty).toBeGreaterThan(LIST_FILTERS.length * Object.keys(ORDER).length);
  }, 120_000);

  it("count each facet as a count of the products does, its own filter left out", async () => {
    await expectFacetsRight(
      [
        ...LIST_FILTERS,
        ...ARMS,
        // Price bounds that are no band's: two bands cut, one band cut at both ends, a maximum
        // alone, a minimum in the open top band (services/catalogue/list-filters.ts, priceCut).
        { category: "phones", min_price: 120_000, max_price: 450_000 },
        { brand: "samsung", min_price: 60_000, max_price: 90_000 },
        { max_price: 99_999, in_stock: true },
        { category: "laptops", min_price: 700_000 },
      ],
      "held cells",
    );
  }, 60_000);

  it("follow every write that moves a product to another cell at once, without a catalogue change", async () => {
    const catalogue = "SELECT value FROM versions WHERE name = 'catalogue'";
    const catalogueBefore = await env.DB.prepare(catalogue).first<number>("value");
    const checked: Filters[] = [{}, { category: "phones", brand: "samsung" }, { in_stock: true }, { brand: "apple" }];
    await expectListsRight(checked.slice(0, 1), "before the writes");
    const pick = async (where: string) =>
      (await env.DB.prepare(`SELECT id FROM products WHERE active = 1 AND ${where} ORDER BY id LIMIT 1`).first<number>(
        "id",
      ))!;
    const samsungPhone = await pick(
      "brand_id = (SELECT id FROM brands WHERE slug = 'samsung') AND stock > 0 AND category_id IN (SELECT id FROM categories WHERE slug = 'android-phones')",
    );
    const cheap = await pick(`price < ${PRICE_BANDS[0].max}`);
    const apple = await pick("brand_id = (SELECT id FROM brands WHERE slug = 'apple')");
    const writes: [string, string][] = [
      ["a sale of the last one", `UPDATE products SET stock = 0 WHERE id = ${samsungPhone}`],
      ["a price into another band", `UPDATE products SET price = ${PRICE_BANDS[3].min} WHERE id = ${cheap}`],
      ["hiding", `UPDATE products SET active = 0 WHERE id = ${apple}`],
      [
        "another brand",
        `UPDATE products SET brand_id = (SELECT id FROM brands WHERE slug = 'apple') WHERE id = ${cheap}`,
      ],
      [
        "a new product",
        "INSERT INTO products (slug, sku, name_en, name_ar, category_id, price, stock) SELECT 'cells-new', 'CELLS-NEW', 'Cells phone', 'هاتف', category_id, price, 3 FROM products WHERE id = " +
          samsungPhone,
      ],
    ];
    for (const [what, sql] of writes) {
      const version = await facetsVersion();
      await env.DB.prepare(sql).run();
      expect(await facetsVersion(), what).toBeGreaterThan(version);
      await expectListsRight(checked.slice(0, 2), `after ${what}`);
      await expectFacetsRight(checked, `after ${what}`);
    }
    // None of these writes went through the console, which moves the catalogue version.
    expect(await env.DB.prepare(catalogue).first<number>("value")).toBe(catalogueBefore);
  }, 120_000);

  it("are the cells the isolate holds: a change they are not told of is not seen, one they are is", async () => {
    const total = async () => (await page("", "en", "relevance", {}, 1, 12)).total;
    const before = await total();
    const trigger = (await env.DB.prepare(
      "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'product_facet_counts_updated'",
    ).first<string>("sql"))!;
    const key = (await env.DB.prepare(
      "SELECT category_id, brand_id, band, in_stock FROM product_facet_counts WHERE n > 0 ORDER BY 1, 2, 3, 4 LIMIT 1",
    ).first<Record<string, number>>())!;
    const moveCell = (by: number) =>
      env.DB.prepare(
        "UPDATE product_facet_counts SET n = n + ? WHERE category_id = ? AND brand_id = ? AND band = ? AND in_stock = ?",
      )
        .bind(by, key.category_id, key.brand_id, key.band, key.in_stock)
        .run();
    // A write to a cell that does not move the version (its trigger gone for the test): the held
    // cells still answer, so the total stays.
    await env.DB.prepare("DROP TRIGGER product_facet_counts_updated").run();
    await moveCell(1000);
    try {
      expect(await total()).toBe(before);
      // The version moves: the cells are read again, with the page.
      await env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'facets'").run();
      expect(await total()).toBe(before + 1000);
    } finally {
      await env.DB.prepare(trigger).run();
      await moveCell(-1000);
    }
    expect(await total()).toBe(before);
  });
});
