import { describe, expect, it } from "vitest";
import type { ProductOption, ProductVariant } from "../../contract/catalogue";
import { chooseVariant, pickersFor, variantQuery } from "../../app/lib/variants";
import { unlessOnlyQueryChanged } from "../../app/lib/revalidation";
import { productStructuredData } from "../../app/lib/product-structured-data";

/** The choice of a variant from the URL, the pickers around it, and the page's structured data. */

const options: ProductOption[] = [
  {
    code: "colour",
    name: "Colour",
    kind: "swatch",
    values: [
      { code: "blue", name: "Blue", swatch: "#1f3a5f" },
      { code: "black", name: "Black", swatch: "#111111" },
    ],
  },
  {
    code: "storage",
    name: "Storage",
    kind: "button",
    values: [
      { code: "256gb", name: "256 GB", swatch: null },
      { code: "512gb", name: "512 GB", swatch: null },
      { code: "1tb", name: "1 TB", swatch: null },
    ],
  },
];

const variant = (id: number, colour: string, storage: string, stock: number, price = 399900): ProductVariant => ({
  id,
  sku: `P-${colour}-${storage}`.toUpperCase(),
  barcode: id === 1 ? "4006381333931" : null,
  price,
  compare_at_price: null,
  stock,
  in_stock: stock > 0,
  max_per_order: 5,
  images: id === 2 ? ["/img/blue-512.svg"] : [],
  options: { colour, storage },
  title: `${colour} · ${storage}`,
});

// Blue comes in 256 and 512 (512 sold out); black in 256, 512 and 1 TB.
const variants = [
  variant(1, "blue", "256gb", 5),
  variant(2, "blue", "512gb", 0, 479900),
  variant(3, "black", "256gb", 3),
  variant(4, "black", "512gb", 2, 479900),
  variant(5, "black", "1tb", 1, 569900),
];

const params = (query: string) => new URLSearchParams(query);

describe("choosing a variant from the URL", () => {
  it("takes the variant every named value picks, sold out or not", () => {
    expect(chooseVariant(options, variants, params("colour=black&storage=512gb"))?.id).toBe(4);
    expect(chooseVariant(options, variants, params("colour=blue&storage=512gb"))?.id).toBe(2);
  });

  it("without a choice, or with part of one, the first in stock that agrees with most of it", () => {
    expect(chooseVariant(options, variants, params(""))?.id).toBe(1);
    expect(chooseVariant(options, variants, params("storage=1tb"))?.id).toBe(5);
    expect(chooseVariant(options, variants, params("colour=black"))?.id).toBe(3);
  });

  it("a combination that does not exist, or an unknown value, falls back to the closest", () => {
    // Blue 1 TB is not made: blue agrees with two variants, the first in stock wins.
    expect(chooseVariant(options, variants, params("colour=blue&storage=1tb"))?.id).toBe(1);
    expect(chooseVariant(options, variants, params("colour=purple&storage=512gb"))?.id).toBe(4);
  });

  it("writes the choice back as the page's query", () => {
    expect(variantQuery({ colour: "black", storage: "1tb" })).toBe("?colour=black&storage=1tb");
    expect(variantQuery({})).toBe("");
  });

  it("a change of the query alone keeps the loaders' data; another path, the same URL or a form loads", () => {
    // Another variant is only another query: the loaders keep their data; any other move loads.
    const move = (from: string, to: string, formMethod?: "POST") =>
      unlessOnlyQueryChanged({
        currentUrl: new URL(`https://shop.test${from}`),
        nextUrl: new URL(`https://shop.test${to}`),
        formMethod,
        defaultShouldRevalidate: true,
      } as Parameters<typeof unlessOnlyQueryChanged>[0]);
    expect(move("/en/product-details/p?colour=blue", "/en/product-details/p?colour=black&storage=1tb")).toBe(false);
    expect(move("/en/product-details/p?colour=blue", "/en/product-details/q?colour=blue")).toBe(true);
    expect(move("/en/product-details/p", "/en/product-details/p")).toBe(true);
    expect(move("/en/product-details/p?colour=blue", "/en/product-details/p?colour=red", "POST")).toBe(true);
  });
});

describe("the pickers", () => {
  it("mark the chosen values, a sold-out combination and one not made, each linking to a variant", () => {
    const pickers = pickersFor(options, variants, variants[0]);
    expect(pickers.map((p) => [p.code, p.chosen])).toEqual([
      ["colour", "Blue"],
      ["storage", "256 GB"],
    ]);
    const storage = pickers[1].values.map((v) => [v.code, v.selected, v.soldOut, v.unavailable, v.target.id]);
    expect(storage).toEqual([
      ["256gb", true, false, false, 1],
      // Blue 512 GB exists but is sold out: shown, and it leads to that variant.
      ["512gb", false, true, false, 2],
      // Blue 1 TB is not made: shown as such, and leads to the closest variant that has 1 TB.
      ["1tb", false, false, true, 5],
    ]);
    const colour = pickersFor(options, variants, variants[4])[0].values;
    // From black 1 TB, blue has no 1 TB: it leads to a blue variant, in stock first.
    expect(colour.map((v) => [v.code, v.unavailable, v.target.id])).toEqual([
      ["blue", true, 1],
      ["black", false, 5],
    ]);
  });
});

