import { Hono, type Context } from "hono";
import { instalmentRules } from "../services/payments/providers";
import * as v from "valibot";
import { CATALOGUE_SLUGS_PATH, MAX_SLUGS_PER_PAGE, readAttributeFilters } from "../../../contract/catalogue";
import { CATALOGUE_STOCK_PATH, CATALOGUE_VERSION_PATH, MAX_STOCK_IDS } from "../../../contract/freshness";
import { catalogueVersion, edgeCache, VERSION_HEADER, VERSION_TTL_MS } from "../cache";
import type { BackendEnv } from "../env";
import { deferOf, notFound, ok } from "../http";
import { say } from "../../../contract/server/i18n";
import { SORTS } from "../services/catalogue/list-filters";
import { activeSlugs, productDetails, stockOf } from "../services/catalogue/product";
import { listProducts, suggestProducts } from "../services/catalogue/search";
import { categoryTree, listBrands } from "../services/catalogue/taxonomy";
import { invalidInput, validate } from "../../../contract/server/validate";
import { hashedNetwork, requestNetwork } from "../services/shared/rate-limit";
import { storeIdentity } from "../services/shared/settings";
import { STORE_IDENTITY_PATH } from "../../../contract/settings";
import { queryInt } from "../validate";
import { msg } from "../messages";

/** Catalogue: categories, brands, products, search suggestions. */
export const catalogueRoutes = new Hono<BackendEnv>();

export const MAX_PAGE = 10_000;
export const MAX_PER_PAGE = 48;
export const DEFAULT_PER_PAGE = 12;
const MAX_QUERY_LENGTH = 100;

/** An optional slug filter; an empty value means "no filter", as an empty form field does. */
const slugFilter = v.optional(
  v.pipe(
    v.string(),
    v.maxLength(120, "Must be at most 120 characters."),
    v.regex(/^[a-z0-9-]*$/, "Must be a slug (lowercase letters, digits and hyphens)."),
    v.transform((s) => s || undefined),
  ),
);

/** An optional amount in halalas; empty means "no bound". */
const amountFilter = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^\d{0,10}$/, "Must be a whole number of halalas (at most 10 digits)."),
    v.transform((s) => (s === "" ? undefined : Number(s))),
  ),
);

const searchText = v.pipe(
  v.string(),
  v.maxLength(MAX_QUERY_LENGTH, `Must be at most ${MAX_QUERY_LENGTH} characters.`),
  v.trim(),
);

export const productQuery = v.pipe(
  v.object({
    q: v.optional(searchText),
    category: slugFilter,
    brand: slugFilter,
    min_price: amountFilter,
    max_price: amountFilter,
    // 1/true: only products in stock; 0/false: no stock filter (as an unticked checkbox).
    in_stock: v.optional(
      v.pipe(
        v.picklist(["1", "0", "true", "false"], "Must be 1, 0, true or false."),
        v.transform((s) => s === "1" || s === "true"),
      ),
    ),
    sort: v.optional(v.picklist(SORTS, `Must be one of: ${SORTS.join(", ")}.`), "relevance"),
    // 1: count the facets too (category, brand, price bands, in stock).
    facets: v.optional(
      v.pipe(
        v.picklist(["1", "0"], "Must be 1 or 0."),
        v.transform((s) => s === "1"),
      ),
    ),
    page: queryInt(1, MAX_PAGE, 1),
    per_page: queryInt(1, MAX_PER_PAGE, DEFAULT_PER_PAGE),
  }),
  v.forward(
    v.partialCheck(
      [["min_price"], ["max_price"]],
      (i) => i.min_price === undefined || i.max_price === undefined || i.min_price <= i.max_price,
      "Must not be below the minimum price.",
    ),
    ["max_price"],
  ),
);

const slugParam = v.object({ slug: v.pipe(v.string(), v.maxLength(120), v.regex(/^[a-z0-9-]+$/, "Must be a slug.")) });

const PRODUCT_NOT_FOUND = msg("catalogue.productNotFound");
const BAD_ATTRIBUTE_FILTER = msg("catalogue.badAttributeFilter");

/**
 * The attribute filters among the query's parameters (`filter.<code>`, contract/catalogue.ts),
 * which a fixed schema cannot name: each malformed one is a field error, as a bad field of the
 * schema is.
 */
function attributeFilters(c: Context<BackendEnv>) {
  const entries = Object.entries(c.req.queries()).flatMap(([k, vs]) => vs.map((one): [string, string] => [k, one]));
  const { filters, bad } = readAttributeFilters(entries);
  if (bad.length)
    throw invalidInput(
      c.get("lang"),
      Object.fromEntries(bad.map((key) => [key, [say(c.get("lang"), BAD_ATTRIBUTE_FILTER)]])),
    );
  return filters;
}

