import { describe, expect, it } from "vitest";
import { assemblePage } from "../../worker/backend/services/catalogue/list-assembler";
import type { PageShape } from "../../worker/backend/services/catalogue/list-builder";
import type { ProductFilters } from "../../worker/backend/services/catalogue/list-filters";
import type { PageRow, PageRows } from "../../worker/backend/services/catalogue/list-runner";
import type { Taxonomy } from "../../worker/backend/services/catalogue/taxonomy";

// The list page's assembler (services/catalogue/list-assembler.ts) is pure: rows in, the
// contract's answer out. These cases hold what it makes of rows by hand, with no database.

// Phones (1) holds Android (2); audio (3) stands alone. One brand, acme (7).
const tax: Taxonomy = {
  parent: new Map([
    [1, null],
    [2, 1],
    [3, null],
  ]),
  slug: new Map([
    [1, "phones"],
    [2, "android"],
    [3, "audio"],
  ]),
  categoryId: new Map([
    ["phones", 1],
    ["android", 2],
    ["audio", 3],
  ]),
  brandId: new Map([["acme", 7]]),
  brandSlug: new Map([[7, "acme"]]),
  attributes: new Map(),
  categoryAttributes: new Map(),
};

const row = (over: Partial<PageRow>): PageRow => ({
  id: 1,
  slug: "p1",
  sku: "SKU-1",
  model: null,
  name: "Phone",
  category_id: 2,
  category_slug: "android",
  category_name: "Android",
  brand_id: 7,
  brand_slug: "acme",
  brand_name: "Acme",
  price: 99_900,
  compare_at_price: null,
  currency: "SAR",
  stock: 3,
  max_per_order: 5,
  images: "[]",
  is_featured: 0,
  is_new: 0,
  ...over,
});

const filters = (over: Partial<ProductFilters> = {}): ProductFilters => ({
  sort: "relevance",
  page: 1,
  per_page: 2,
  ...over,
});

const shape = (over: Partial<PageShape> = {}): PageShape => ({
  filters: filters(),
  searching: false,
  keptFirst: false,
  filtered: false,
  offset: 0,
  cellFilters: [],
  otherThanPrice: null,
  held: undefined,
  summed: null,
  lang: "en",
  attributeDefs: [],
  ...over,
});

const rows = (over: Partial<PageRows> = {}): PageRows => ({
  state: undefined,
  fromKept: {},
  asRead: {},
  cellsVersion: undefined,
  attributes: [],
  ...over,
});

describe("the list page's assembler", () => {
  it("makes a list's rows summaries: no images falls back to the product's art, no stock is not in stock, no brand is null", () => {
    const answer = assemblePage(
      shape({ summed: { total: 5, rows: [] } }),
      rows({
        asRead: {
          page: [
            row({ id: 1, slug: "bare", images: "[]", stock: 0 }),
            row({
              id: 2,
              slug: "shown",
              images: '["/a.jpg", "/b.jpg", 3]',
              stock: 4,
              brand_id: null,
              brand_slug: null,
            }),
          ],
        },
      }),
      undefined,
      tax,
    );
    expect(answer.kept).toBe("none");
    expect(answer.searchVersion).toBeUndefined();
    expect(answer.matches).toBeUndefined();
    expect(answer.listed.meta).toEqual({ page: 1, per_page: 2, total: 5, last_page: 3 });
    const [bare, shown] = answer.listed.data;
    expect(bare).toMatchObject({
      slug: "bare",
      image: "/backend/media/products/bare.svg",
      images: [],
      stock: 0,
      in_stock: false,
      brand: { id: 7, slug: "acme", name: "Acme" },
      category: { id: 2, slug: "android", name: "Android" },
      model: "",
    });
    expect(shown).toMatchObject({
      slug: "shown",
      image: "/a.jpg",
      images: ["/a.jpg", "/b.jpg"],
      in_stock: true,
      brand: null,
    });
  });

  it("takes a search ranked afresh's total from its rows, and a page past the last is empty but keeps it", () => {
    const state = { version: 9, kept: 8, any_kept: 1 };
    const searched = shape({ searching: true, keptFirst: true, filters: filters({ q: "phone", page: 3 }), offset: 4 });
    const answer = assemblePage(
      searched,
      rows({ state, asRead: { page: [row({ total_count: 4 })] }, fromKept: { page: [row({ slug: "old" })] } }),
      undefined,
      tax,
    );
    expect(answer.kept).toBe("stale");
    expect(answer.searchVersion).toBe(9);
    expect(answer.listed.data).toEqual([]);
    expect(answer.listed.meta).toMatchObject({ total: 4, last_page: 2 });
    // No filter: the page counted every match, so the keep knows how many.
    expect(answer.matches).toBe(4);
  });

  it("answers from a current kept copy when the batch read it, with the copy's own count", () => {
    const answer = assemblePage(
      shape({ searching: true, keptFirst: true, filtered: true, cellFilters: null, filters: filters({ q: "phone" }) }),
      rows({
        state: { version: 9, kept: 9, any_kept: 1 },
        fromKept: { page: [row({ slug: "kept" })], total: [{ n: 7 }] },
        asRead: { page: [] },
      }),
      undefined,
      tax,
    );
    expect(answer.kept).toBe("current");
    expect(answer.listed.data.map((p) => p.slug)).toEqual(["kept"]);
    expect(answer.listed.meta).toMatchObject({ total: 7, last_page: 4 });
    expect(answer.matches).toBeUndefined();
  });

  it("counts a category's facet with its subcategories', names brands by slug and bands by the price bands", () => {
    const answer = assemblePage(
      shape({ cellFilters: null, filters: filters({ facets: true }) }),
      rows({
        asRead: {
          page: [],
          total: [{ n: 6 }],
          facets: [
            { facet: "category", id: 2, n: 4 },
            { facet: "category", id: 3, n: 2 },
            { facet: "brand", id: 7, n: 5 },
            { facet: "price", id: 0, n: 1 },
            { facet: "price", id: 4, n: 5 },
            { facet: "stock", id: 0, n: 3 },
          ],
        },
      }),
      undefined,
      tax,
    );
    expect(answer.listed.meta.total).toBe(6);
    const facets = answer.listed.meta.facets!;
    expect(facets.categories).toEqual([
      { slug: "android", count: 4 },
      { slug: "phones", count: 4 },
      { slug: "audio", count: 2 },
    ]);
    expect(facets.brands).toEqual([{ slug: "acme", count: 5 }]);
    expect(facets.price_bands.map((b) => b.count)).toEqual([1, 0, 0, 0, 5]);
    expect(facets.price_bands[4]).toEqual({ min: 600_000, max: null, count: 5 });
    expect(facets.in_stock).toBe(3);
  });
});
