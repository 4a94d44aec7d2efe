import * as v from "valibot";
import { latinDigits } from "../../contract/digits";
import { attributeFilterParams, readAttributeFilters, type AttributeFilter } from "../../contract/catalogue";

/** The product list's sorts, as the backend names them. */
export const SORTS = ["relevance", "newest", "price_asc", "price_desc", "name"] as const;
export type Sort = (typeof SORTS)[number];
export const PER_PAGE = 12;

const slug = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.regex(/^[a-z0-9][a-z0-9-]{0,80}$/));
const riyals = v.pipe(
  v.string(),
  v.transform((s) => latinDigits(s).replace(/,/g, "").trim()),
  v.regex(/^\d{1,7}(\.\d{1,2})?$/),
  v.transform(Number),
);
const positiveInt = v.pipe(
  v.string(),
  v.transform((s) => latinDigits(s).trim()),
  v.regex(/^[1-9]\d{0,4}$/),
  v.transform(Number),
);

/** Each parameter is checked on its own, so one bad value is dropped without losing the others. */
const FIELDS = {
  q: v.pipe(v.string(), v.trim(), v.maxLength(100)),
  category: slug,
  brand: slug,
  min_price: riyals,
  max_price: riyals,
  in_stock: v.picklist(["1", "true", "on"]),
  sort: v.picklist(SORTS),
  page: positiveInt,
} as const;

export interface ProductQuery {
  q?: string;
  category?: string;
  brand?: string;
  /** Riyals, as the shopper types them; the backend takes halalas. */
  min_price?: number;
  max_price?: number;
  in_stock: boolean;
  /** Typed specifications' filters (`filter.<code>`), Arabic-Indic digits read as digits. */
  attributes: AttributeFilter[];
  sort?: Sort;
  page: number;
}

/** Reads the list's view from the URL; `ignored` names the parameters that were not understood. */
export function parseProductQuery(params: URLSearchParams): { query: ProductQuery; ignored: string[] } {
  const query: ProductQuery = { in_stock: false, attributes: [], page: 1 };
  const ignored: string[] = [];
  const attributes = readAttributeFilters(
    [...params].map(([name, value]): [string, string] => [name, latinDigits(value).toLowerCase()]),
  );
  query.attributes = attributes.filters;
  ignored.push(...attributes.bad);
  for (const [name, schema] of Object.entries(FIELDS) as [keyof typeof FIELDS, v.GenericSchema<string, unknown>][]) {
    const raw = params.get(name);
    if (raw === null || raw.trim() === "") continue;
    const result = v.safeParse(schema, raw);
    if (!result.success) {
      ignored.push(name);
      continue;
    }
    const value = result.output;
    if (name === "in_stock") query.in_stock = true;
    else if (name === "q" && typeof value === "string" && value) query.q = value;
    else if ((name === "category" || name === "brand") && typeof value === "string") query[name] = value;
    else if ((name === "min_price" || name === "max_price") && typeof value === "number") query[name] = value;
    else if (name === "sort") query.sort = value as Sort;
    else if (name === "page" && typeof value === "number") query.page = value;
  }
  if (query.min_price !== undefined && query.max_price !== undefined && query.min_price > query.max_price) {
    [query.min_price, query.max_price] = [query.max_price, query.min_price];
  }
  return { query, ignored };
}

/** The backend's query for a view: prices in halalas. */
export function backendQuery(q: ProductQuery, perPage = PER_PAGE): Record<string, string | number | undefined> {
  return {
    q: q.q,
    category: q.category,
    brand: q.brand,
    min_price: q.min_price !== undefined ? Math.round(q.min_price * 100) : undefined,
    max_price: q.max_price !== undefined ? Math.round(q.max_price * 100) : undefined,
    in_stock: q.in_stock ? 1 : undefined,
    sort: q.sort,
    page: q.page,
    per_page: perPage,
    ...Object.fromEntries(attributeFilterParams(q.attributes)),
  };
}

/** The URL search of a view, with changes; page 1 and defaults are left out so links stay short. */
export function viewSearch(q: ProductQuery, change: Partial<ProductQuery> = {}): string {
  const next = { ...q, ...change };
  const s = new URLSearchParams();
  if (next.q) s.set("q", next.q);
  if (next.category) s.set("category", next.category);
  if (next.brand) s.set("brand", next.brand);
  if (next.min_price !== undefined) s.set("min_price", String(next.min_price));
  if (next.max_price !== undefined) s.set("max_price", String(next.max_price));
  if (next.in_stock) s.set("in_stock", "1");
  for (const [name, value] of attributeFilterParams(next.attributes)) s.set(name, value);
  if (next.sort) s.set("sort", next.sort);
  if (next.page > 1) s.set("page", String(next.page));
  // Commas stay as they are (a query allows them): `filter.ram=8,16` reads better shared.
  const text = s.toString().replace(/%2C/g, ",");
  return text ? `?${text}` : "";
}
