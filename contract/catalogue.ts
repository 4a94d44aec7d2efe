// The catalogue as the backend answers it: products, categories, search suggestions, list paging.
// Part of the contract between the storefront and the backend (DESIGN §6, §10): both sides import
// it, and it imports neither (test/node/boundaries.test.ts).
import type { InstalmentRule } from "./instalments.ts";
import type { RatingSummary } from "./reviews.ts";

/**
 * Stock at or under this many shows "only N left" to shoppers (the storefront's StockBadge); the
 * backend marks answers carrying such a count (LOW_STOCK_HEADER, contract/edge.ts) so the page
 * cache keeps those pages only briefly.
 */
export const LOW_STOCK = 5;

export interface Ref {
  id: number;
  slug: string;
  name: string;
}

export interface ProductSummary {
  id: number;
  slug: string;
  sku: string;
  model: string;
  name: string;
  brand: Ref | null;
  category: Ref;
  price: number;
  compare_at_price: number | null;
  currency: string;
  stock: number;
  in_stock: boolean;
  max_per_order: number;
  image: string;
  images: string[];
  is_featured: boolean;
  is_new: boolean;
  /** How many variants a shopper chooses from (absent: one); a card of several links to the choice. */
  variant_count?: number;
  /**
   * In a search's results, the option values its words named (`{ storage: "256gb" }` for "iphone
   * 256"): the card opens the product page on that choice.
   */
  chosen?: Record<string, string>;
  /**
   * With `chosen`: what the variants of those values sell for, shown on the card in place of the
   * product's own price and stock: the cheapest in stock (of all, when none is), their stock
   * together, and whether their prices differ ("From").
   */
  chosen_offer?: { price: number; compare_at_price: number | null; stock: number; varies: boolean };
  /**
   * The product's published reviews (contract/reviews.ts), for the stars and count on its card and
   * page; null when it has none. Absent from a backend that keeps no reviews.
   */
  rating?: RatingSummary | null;
}

/** An option a product's variants differ by (colour, storage...), with its values in picker order. */
export interface ProductOption {
  /** The option's name in the product page's URL: `?colour=blue&storage=256gb`. */
  code: string;
  name: string;
  /** Swatches (colours) or buttons. */
  kind: "swatch" | "button";
  values: { code: string; name: string; swatch: string | null }[];
}

/** One variant: what is sold, with its own SKU, price, stock and images. */
export interface ProductVariant {
  id: number;
  sku: string;
  barcode: string | null;
  price: number;
  compare_at_price: number | null;
  stock: number;
  in_stock: boolean;
  max_per_order: number;
  /** The variant's own images; empty shows the product's. */
  images: string[];
  /** Option code → value code; empty for a product without options. */
  options: Record<string, string>;
  /** The chosen values in option order ("Desert Titanium · 512 GB"); empty without options. */
  title: string;
}

/**
 * A typed specification of a product (its category's attribute and the product's value), in the
 * answer's language: numbers with their unit, an enumeration's option, yes or no, or text. The
 * storefront formats numbers for the locale; `group` is the heading it sits under.
 */
/**
 * A typed specification. A number or an enumeration its variants give (a phone's storage) carries
 * each of their values in order (`values`, `options`); `value` and `option` are the first.
 */
export type ProductAttribute = { code: string; label: string; group: string } & (
  | { type: "number"; value: number; unit: string | null; values?: number[] }
  | { type: "enum"; value: string; option: string; options?: string[] }
  | { type: "bool"; value: boolean }
  | { type: "text"; value: string }
);

export interface ProductDetails extends ProductSummary {
  description: string;
  /** Free-form rows the shop wrote; a typed attribute of the same label supersedes its row. */
  specifications: { label: string; value: string }[];
  /** Typed specifications, in the category's table order (absent from a backend without them). */
  attributes?: ProductAttribute[];
  /** The page's own title and description for search engines, when the shop set them (else absent or null). */
  seo_title?: string | null;
  seo_description?: string | null;
  /** The shipping weight in grams, when known. */
  weight_grams?: number | null;
  /** The options the variants differ by, in picker order (empty or absent: a product of one variant). */
  options?: ProductOption[];
  /** Every variant a shopper can buy or see sold out, in the shop's order (absent: the product is its one variant). */
  variants?: ProductVariant[];
  related: ProductSummary[];
  breadcrumbs: { slug: string; name: string }[];
  /** The split of each pay-later method offered, for the line under the price (absent: none). */
  instalments?: InstalmentRule[];
}

export interface CategoryNode extends Ref {
  parent_id: number | null;
  product_count: number;
  children: CategoryNode[];
}

export interface Suggestion {
  slug: string;
  name: string;
  model: string;
  image: string;
  price: number;
  currency: string;
}

export interface ListMeta {
  page: number;
  per_page: number;
  total: number;
  last_page: number;
  /** Set when the search found nothing as typed and these corrected words were searched instead. */
  searched_for?: string;
  /** With `facets=1`: how many products each refinement would show, the other filters applied. */
  facets?: ProductFacets;
}

/**
 * Facet counts of a product list. Each facet counts with every filter but its own, so
 * a count is what choosing that value would show: a category counts its subcategories' products.
 */
