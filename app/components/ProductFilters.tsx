import { useEffect, useRef } from "react";
import { Form, useNavigate } from "react-router";
import { Link } from "../lib/link";
import type { ProductFacets } from "../../contract/catalogue";
import { flattenCategories, type Category, type Ref } from "../lib/catalogue";
import { translate } from "../lib/i18n";
import type { Locale } from "../lib/locales";
import { formatWholeMoney } from "../lib/money";
import { parseProductQuery, SORTS, viewSearch, type ProductQuery } from "../lib/product-query";
import { useT } from "../lib/use-locale";

const SORT_KEYS: Record<(typeof SORTS)[number], string> = {
  relevance: "catalogue.sortRelevance",
  newest: "catalogue.sortNewest",
  price_asc: "catalogue.sortPriceAsc",
  price_desc: "catalogue.sortPriceDesc",
  name: "catalogue.sortName",
};

const lastFocused: { id: string } = { id: "" };

/** The facets as the page shows them: counts by slug, and the price bands labelled on the server. */
export interface FacetView {
  categories: Record<string, number>;
  brands: Record<string, number>;
  bands: { label: string; min_price: number; max_price?: number; count: number }[];
  inStock: number;
}

/** Price band edges as formatted by facetView, by locale and amount (bounded). */
const bandEdges = new Map<string, string>();

/**
 * The backend's facet counts for the page, made in the loader: the price bands' labels are
 * formatted there (like the prices), so hydrating the list builds no Intl.NumberFormat.
 */
export function facetView(facets: ProductFacets | undefined, locale: Locale): FacetView | null {
  if (!facets) return null;
  const money = (minor: number) => {
    // The bands' edges repeat on every list render: each is formatted once per isolate (constructing
    // an Intl.NumberFormat per label was the list page's largest i18n cost; docs/PERFORMANCE.md).
    const key = `${locale}|${minor}`;
    let label = bandEdges.get(key);
    if (label === undefined) {
      if (bandEdges.size >= 500) bandEdges.clear();
      bandEdges.set(key, (label = formatWholeMoney(minor, "SAR", locale)));
    }
    return label;
  };
  return {
    categories: Object.fromEntries(facets.categories.map((c) => [c.slug, c.count])),
    brands: Object.fromEntries(facets.brands.map((b) => [b.slug, b.count])),
    bands: facets.price_bands.map((band) => ({
      label:
        band.max === null
          ? translate(locale, "catalogue.bandOver", { min: money(band.min) })
          : band.min === 0
            ? translate(locale, "catalogue.bandUnder", { max: money(band.max) })
            : translate(locale, "catalogue.bandBetween", { min: money(band.min), max: money(band.max) }),
      // The view's prices are in riyals; a band's top is exclusive.
      min_price: band.min / 100,
      max_price: band.max === null ? undefined : band.max / 100 - 0.01,
      count: band.count,
    })),
    inStock: facets.in_stock,
  };
}

/** A category as the filter offers it: the tree flattened, each with its depth. */
export interface CategoryOption {
  id: number;
  slug: string;
  name: string;
  depth: number;
}

export function categoryOptions(tree: Category[]): CategoryOption[] {
  return flattenCategories(tree).map(({ category: { id, slug, name }, depth }) => ({ id, slug, name, depth }));
}

/** "Name (count)" where the facets know the count. */
const counted = (name: string, count: number | undefined) => (count === undefined ? name : `${name} (${count})`);

/**
 * The list's filters and sort as one GET form: without JavaScript it submits to the same URL;
 * with it, changing a select or the checkbox applies at once. Any change starts again at page 1.
 */