// The catalogue version (contract/edge.ts): the storefront's page cache asks at most once a second
// per isolate whether what it keeps is still current. Never cached by anyone: it is the freshness.
// The storefront keeps the answer up to a second, and asks again past half that: a reading older
// than half a second is read again first, so what it keeps is never much older than a second.
catalogueRoutes.get(CATALOGUE_VERSION_PATH, async (c) => {
  const version = await catalogueVersion(c.env.DB, undefined, VERSION_TTL_MS / 2);
  c.header("cache-control", "no-store");
  c.header(VERSION_HEADER, version);
  return ok(c, { version });
});

// The stock of a few products now (contract/freshness.ts): the page cache checks the "only N left"
// counts of a kept page with it. One primary-key query; never cached.
catalogueRoutes.get(
  CATALOGUE_STOCK_PATH,
  validate("query", () =>
    v.object({
      ids: v.pipe(
        v.string("Must be a list of product ids."),
        v.regex(/^v?\d{1,12}(,v?\d{1,12})*$/, "Must be product ids (and v-prefixed variant ids) separated by commas."),
        v.transform((s) => [...new Set(s.split(","))]),
        v.maxLength(MAX_STOCK_IDS, `Must be at most ${MAX_STOCK_IDS} ids.`),
      ),
    }),
  ),
  async (c) => {
    const stock = await stockOf(c.env.DB, c.req.valid("query").ids);
    c.header("cache-control", "no-store");
    return ok(c, Object.fromEntries(stock));
  },
);

// Every shown product's slug, a page at a time (contract/catalogue.ts): the sitemap's one read,
// which the storefront keeps by the catalogue version the answer names. Never cached here.
catalogueRoutes.get(
  CATALOGUE_SLUGS_PATH,
  validate("query", () =>
    v.object({
      page: queryInt(1, MAX_PAGE, 1),
      per_page: queryInt(1, MAX_SLUGS_PER_PAGE, MAX_SLUGS_PER_PAGE),
    }),
  ),
  async (c) => {
    const { page, per_page } = c.req.valid("query");
    const { slugs, total, version } = await activeSlugs(c.env.DB, page, per_page);
    c.header("cache-control", "no-store");
    c.header(VERSION_HEADER, version);
    return ok(c, slugs, { meta: { page, per_page, total, last_page: Math.max(1, Math.ceil(total / per_page)) } });
  },
);

catalogueRoutes.get("/categories", edgeCache("long"), async (c) => ok(c, await categoryTree(c.env.DB, c.get("lang"))));

/** The store's name and logo (contract/settings.ts): cached under the catalogue version, which a save of them bumps. */
catalogueRoutes.get(STORE_IDENTITY_PATH, edgeCache("long"), async (c) =>
  ok(c, await storeIdentity(c.env, c.get("lang"))),
);

catalogueRoutes.get("/brands", edgeCache("long"), async (c) => ok(c, await listBrands(c.env.DB, c.get("lang"))));

/**
 * A search's answer stays in the isolate's memory (the next seconds' same page: a .data request
 * after its document, a shopper's back button), not in the data centre's Cache API. Searches are
 * the long tail: each words, filters and page is its own answer, rarely asked again in the
 * answer's 30 s but through the page that shows it, which the page cache keeps in the data centre
 * already (worker/page-cache.ts); and a common search is cheap in D1 anyway, as it reads its kept
 * copy (services/catalogue/search-kept.ts). So the lookup that misses and the copy nobody reads would cost
 * every search: 3 to 5 ms of a cold search page's wait locally (a Cache API round trip each way),
 * and the copy's CPU. Lists, without words, stay shared: a few hundred of them are most visits.
 */
const searchAnswersShared = (c: Context<BackendEnv>) => !c.req.query("q");

catalogueRoutes.get(
  "/products",
  edgeCache("short", searchAnswersShared),
  validate("query", () => productQuery),
  async (c) => {
    // A search is kept for everyone only once several networks asked for it (search-kept.ts).
    const voter = () => hashedNetwork(c.env, requestNetwork(c));
    const filters = { ...c.req.valid("query"), attributes: attributeFilters(c) };
    const { data, meta } = await listProducts(c.env.DB, c.get("lang"), filters, deferOf(c), voter);
    return ok(c, data, { meta: { ...meta } });
  },
);

// Short, like the lists. Its stock, per-order maximum and prices (and its related products') are
// checked against D1 before a cached copy is served (cache.ts, "Freshness"), so a sale shows at once.
catalogueRoutes.get("/products/:slug", edgeCache("short"), async (c) => {
  const parsed = v.safeParse(slugParam, c.req.param());
  const product = parsed.success ? await productDetails(c.env.DB, c.get("lang"), parsed.output.slug) : null;
  if (!product) throw notFound(say(c.get("lang"), PRODUCT_NOT_FOUND));
  return ok(c, { ...product, instalments: instalmentRules(c.env) });
});

catalogueRoutes.get(
  "/search/suggest",
  edgeCache("short"),
  validate("query", () => v.object({ q: v.optional(searchText, "") })),
  async (c) => ok(c, await suggestProducts(c.env.DB, c.get("lang"), c.req.valid("query").q, deferOf(c))),
);
