import { describe, expect, it } from "vitest";
import { pageWindow } from "../../app/components/Pagination";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { filterOptions, filterSelects, optionsHtml } from "../../app/components/ProductFilters";
import { escapeHtml } from "../../app/lib/html";
import { parsePlainText } from "../../app/components/PlainText";
import { clampQuantity } from "../../app/components/QuantityPicker";
import { isConstrainedNetwork } from "../../app/client/prefetch";
import { maxOrderable } from "../../app/lib/catalogue";
import { backendQuery, parseProductQuery, viewSearch } from "../../app/lib/product-query";
import { latinDigits } from "../../contract/digits";

describe("the product list's URL", () => {
  it("reads filters, sort and page, with prices in riyals sent to the backend in halalas", () => {
    const { query, ignored } = parseProductQuery(
      new URLSearchParams(
        "q=galaxy&category=phones&brand=samsung&min_price=1000&max_price=4999.5&in_stock=1&sort=price_asc&page=2",
      ),
    );
    expect(ignored).toEqual([]);
    expect(backendQuery(query)).toEqual({
      q: "galaxy",
      category: "phones",
      brand: "samsung",
      min_price: 100000,
      max_price: 499950,
      in_stock: 1,
      sort: "price_asc",
      page: 2,
      per_page: 12,
    });
  });

  it("accepts Arabic-Indic digits as shoppers type them", () => {
    expect(latinDigits("١٢٣٤٫٥")).toBe("1234.5");
    const { query } = parseProductQuery(new URLSearchParams("min_price=٥٠٠&page=٣"));
    expect(query.min_price).toBe(500);
    expect(query.page).toBe(3);
  });

  it("drops a value it does not understand and keeps the rest", () => {
    const { query, ignored } = parseProductQuery(
      new URLSearchParams("sort=cheapest&page=0&category=Phones!&brand=apple"),
    );
    expect(ignored.sort()).toEqual(["category", "page", "sort"]);
    expect(query).toEqual({ brand: "apple", in_stock: false, attributes: [], page: 1 });
  });

  it("swaps a price range typed backwards", () => {
    const { query } = parseProductQuery(new URLSearchParams("min_price=900&max_price=100"));
    expect([query.min_price, query.max_price]).toEqual([100, 900]);
  });

  it("writes short links: page 1 and empty filters are left out", () => {
    const { query } = parseProductQuery(new URLSearchParams("category=tvs&sort=newest&page=3"));
    expect(viewSearch(query, { page: 1 })).toBe("?category=tvs&sort=newest");
    expect(viewSearch(query, { page: 4 })).toBe("?category=tvs&sort=newest&page=4");
    expect(viewSearch({ in_stock: false, attributes: [], page: 1 })).toBe("");
  });

  it("reads attribute filters: repeated or joined values, ranges, Arabic-Indic digits; drops malformed ones", () => {
    const { query, ignored } = parseProductQuery(
      new URLSearchParams(
        "category=tvs&filter.panel=oled&filter.panel=qled&filter.screen_size.gte=٥٥&filter.screen_size.lte=65&filter.ram=8,16&filter.os=<b>&filter.Bad=1",
      ),
    );
    expect(query.attributes).toEqual([
      { code: "panel", values: ["oled", "qled"] },
      { code: "screen_size", values: [], gte: 55, lte: 65 },
      { code: "ram", values: ["8", "16"] },
    ]);
    expect(ignored.sort()).toEqual(["filter.Bad", "filter.os"]);
    // The backend takes them as the URL does, values joined; the view's link keeps one address.
    expect(backendQuery(query)).toMatchObject({
      "filter.panel": "oled,qled",
      "filter.screen_size.gte": "55",
      "filter.screen_size.lte": "65",
      "filter.ram": "8,16",
    });
    expect(viewSearch(query)).toBe(
      "?category=tvs&filter.panel=oled,qled&filter.screen_size.gte=55&filter.screen_size.lte=65&filter.ram=8,16",
    );
    expect(parseProductQuery(new URLSearchParams(viewSearch(query))).query.attributes).toEqual(query.attributes);
  });
});

describe("the list's filter options", () => {
  const tree = [
    { slug: "phones", name: "الهواتف", depth: 0 },
    { slug: "iphone", name: "آيفون", depth: 1 },
    { slug: "tvs", name: "التلفزيونات", depth: 0 },
  ];

  it("label each with its depth and count, and leave off what the facets count none of, unless chosen", () => {
    const counts = [
      { slug: "phones", count: 12 },
      { slug: "iphone", count: 4 },
    ];
    expect(filterOptions(tree, counts, undefined)).toEqual([
      { value: "phones", label: "الهواتف (12)" },
      { value: "iphone", label: "\u2014 آيفون (4)" },
      { value: "tvs", label: "التلفزيونات (0)", off: true },
    ]);
    // The chosen one stays selectable, so the select still shows what the list is filtered by.
    expect(filterOptions(tree, counts, "tvs")[2]).toEqual({ value: "tvs", label: "التلفزيونات (0)" });
  });

  it("without facets, list every option by name, none off", () => {
    expect(filterOptions([{ slug: "apple", name: "Apple" }], undefined, undefined)).toEqual([
      { value: "apple", label: "Apple" },
    ]);
  });
});

