import type { ProductDetails, ProductSummary, Ref, Suggestion } from "../catalogue";
import type { Api, CallOptions } from "./client";

/**
 * The catalogue's reads: product lists, one product, the brands and the search box's suggestions.
 * Each takes the caller's client (`serverApi`/`browserApi`) and answers the backend's envelope;
 * failures are the client's `ApiError`.
 */

/** GET /products: a page of products for the backend query (filters, sort, page, per_page). */
export function listProducts(api: Api, query?: CallOptions["query"]) {
  return api.get<ProductSummary[]>("/products", { query });
}

/** GET /products/{slug}: one product with its gallery and specifications. */
export function getProduct(api: Api, slug: string) {
  return api.get<ProductDetails>(`/products/${encodeURIComponent(slug)}`);
}

/** GET /brands: every brand, for the product filters. */
export function listBrands(api: Api) {
  return api.get<Ref[]>("/brands");
}

/** GET /search/suggest: the search box's suggestions for what was typed. */
export function suggestProducts(api: Api, q: string, signal?: AbortSignal) {
  return api.get<Suggestion[]>("/search/suggest", { query: { q }, signal });
}
