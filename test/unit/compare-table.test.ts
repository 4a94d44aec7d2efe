import { beforeAll, describe, expect, it } from "vitest";
import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import type { ProductAttribute, ProductDetails } from "../../contract/catalogue";
import { registerMessages } from "../../app/lib/i18n";
import { comparedSlugs, compareGroups, differencesOnly, NO_VALUE } from "../../app/lib/compare-table";

beforeAll(() => {
  registerMessages("en", en);
  registerMessages("ar", ar);
});

/** A laptop as the backend answers it, with typed values and a free-form row. */
function laptop(slug: string, over: Partial<ProductDetails>, attributes: ProductAttribute[]): ProductDetails {
  return {
    id: 1,
    slug,
    sku: slug.toUpperCase(),
    model: `M-${slug}`,
    name: slug,
    brand: { slug: "acme", name: "Acme" },
    category: { slug: "macbooks", name: "MacBook" },
    price: 499_900,
    compare_at_price: null,
    currency: "SAR",
    stock: 20,
    max_per_order: 5,
    in_stock: true,
    image: `/img/${slug}.svg`,
    images: [],
    is_featured: false,
    is_new: false,
    description: "",
    specifications: [{ label: "Warranty", value: "2 years" }],
    attributes,
    related: [],
    breadcrumbs: [{ slug: "laptops", name: "Laptops" }],
    ...over,
  } as ProductDetails;
}
const ram = (value: number): ProductAttribute => ({
  code: "ram",
  label: "Memory",
  group: "Memory and storage",
  type: "number",
  value,
  unit: "GB",
});
const screen = (value: number): ProductAttribute => ({
  code: "screen_size",
  label: "Screen size",
  group: "Display",
  type: "number",
  value,
  unit: "inch",
});

describe("the comparison table", () => {
  const products = [
    laptop("a", {}, [screen(13.6), ram(8)]),
    laptop("b", { price: 649_900, stock: 2 }, [screen(13.6), ram(16)]),
    laptop("c", { brand: null, in_stock: false, stock: 0 }, [ram(16)]),
  ];

  it("aligns every product's rows by heading and label, a missing value a dash, and marks the rows that differ", () => {
    const groups = compareGroups(products, "en");
    expect(groups.map((g) => g.heading)).toEqual(["Overview", "Display", "Memory and storage", "More details"]);
    const row = (heading: string, label: string) =>
      groups.find((g) => g.heading === heading)!.rows.find((r) => r.label === label)!;
    expect(row("Display", "Screen size")).toEqual({
      label: "Screen size",
      values: ["13.6\u00a0inch", "13.6\u00a0inch", NO_VALUE],
      differs: true,
    });
    expect(row("Memory and storage", "Memory")).toMatchObject({
      values: ["8\u00a0GB", "16\u00a0GB", "16\u00a0GB"],
      differs: true,
    });
    expect(row("More details", "Warranty")).toMatchObject({ differs: false });
    expect(row("Overview", "Brand").values).toEqual(["Acme", "Acme", NO_VALUE]);
    expect(row("Overview", "Availability").values).toEqual(["In stock", "Only 2 left", "Out of stock"]);
    expect(row("Overview", "Price").values[1]).toMatch(/6,499/);
  });

  it("in Arabic, with the locale's numbers and words", () => {
    const groups = compareGroups(products, "ar");
    expect(groups[0].heading).toBe("نظرة عامة");
    const memory = groups.find((g) => g.heading === "Memory and storage")!.rows[0];
    expect(memory.values[0]).toBe("8\u00a0GB");
  });

  it("differences only keeps the rows that differ and drops a group left empty", () => {
    const only = differencesOnly(compareGroups(products, "en"));
    expect(only.flatMap((g) => g.rows).every((r) => r.differs)).toBe(true);
    expect(only.map((g) => g.heading)).not.toContain("More details");
  });

  it("one product differs from nothing", () => {
    expect(differencesOnly(compareGroups(products.slice(0, 1), "en"))).toEqual([]);
  });

  it("reads at most four valid slugs from the URL, each once, and says when it dropped some", () => {
    expect(comparedSlugs("a,b,,A,<x>,c", 4)).toEqual({ slugs: ["a", "b", "c"], dropped: false });
    expect(comparedSlugs("a,b,c,d,e", 4)).toEqual({ slugs: ["a", "b", "c", "d"], dropped: true });
    expect(comparedSlugs(null, 4)).toEqual({ slugs: [], dropped: false });
  });
});