export interface ProductFacets {
  categories: { slug: string; count: number }[];
  brands: { slug: string; count: number }[];
  /** Price bands in halalas; `max` null for the open top band. */
  price_bands: { min: number; max: number | null; count: number }[];
  /** Products in stock. */
  in_stock: number;
  /**
   * The chosen category's filterable attributes (numbers, enumerations, yes/no), in its
   * specification table's order: each value its products hold, counted with every other filter
   * applied. Absent without a category, or from a backend without typed specifications.
   */
  attributes?: AttributeFacet[];
}

/**
 * One attribute's facet. `value` is what the filter parameter takes (ATTRIBUTE_FILTER_PREFIX):
 * an enumeration's option code, a number as written ("6.1"), or "1" / "0" for yes and no; `label`
 * is an option's name in the answer's language (the storefront formats numbers and yes/no itself).
 */
export interface AttributeFacet {
  code: string;
  type: "number" | "enum" | "bool";
  label: string;
  unit: string | null;
  values: { value: string; label?: string; count: number }[];
}

/**
 * The product list filters by attribute with parameters named after the attribute's code:
 * `filter.ram=16,32` (any of these values; a repeated parameter means the same), and for numbers
 * `filter.screen_size.gte=55` and `filter.screen_size.lte=65` (a range, both ends included).
 */
export const ATTRIBUTE_FILTER_PREFIX = "filter.";
/** At most this many attributes filtered at once, and values of one attribute. */
export const MAX_ATTRIBUTE_FILTERS = 12;
export const MAX_ATTRIBUTE_VALUES = 20;

/** A list's filter on one attribute: any of `values`, and for numbers within `gte`..`lte`. */
export interface AttributeFilter {
  code: string;
  values: string[];
  gte?: number;
  lte?: number;
}

const FILTER_KEY = /^filter\.([a-z][a-z0-9_]{0,39})(\.gte|\.lte)?$/;
const FILTER_VALUE = /^[a-z0-9][a-z0-9.-]{0,39}$/;
const FILTER_BOUND = /^\d{1,7}(\.\d{1,3})?$/;

/**
 * The attribute filters among a list's parameters (the storefront's URL and the backend's query
 * alike), merged by code in the order first named. `bad` names each `filter.` parameter that is
 * not one (an unknown shape, a value that is no code or number, too many): the backend refuses
 * them, the storefront drops them. Other parameters are not looked at.
 */
export function readAttributeFilters(params: Iterable<[string, string]>): {
  filters: AttributeFilter[];
  bad: string[];
} {
  const byCode = new Map<string, AttributeFilter>();
  const bad: string[] = [];
  for (const [key, raw] of params) {
    if (!key.startsWith(ATTRIBUTE_FILTER_PREFIX)) continue;
    const m = FILTER_KEY.exec(key);
    const value = raw.trim();
    if (!m) {
      bad.push(key);
      continue;
    }
    if (value === "") continue;
    const [, code, bound] = m;
    let filter = byCode.get(code);
    if (!filter) {
      if (byCode.size >= MAX_ATTRIBUTE_FILTERS) {
        bad.push(key);
        continue;
      }
      byCode.set(code, (filter = { code, values: [] }));
    }
    if (bound) {
      if (!FILTER_BOUND.test(value)) bad.push(key);
      else filter[bound === ".gte" ? "gte" : "lte"] = Number(value);
      continue;
    }
    const tokens = value.split(",").map((t) => t.trim());
    if (!tokens.every((t) => FILTER_VALUE.test(t)) || filter.values.length + tokens.length > MAX_ATTRIBUTE_VALUES) {
      bad.push(key);
      continue;
    }
    for (const t of tokens) if (!filter.values.includes(t)) filter.values.push(t);
  }
  const filters = [...byCode.values()].filter((f) => f.values.length > 0 || f.gte !== undefined || f.lte !== undefined);
  return { filters, bad: [...new Set(bad)] };
}

/** The filters as parameters, values joined by commas (the backend's query; a short URL). */
export function attributeFilterParams(filters: readonly AttributeFilter[]): [string, string][] {
  const params: [string, string][] = [];
  for (const f of filters) {
    const key = `${ATTRIBUTE_FILTER_PREFIX}${f.code}`;
    if (f.values.length) params.push([key, f.values.join(",")]);
    if (f.gte !== undefined) params.push([`${key}.gte`, String(f.gte)]);
    if (f.lte !== undefined) params.push([`${key}.lte`, String(f.lte)]);
  }
  return params;
}

/**
 * `GET /backend/catalogue/slugs?page=&per_page=`: the slugs of every product shoppers can see, in
 * a stable order (oldest first), as `{ data: ["slug", ...], meta: ListMeta }`, at most
 * MAX_SLUGS_PER_PAGE a page. One cheap read for the sitemap (app/routes/sitemap[.]xml.ts), which
 * would otherwise page through the whole product list; the answer carries the catalogue version it
 * was read under (CATALOGUE_VERSION_HEADER, contract/freshness.ts). A backend without it answers
 * 404, and the sitemap then lists no products.
 */
export const CATALOGUE_SLUGS_PATH = "/catalogue/slugs";
/** A sitemap file holds at most 50,000 URLs; each product is two of them (English and Arabic). */
export const MAX_SLUGS_PER_PAGE = 25_000;