describe("structured data", () => {
  const product = {
    name: "Test phone",
    sku: "P",
    model: "T-1",
    currency: "SAR",
    price: 399900,
    in_stock: true,
    brand: { id: 1, slug: "acme", name: "Acme" },
    category: { id: 2, slug: "phones", name: "Phones" },
    description: "A phone.",
    specifications: [{ rows: [{ label: "Screen", value: "6.1 inch" }] }],
  };
  const at = {
    url: "https://shop.test/en/product-details/p",
    images: ["https://shop.test/img/p.svg"],
    abs: (src: string) => `https://shop.test${src}`,
    description: "A phone.",
  };

  it("a product of several variants is a ProductGroup of its variants, varying by colour and storage", () => {
    const data = productStructuredData({ ...product, options, variants }, at);
    expect(data).toMatchObject({
      "@type": "ProductGroup",
      productGroupID: "P",
      url: at.url,
      variesBy: ["https://schema.org/color", "Storage"],
    });
    const hasVariant = data.hasVariant as Record<string, unknown>[];
    expect(hasVariant).toHaveLength(5);
    expect(hasVariant[0]).toEqual({
      "@type": "Product",
      sku: "P-BLUE-256GB",
      gtin: "4006381333931",
      name: "Test phone (blue · 256gb)",
      image: at.images,
      url: `${at.url}?colour=blue&storage=256gb`,
      color: "Blue",
      additionalProperty: [{ "@type": "PropertyValue", name: "Storage", value: "256 GB" }],
      offers: {
        "@type": "Offer",
        url: `${at.url}?colour=blue&storage=256gb`,
        price: "3999.00",
        priceCurrency: "SAR",
        availability: "https://schema.org/InStock",
        itemCondition: "https://schema.org/NewCondition",
      },
    });
    expect(hasVariant[1]).toMatchObject({
      image: ["https://shop.test/img/blue-512.svg"],
      offers: { price: "4799.00", availability: "https://schema.org/OutOfStock" },
    });
    // The canonical page is the product's: the group's URL carries no choice.
    expect(data.url).toBe(at.url);
  });

  it("a TV's screen size is schema.org's size, set on each variant", () => {
    const sizes: ProductOption[] = [
      {
        code: "screen_size",
        name: "Screen size",
        kind: "button",
        values: [
          { code: "55", name: "55 inch", swatch: null },
          { code: "65", name: "65 inch", swatch: null },
        ],
      },
    ];
    const tvs = ["55", "65"].map((size, i) => ({
      ...variant(i + 1, "x", size, 2),
      options: { screen_size: size },
      title: `${size} inch`,
    }));
    const data = productStructuredData({ ...product, options: sizes, variants: tvs }, at) as {
      variesBy: string[];
      hasVariant: Record<string, unknown>[];
    };
    expect(data.variesBy).toEqual(["https://schema.org/size"]);
    expect(data.hasVariant.map((v) => v.size)).toEqual(["55 inch", "65 inch"]);
    expect(data.hasVariant[1].url).toBe(`${at.url}?screen_size=65`);
  });

  it("a product of one variant stays a Product with its offer", () => {
    const data = productStructuredData({ ...product, options: [], variants: [variants[0]] }, at);
    expect(data).toMatchObject({ "@type": "Product", sku: "P", offers: { "@type": "Offer", price: "3999.00" } });
    expect(data).not.toHaveProperty("hasVariant");
  });
});

describe("the console's variants editor", () => {
  it("makes codes from English names, keeps saved codes, and sends prices as typed", async () => {
    const { codeOf } = await import("../../contract/console-catalogue");
    const { variantsRequest } = await import("../../app/components/console/ProductVariantsForm");
    expect(codeOf("Screen Size", "_")).toBe("screen_size");
    expect(codeOf("Desert Titanium!", "-")).toBe("desert-titanium");
    expect(codeOf("أزرق", "-")).toBe("");
    const option = {
      key: "o1",
      code: "",
      name_en: "Colour",
      name_ar: "اللون",
      kind: "swatch" as const,
      values: [
        { key: "a", code: "", value_en: "Sky Blue", value_ar: "أزرق سماوي", swatch: "#87ceeb" },
        // A saved value keeps its code (its links) when renamed.
        { key: "b", code: "black", value_en: "Jet Black", value_ar: "أسود", swatch: "" },
      ],
    };
    const row = (key: string, value: string, id?: number, pictures: { images?: string[]; picture?: string } = {}) => ({
      key,
      id,
      choice: { o1: value },
      sku: `P-${key}`,
      barcode: "",
      price: "١٢٩٫٥٠",
      compare_at_price: "",
      stock: "",
      max_per_order: "",
      active: true,
      ordered: false,
      images: pictures.images ?? [],
      picture: pictures.picture ?? "",
    });
    const own = ["/backend/media/uploads/a.webp", "/backend/media/uploads/b.webp"];
    const request = variantsRequest(
      [option],
      [
        row("r1", "a", undefined, { picture: "/backend/media/uploads/blue.webp" }),
        row("r2", "b", 7, { images: own, picture: "own" }),
        row("r3", "b", 8, { images: own }),
      ],
    );
    expect(request.options).toEqual([
      {
        code: "colour",
        name_en: "Colour",
        name_ar: "اللون",
        kind: "swatch",
        values: [
          { code: "sky-blue", value_en: "Sky Blue", value_ar: "أزرق سماوي", swatch: "#87ceeb" },
          { code: "black", value_en: "Jet Black", value_ar: "أسود", swatch: null },
        ],
      },
    ]);
    // A new row carries its opening stock (0 when empty); a saved one (with its id) none.
    expect(request.variants[0]).toMatchObject({
      sku: "P-r1",
      price: "١٢٩٫٥٠",
      stock: "0",
      options: { colour: "sky-blue" },
    });
    expect(request.variants[1]).toMatchObject({ id: 7, options: { colour: "black" } });
    expect(request.variants[1]).not.toHaveProperty("stock");
    // Pictures: one of the product's chosen, its own kept as saved, or the product's (none of its own).
    expect(request.variants.map((v) => v.images)).toEqual([["/backend/media/uploads/blue.webp"], own, []]);
  });
});
