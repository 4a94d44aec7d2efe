import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PRICE_BANDS } from "../../worker/backend/services/catalogue/search-ranking";
import { seedCatalogue } from "../support/catalogue";
import { call, checkoutWith, createProduct, newGuest } from "../support/commerce";
import { newStaff } from "../support/console";

// The kept facet counts (migration 0018): lists without a search read their totals and
// facets from `product_facet_counts`, so every write to the products must keep it equal to a count
// of the products themselves. Each test makes a real change through the shop's own paths and
// compares the whole table with that count, and search's narrow copy of the products
// (`product_ranks`, migration 0019) with the products.

const band = `CASE ${PRICE_BANDS.slice(0, -1)
  .map((b, i) => `WHEN price < ${b.max} THEN ${i}`)
  .join(" ")} ELSE ${PRICE_BANDS.length - 1} END`;

async function kept(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT category_id, brand_id, band, in_stock, n FROM product_facet_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4",
  ).all();
  return results.map((r) => JSON.stringify(r));
}

async function counted(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT category_id, IFNULL(brand_id, 0) AS brand_id, ${band} AS band, stock > 0 AS in_stock, COUNT(*) AS n
     FROM products WHERE active = 1 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
  ).all();
  return results.map((r) => JSON.stringify(r));
}

/** The narrow copy search reads (migration 0019) against the products' own columns. */
const RANK_COLUMNS = "id, active, category_id, brand_id, price, stock, is_featured";
async function ranksOf(table: "product_ranks" | "products"): Promise<string[]> {
  const { results } = await env.DB.prepare(`SELECT ${RANK_COLUMNS} FROM ${table} ORDER BY id`).all();
  return results.map((r) => JSON.stringify(r));
}

async function expectKeptRight(what: string) {
  expect(await kept(), what).toEqual(await counted());
  expect(await ranksOf("product_ranks"), what).toEqual(await ranksOf("products"));
}

beforeAll(async () => {
  await seedCatalogue(env.DB);
});

describe("the kept facet counts", () => {
  it("match a count of the products after the seed", async () => {
    await expectKeptRight("after the seed");
    // The migration's bands are the list's.
    const { results } = await env.DB.prepare(
      `SELECT ${PRICE_BANDS.map((b) => `(${band.replaceAll("price", String(b.min))}) AS b${b.min}`).join(", ")}`,
    ).all<Record<string, number>>();
    expect(Object.values(results[0])).toEqual(PRICE_BANDS.map((_, i) => i));
  });

  it("follow the console's create, edits of price, brand and category, stock counts, hiding and showing", async () => {
    const manager = await newStaff("manager");
    const slug = `kept-${Date.now().toString(36)}`;
    const input = {
      slug,
      sku: slug.toUpperCase(),
      model: "K-1",
      name_en: "Kept lamp",
      name_ar: "مصباح",
      description_en: "",
      description_ar: "",
      specs_en: [],
      specs_ar: [],
      price: 14_900,
      compare_at_price: null,
      stock: 3,
      max_per_order: 3,
      low_stock_threshold: 1,
      category_id: 4,
      brand_id: 2,
      images: [],
      is_featured: false,
      is_new: false,
      active: true,
    };
    const created = await call(manager, "POST", "/admin/products", input);
    expect(created.status).toBe(201);
    await expectKeptRight("after a create");
    const id = created.body.data.id as number;
    for (const edit of [{ price: 420_000 }, { brand_id: null }, { category_id: 12 }]) {
      Object.assign(input, edit);
      const updated = await call(manager, "PUT", `/admin/products/${id}`, input);
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      await expectKeptRight(`after an edit of ${JSON.stringify(edit)}`);
    }
    // Stock goes through Inventory: counted down to none, then received.
    for (const adjustment of [
      { reason: "count", counted: 0 },
      { reason: "received", delta: 9 },
    ]) {
      const adjusted = await call(manager, "POST", "/admin/inventory/adjustments", { product_id: id, ...adjustment });
      expect(adjusted.status, JSON.stringify(adjusted.body)).toBe(201);
      await expectKeptRight(`after an adjustment ${JSON.stringify(adjustment)}`);
    }
    expect((await call(manager, "POST", `/admin/products/${id}/deactivate`)).status).toBe(200);
    await expectKeptRight("after hiding");
    expect((await call(manager, "POST", `/admin/products/${id}/reactivate`)).status).toBe(200);
    await expectKeptRight("after showing again");
  });

  it("follow checkout taking the last one and an inventory adjustment bringing it back", async () => {
    const product = await createProduct({ stock: 1, price: 70_000 });
    await expectKeptRight("after an insert");
    const placed = await checkoutWith(await newGuest(), product.id, 1);
    expect(placed.status).toBe(201);
    await expectKeptRight("after the last one was reserved");
    const manager = await newStaff("manager");
    const adjusted = await call(manager, "POST", "/admin/inventory/adjustments", {
      product_id: product.id,
      reason: "received",
      delta: 5,
    });
    expect(adjusted.status).toBe(201);
    await expectKeptRight("after stock was received");
  });

  it("answer the list's totals and facets as a count of the products would", async () => {
    const list = async (query: string) => {
      const res = await call(null, "GET", `/products?per_page=1&facets=1&${query}`);
      expect(res.status, query).toBe(200);
      return res.body.meta as { total: number; facets: { in_stock: number } };
    };
    const count = async (where: string) =>
      (await env.DB.prepare(`SELECT COUNT(*) AS n FROM products WHERE active = 1 AND ${where}`).first<number>("n"))!;
    expect((await list("")).total).toBe(await count("1"));
    expect((await list("category=phones&in_stock=1")).total).toBe(
      await count("category_id IN (1, 11, 12) AND stock > 0"),
    );
    expect((await list("brand=samsung&min_price=50000&max_price=149999")).total).toBe(
      await count("brand_id = 2 AND price >= 50000 AND price <= 149999"),
    );
    // Bounds that are not a band's are counted on the products.
    expect((await list("min_price=12345&max_price=99999")).total).toBe(
      await count("price >= 12345 AND price <= 99999"),
    );
  });
});

describe("a category with subcategories", () => {
  it("lists, read per subcategory and merged, in the order one sort of all its products gives, on later pages too", async () => {
    const orders: Record<string, string> = {
      relevance: "is_featured DESC, is_new DESC, id ASC",
      newest: "created_at DESC, id DESC",
      price_asc: "price ASC, id ASC",
      price_desc: "price DESC, id DESC",
      name: "name_en COLLATE NOCASE ASC, id ASC",
    };
    for (const [sort, order] of Object.entries(orders)) {
      for (const page of [1, 2, 3]) {
        const res = await call(
          null,
          "GET",
          `/products?category=phones&in_stock=1&sort=${sort}&per_page=5&page=${page}`,
        );
        expect(res.status).toBe(200);
        const { results } = await env.DB.prepare(
          `SELECT id FROM products WHERE active = 1 AND stock > 0 AND category_id IN (SELECT id FROM categories WHERE slug = 'phones' OR parent_id = (SELECT id FROM categories WHERE slug = 'phones'))
           ORDER BY ${order} LIMIT 5 OFFSET ?`,
        )
          .bind((page - 1) * 5)
          .all<{ id: number }>();
        expect(
          (res.body.data as { id: number }[]).map((p) => p.id),
          `${sort}, page ${page}`,
        ).toEqual(results.map((r) => r.id));
      }
    }
  });
});
