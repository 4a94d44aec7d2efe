// The catalogue as the backend answers it: products, categories, search suggestions, list paging.
// Part of the contract between the storefront and the backend (DESIGN §6, §10): both sides import
// it, and it imports neither (test/node/boundaries.test.ts).

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
}

/**
 * A typed specification of a product (its category's attribute and the product's value), in the
 * answer's language: numbers with their unit, an enumeration's option, yes or no, or text. The
 * storefront formats numbers for the locale; `group` is the heading it sits under.
 */
export type ProductAttribute = { code: string; label: string; group: string } & (
  | { type: "number"; value: number; unit: string | null }
  | { type: "enum"; value: string; option: string }
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
  related: ProductSummary[];
  breadcrumbs: { slug: string; name: string }[];
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