describe("the list's selects, as markup", () => {
  const options = [
    { value: "apple", label: "Apple (3)" },
    { value: "b&o", label: `Bang & Olufsen "B&O" <audio> it's (1)` },
    { value: "sony", label: "Sony (0)", off: true as const },
  ];
  // What React writes for the same select as elements: the markup the loader hands it must match,
  // or hydration and the page without JavaScript would differ from a render of the elements.
  const asReact = (chosen: string | undefined) =>
    renderToStaticMarkup(
      createElement(
        "select",
        { defaultValue: chosen ?? "" },
        createElement("option", { value: "" }, "All brands"),
        ...options.map((o) => createElement("option", { key: o.value, value: o.value, disabled: o.off }, o.label)),
      ),
    );

  it("is the markup React writes for the options as elements, the chosen one selected", () => {
    for (const chosen of [undefined, "apple", "b&o"]) {
      expect(`<select>${optionsHtml("All brands", options, chosen)}</select>`).toBe(asReact(chosen));
    }
  });

  it("escapes what could end an attribute or a tag", () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&`)).toBe(
      "&lt;img src=x onerror=&quot;a(&#x27;b&#x27;)&quot;&gt;&amp;",
    );
    const html = optionsHtml("All", [{ value: '"><script>', label: "</option><script>" }], undefined);
    expect(html).not.toContain("<script>");
    expect(html).toBe(
      '<option value="" selected="">All</option><option value="&quot;&gt;&lt;script&gt;">&lt;/option&gt;&lt;script&gt;</option>',
    );
  });

  it("counts each option by the facets, in the page's language", () => {
    const selects = filterSelects(
      "ar",
      { brand: "apple" },
      [{ slug: "phones", name: "الهواتف", depth: 0 }],
      [{ slug: "apple", name: "أبل" }],
      {
        categories: [{ slug: "phones", count: 2 }],
        brands: [{ slug: "apple", count: 2 }],
        price_bands: [],
        in_stock: 2,
      },
    );
    expect(selects.category).toMatch(
      /^<option value="" selected="">[^<]+<\/option><option value="phones">الهواتف \(2\)<\/option>$/,
    );
    expect(selects.brand).toMatch(
      /^<option value="">[^<]+<\/option><option value="apple" selected="">أبل \(2\)<\/option>$/,
    );
  });
});

describe("pagination", () => {
  it("shows the first, the last and the pages around the current one, with gaps", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 6)).toEqual([1, 2, null, 6]);
    expect(pageWindow(4, 9)).toEqual([1, null, 3, 4, 5, null, 9]);
    expect(pageWindow(3, 4)).toEqual([1, 2, 3, 4]);
  });
});

describe("quantity", () => {
  it("is bounded by the lower of stock and the per-order maximum", () => {
    expect(maxOrderable({ stock: 3, max_per_order: 5, in_stock: true })).toBe(3);
    expect(maxOrderable({ stock: 30, max_per_order: 5, in_stock: true })).toBe(5);
    expect(maxOrderable({ stock: 0, max_per_order: 5, in_stock: false })).toBe(0);
    expect(clampQuantity(999, 5)).toBe(5);
    expect(clampQuantity(0, 5)).toBe(1);
    expect(clampQuantity(2.7, 5)).toBe(2);
    expect(clampQuantity(3, 0)).toBe(0);
  });
});

describe("plain-text bodies", () => {
  it("become headings and paragraphs, never markup", () => {
    const blocks = parsePlainText(
      "Intro line one\nline two\n\n## What we believe\nBelief text.\n\n<script>alert(1)</script>",
    );
    expect(blocks).toEqual([
      { kind: "paragraph", lines: ["Intro line one", "line two"] },
      { kind: "heading", text: "What we believe" },
      { kind: "paragraph", lines: ["Belief text."] },
      { kind: "paragraph", lines: ["<script>alert(1)</script>"] },
    ]);
  });
});

describe("link prefetching", () => {
  it("stops on Save-Data and on 2g connections, and runs otherwise", () => {
    expect(isConstrainedNetwork({ saveData: true, effectiveType: "4g" })).toBe(true);
    expect(isConstrainedNetwork({ effectiveType: "2g" })).toBe(true);
    expect(isConstrainedNetwork({ effectiveType: "slow-2g" })).toBe(true);
    expect(isConstrainedNetwork({ effectiveType: "4g", saveData: false })).toBe(false);
    expect(isConstrainedNetwork(undefined)).toBe(false);
  });
});
