/**
 * Catalogue freshness, as the backend tells the edge (worker/page-cache.ts). Part of the contract
 * between the storefront and the backend (DESIGN §10): both sides import it, it imports nothing.
 * - `GET /backend/catalogue/version` answers `{ data: { version } }`, the catalogue version, a
 *   number every change a shopper could see bumps (console edits, seeds, a product going out of
 *   stock or back in); a backend that lacks it gets the page cache's short, fixed lifetime.
 * - Every cached catalogue answer carries the version it was built under (CATALOGUE_VERSION_HEADER)
 *   and, when it shows products' exact stock counts to shoppers ("only 3 left", stock from 1 to
 *   LOW_STOCK, contract/catalogue.ts), LOW_STOCK_HEADER with those products as `id:stock` pairs
 *   joined by commas (`12:3,40:1`); a variant's count (the product page shows the chosen one's) is
 *   written with a `v` before its id (`v80:2`).
 * - `GET /backend/catalogue/stock?ids=12,v80` answers `{ data: { "12": 3, "v80": 2 } }`, the stock
 *   of those products and variants now (at most MAX_STOCK_IDS; one that is gone or hidden is left
 *   out): the page cache checks a kept page's counts with it instead of rendering the page again.
 * - The edge sends PAGE_KEPT_HEADER on the reads of a page render whose page it keeps in the data
 *   centre's shared cache (worker/page-cache.ts). A backend may then keep those answers in its
 *   isolate's memory only: the kept page is the data centre's copy of what they said, and a second
 *   copy of each costs a lookup that misses and a write on every such render. A backend that does
 *   not know the header caches as it always did.
 */
export const CATALOGUE_VERSION_PATH = "/catalogue/version";
export const CATALOGUE_STOCK_PATH = "/catalogue/stock";
export const CATALOGUE_VERSION_HEADER = "x-catalogue-version";
export const LOW_STOCK_HEADER = "x-low-stock";
export const PAGE_KEPT_HEADER = "x-page-kept";
export const MAX_STOCK_IDS = 100;

/** A product's id ("12") or a variant's ("v80"), as the pairs and the stock read name them. */
export const STOCK_KEY = /^v?\d{1,12}$/;

/** The `id:stock` pairs of LOW_STOCK_HEADER, as a map by key (malformed pairs are skipped). */
export function parseStockPairs(value: string): Map<string, number> {
  const pairs = new Map<string, number>();
  for (const pair of value.split(",")) {
    const [key, count] = pair.split(":");
    const stock = Number(count);
    if (key !== undefined && STOCK_KEY.test(key) && count !== "" && Number.isInteger(stock)) pairs.set(key, stock);
  }
  return pairs;
}

/** The pairs written back, sorted by key: equal strings mean equal counts. */
export function stockPairs(pairs: Map<string, number>): string {
  return [...pairs]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, stock]) => `${key}:${stock}`)
    .join(",");
}
