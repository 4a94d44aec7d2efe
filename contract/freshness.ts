/**
 * Catalogue freshness, as the backend tells the edge (worker/page-cache.ts). Part of the contract
 * between the storefront and the backend (DESIGN §10): both sides import it, it imports nothing.
 * - `GET /backend/catalogue/version` answers `{ data: { version } }`, the catalogue version, a
 *   number every change a shopper could see bumps (console edits, seeds, a product going out of
 *   stock or back in); a backend that lacks it gets the page cache's short, fixed lifetime.
 * - Every cached catalogue answer carries the version it was built under (CATALOGUE_VERSION_HEADER)
 *   and, when it shows a product's exact stock count to shoppers ("only 3 left", stock from 1 to
 *   LOW_STOCK, contract/catalogue.ts), LOW_STOCK_HEADER: 1.
 */
export const CATALOGUE_VERSION_PATH = "/catalogue/version";
export const CATALOGUE_VERSION_HEADER = "x-catalogue-version";
export const LOW_STOCK_HEADER = "x-low-stock";