export function ProductFilters({
  action,
  query,
  categories,
  brands,
  facets = null,
}: {
  action: string;
  query: ProductQuery;
  categories: CategoryOption[];
  brands: Ref[];
  facets?: FacetView | null;
}) {
  const t = useT();
  const navigate = useNavigate();
  const form = useRef<HTMLFormElement>(null);
  // With JavaScript the view's URL is built from the form without its empty fields and defaults,
  // so links stay short and each view has one address.
  const apply = () => {
    if (!form.current) return;
    const fields = new URLSearchParams();
    for (const [k, v] of new FormData(form.current)) if (typeof v === "string" && v.trim() !== "") fields.set(k, v);
    const { query: next } = parseProductQuery(fields);
    if (next.sort === "relevance") delete next.sort;
    void navigate(`${action}${viewSearch({ ...next, page: 1 })}`, { preventScrollReset: true });
  };
  // Keyed by the URL's values so back/forward show the view's own values in uncontrolled fields;
  // the field that applied the change keeps the focus across that remount.
  const key = JSON.stringify(query);
  useEffect(() => {
    const id = lastFocused.id;
    if (id && (document.activeElement === document.body || document.activeElement === null))
      document.getElementById(id)?.focus();
  }, [key]);
  return (
    <Form
      ref={form}
      method="get"
      action={action}
      className="filters"
      aria-label={t("catalogue.filters")}
      key={key}
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
      onFocus={(e) => {
        lastFocused.id = e.target.id;
      }}
    >
      {query.q ? <input type="hidden" name="q" value={query.q} /> : null}
      <div className="filters__row">
        <div className="field">
          <label htmlFor="filter-category">{t("catalogue.category")}</label>
          <select id="filter-category" name="category" defaultValue={query.category ?? ""} onChange={apply}>
            <option value="">{t("catalogue.allCategories")}</option>
            {categories.map((category) => (
              <option
                key={category.id}
                value={category.slug}
                disabled={facets !== null && !facets.categories[category.slug] && query.category !== category.slug}
              >
                {`${"\u2014 ".repeat(category.depth)}${counted(category.name, facets ? (facets.categories[category.slug] ?? 0) : undefined)}`}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-brand">{t("catalogue.brand")}</label>
          <select id="filter-brand" name="brand" defaultValue={query.brand ?? ""} onChange={apply}>
            <option value="">{t("catalogue.allBrands")}</option>
            {brands.map((b) => (
              <option
                key={b.id}
                value={b.slug}
                disabled={facets !== null && !facets.brands[b.slug] && query.brand !== b.slug}
              >
                {counted(b.name, facets ? (facets.brands[b.slug] ?? 0) : undefined)}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="field filters__price">
          <legend>{t("catalogue.priceRange")}</legend>
          <div className="filters__price-inputs">
            <label className="visually-hidden" htmlFor="filter-min">
              {t("catalogue.minPrice")}
            </label>
            <input
              id="filter-min"
              name="min_price"
              type="text"
              inputMode="decimal"
              placeholder={t("catalogue.min")}
              defaultValue={query.min_price ?? ""}
              size={6}
              dir="ltr"
            />
            <span aria-hidden="true">–</span>
            <label className="visually-hidden" htmlFor="filter-max">
              {t("catalogue.maxPrice")}
            </label>
            <input
              id="filter-max"
              name="max_price"
              type="text"
              inputMode="decimal"
              placeholder={t("catalogue.max")}
              defaultValue={query.max_price ?? ""}
              size={6}
              dir="ltr"
            />
          </div>
        </fieldset>
        <div className="field">
          <label htmlFor="filter-sort">{t("catalogue.sort")}</label>
          <select id="filter-sort" name="sort" defaultValue={query.sort ?? "relevance"} onChange={apply}>
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {t(SORT_KEYS[s])}
              </option>
            ))}
          </select>
        </div>
        <label className="filters__check">
          <input type="checkbox" name="in_stock" value="1" defaultChecked={query.in_stock} onChange={apply} />
          {counted(t("catalogue.inStockOnly"), facets?.inStock)}
        </label>
        <div className="filters__actions">
          <button type="submit" className="button button--primary">
            {t("catalogue.apply")}
          </button>
        </div>
      </div>
      {facets ? (
        <ul className="filters__bands" aria-label={t("catalogue.priceRange")}>
          {facets.bands.map((band) => (
            <li key={band.min_price}>
              {band.count > 0 ? (
                <Link
                  to={`${action}${viewSearch({ ...query, min_price: band.min_price, max_price: band.max_price, page: 1 })}`}
                  aria-current={
                    query.min_price === band.min_price && query.max_price === band.max_price ? "true" : undefined
                  }
                >
                  {counted(band.label, band.count)}
                </Link>
              ) : (
                <span className="muted">{counted(band.label, 0)}</span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </Form>
  );
}
