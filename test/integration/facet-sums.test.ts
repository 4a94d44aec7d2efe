import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type Cell,
  CELL_COLUMNS,
  type CellFilter,
  type SumRow,
  sumCells,
  sumsOfRows,
  sumsSql,
} from "../../worker/backend/services/catalogue/facet-cells";
import { seedSearchCatalogue } from "../support/search-reference";

/**
 * A search's total and facets are summed in D1 (`sumsSql`), a list's in the Worker from the cells
 * it holds (`sumCells`). Both must give the same sums for the same cells and filters: here over
 * the kept counts' cells of a catalogue with products of no brand, hidden ones and every band.
 */

const CELLS = `SELECT ${CELL_COLUMNS} FROM product_facet_counts WHERE n > 0`;
let cells: Cell[] = [];

beforeAll(async () => {
  await seedSearchCatalogue();
  // Some products of no brand (brand 0 in the cells), which the brand facet leaves out.
  await env.DB.prepare("UPDATE products SET brand_id = NULL WHERE id % 23 = 0").run();
  cells = (await env.DB.prepare(CELLS).all<Cell>()).results;
});

/** The filters as productPage writes them, over the ids found in the cells. */
function filtersOf(cells: Cell[]): Record<string, CellFilter[]> {
  const category = [...new Set(cells.map((c) => c.category_id))].slice(0, 3);
  const brand = cells.find((c) => c.brand_id !== 0)!.brand_id;
  const byCategory: CellFilter = {
    facet: "category",
    holds: (c) => category.includes(c.category_id),
    where: `category_id IN (${category.join(", ")})`,
    key: category.join(","),
  };
  const byBrand: CellFilter = {
    facet: "brand",
    holds: (c) => c.brand_id === brand,
    where: `brand_id = ${brand}`,
    key: String(brand),
  };
  const noBrand: CellFilter = { facet: "brand", holds: () => false, where: "0", key: "none" };
  const band = (from: number, to: number): CellFilter => ({
    facet: "price",
    holds: (c) => c.band >= from && c.band <= to,
    where: `band BETWEEN ${from} AND ${to}`,
    key: `${from}-${to}`,
  });
  const inStock: CellFilter = {
    facet: "stock",
    holds: (c) => c.in_stock === 1,
    where: "in_stock = 1",
    key: "in stock",
  };
  return {
    none: [],
    category: [byCategory],
    "category and brand": [byCategory, byBrand],
    "an unknown brand": [noBrand],
    "a band": [band(1, 1)],
    "two bounds of one facet": [band(1, 3), band(0, 2)],
    "every facet": [byCategory, byBrand, band(1, 2), inStock],
    "in stock": [inStock],
  };
}

describe("facet sums in D1", () => {
  it("are the sums the Worker makes of the same cells, for every kind of filter", async () => {
    expect(cells.some((c) => c.brand_id === 0)).toBe(true);
    for (const [label, filters] of Object.entries(filtersOf(cells))) {
      const { results } = await env.DB.prepare(sumsSql(CELLS, filters)).all<SumRow>();
      const got = sumsOfRows(results);
      expect(got, label).toEqual(sumCells(cells, filters));
      if (label === "none") expect(got.rows.some((r) => r.facet === "brand" && r.id === 0)).toBe(false);
    }
  });
});
