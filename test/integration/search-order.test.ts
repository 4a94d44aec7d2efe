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
  WORDS,
  type Filters,
} from "../support/search-reference";

/**
 * The search's page, total and order against the straightforward statement it replaced (issue
 * 23, docs/PERFORMANCE.md "Search at scale"): every match ranked, merged and sorted, filtered
 * after. The shop's statement filters before ranking and cuts the page from the gathered matches
 * instead; on a catalogue with many matches per word, ties of stock and featuring, hidden and
 * out-of-stock products, both must list the same products in the same order with the same total.
 */

beforeAll(seedSearchCatalogue);

describe("search order at scale", () => {
  it("every sort, filter and page lists what the straightforward statement lists, in its order, with its total", async () => {
    let compared = 0;
    for (const [q, lang] of WORDS)
      for (const f of FILTERS)
        for (const sort of Object.keys(ORDER)) {
          const all = await reference(q, lang, sort, f);
          for (const [n, perPage] of [
            [1, 12],
            [3, 12],
            [2, 48],
          ]) {
            const got = await page(q, lang, sort, f, n, perPage);
            const label = `${q} ${sort} ${JSON.stringify(f)} page ${n}/${perPage}`;
            expect(got.total, label).toBe(all.length);
            expect(got.slugs, label).toEqual(all.slice((n - 1) * perPage, n * perPage));
            compared++;
          }
        }
    // The catalogue has to make the comparison worth something: many matches, several pages.
    expect(compared).toBe(WORDS.length * FILTERS.length * Object.keys(ORDER).length * 3);
    expect((await reference("samsung", "en", "relevance", {})).length).toBeGreaterThan(150);
  }, 120_000);

  it("a page past the last is empty and still carries the total, in every sort, filtered or not", async () => {
    // The page statement cuts a page past the last at the last match, so a row carries the total.
    let compared = 0;
    for (const [q, lang] of [WORDS[0], ["qx9z7", "en"] as const])
      for (const f of [{}, { in_stock: true }, FILTERS.find((x) => x.brand) ?? { brand: "samsung" }] as Filters[])
        for (const sort of Object.keys(ORDER)) {
          const all = await reference(q, lang, sort, f);
          const last = Math.max(1, Math.ceil(all.length / 12));
          for (const n of [last, last + 1, last + 7]) {
            const label = `${q} ${sort} ${JSON.stringify(f)} page ${n}`;
            expect(await page(q, lang, sort, f, n, 12), label).toEqual({
              slugs: all.slice((n - 1) * 12, n * 12),
              total: all.length,
            });
            compared++;
          }
        }
    expect(compared).toBe(2 * 3 * Object.keys(ORDER).length * 3);
    expect((await reference(WORDS[0][0], WORDS[0][1], "relevance", {})).length).toBeGreaterThan(12);
  });
});

describe("search facets at scale", () => {
  it("count what a count of the matches counts, each facet leaving its own filter out", async () => {
    // A band's own bounds (the cells' path), bounds that are no band's (a count of the products), none.
    const filters: Filters[] = [
      ...FILTERS,
      { min_price: PRICE_BANDS[1].min, max_price: PRICE_BANDS[1].max! - 1 },
      { brand: "samsung", in_stock: true, min_price: PRICE_BANDS[2].min },
      { category: "phones", min_price: 120_000, max_price: 450_000 },
    ];
    let nonEmpty = 0;
    for (const [q, lang] of WORDS)
      for (const f of filters) {
        const want = await referenceFacets(q, f);
        expectSameFacets(await facetsOf(q, lang, f), want, `${q} ${JSON.stringify(f)}`);
        if (want.price_bands.reduce((sum, band) => sum + band.count, 0) >= 10) nonEmpty++;
      }
    // Most combinations must count some products, or the comparison proves little.
    expect(nonEmpty).toBeGreaterThan((WORDS.length * filters.length) / 2);
  }, 120_000);
});

describe("the narrow copy search reads (product_ranks, migration 0019)", () => {
  const columns = "id, active, category_id, brand_id, price, stock, is_featured";
  const same = async (what: string) => {
    const [ranks, products] = await env.DB.batch([
      env.DB.prepare(`SELECT ${columns} FROM product_ranks ORDER BY id`),
      env.DB.prepare(`SELECT ${columns} FROM products ORDER BY id`),
    ]);
    expect(ranks.results, what).toEqual(products.results);
  };

  it("follows every kind of write to products, including replace, a new id and delete", async () => {
    await same("after the seeds");
    const insert = (id: number, verb = "INSERT") =>
      env.DB.prepare(
        `${verb} INTO products (id, slug, sku, category_id, brand_id, name_en, name_ar, price, stock, is_featured, active)
         VALUES (?, ?, ?, 4, 2, 'Ranked', 'مرتب', 12300, 4, 1, 1)`,
      )
        .bind(id, `ranked-${id}`, `RANKED-${id}`)
        .run();
    await insert(900_001);
    await same("after an insert");
    await insert(900_001, "INSERT OR REPLACE");
    await same("after an insert or replace");
    for (const set of [
      "price = 99900",
      "stock = 0",
      "is_featured = 0",
      "brand_id = NULL",
      "category_id = 12",
      "active = 0",
      "active = 1",
      "description_en = 'only words'",
      "id = 900002",
    ]) {
      await env.DB.prepare(`UPDATE products SET ${set} WHERE id IN (900001, 900002)`).run();
      await same(`after ${set}`);
    }
    await env.DB.prepare("DELETE FROM products WHERE id = 900002").run();
    await same("after a delete");
  });
});
