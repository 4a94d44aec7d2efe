import { useEffect, useRef } from "react";
import { Form, useNavigate } from "react-router";
import { Link } from "../lib/link";
import type { AttributeFacet, AttributeFilter, ProductFacets } from "../../contract/catalogue";
import { flattenCategories, type Category } from "../lib/catalogue";
import { escapeHtml } from "../lib/html";
import { translate } from "../lib/i18n";
import type { Locale } from "../lib/locales";
import { formatWholeMoney } from "../lib/money";
import { formatAttributeNumber } from "../lib/specifications";
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

/** The price bands, the in-stock count and the attributes as the page shows them, labelled on the server. */
export interface FacetView {
  bands: { label: string; min_price: number; max_price?: number; count: number }[];
  inStock: number;
  attributes: AttributeView[];
}

/**
 * One attribute's filter as the page shows it: its values as checkboxes, labelled and counted (a
 * value chosen but held by none of the list stays, counted 0); a number of many values as a
 * range instead (RANGE_FROM).
 */
export interface AttributeView {
  code: string;
  legend: string;
  values: { value: string; label: string; count: number; checked: boolean }[];
  /** A number's range: the lowest and highest value the list holds, and the bounds chosen. */
  range: { min: string; max: string; gte?: number; lte?: number } | null;
  chosen: boolean;
}

/** A number attribute with more values than this is filtered by a range rather than by ticking values. */
export const RANGE_FROM = 8;

/** The attributes' facets as the filter form shows them, the chosen filters kept in view. */
export function attributeViews(
  facets: AttributeFacet[] | undefined,
  chosen: readonly AttributeFilter[],
  locale: Locale,
): AttributeView[] {
  return (facets ?? []).map((facet) => {
    const filter = chosen.find((f) => f.code === facet.code);
    const label = (value: string, optionLabel?: string) => {
      if (facet.type === "enum") return optionLabel ?? value;
      if (facet.type === "bool") return translate(locale, value === "1" ? "product.specYes" : "product.specNo");
      return formatAttributeNumber(Number(value), facet.unit, locale);
    };
    const values = facet.values.map((v) => ({
      value: v.value,
      label: label(v.value, v.label),
      count: v.count,
      checked: filter?.values.includes(v.value) ?? false,
    }));
    for (const value of filter?.values ?? [])
      if (!values.some((v) => v.value === value)) values.push({ value, label: label(value), count: 0, checked: true });
    const numbers = facet.values.map((v) => Number(v.value));
    const range =
      facet.type === "number" && facet.values.length > RANGE_FROM
        ? {
            // The range's inputs are typed left to right in Latin digits: their placeholders too.
            min: String(Math.min(...numbers)),
            max: String(Math.max(...numbers)),
            ...(filter?.gte !== undefined ? { gte: filter.gte } : {}),
            ...(filter?.lte !== undefined ? { lte: filter.lte } : {}),
          }
        : null;
    return {
      code: facet.code,
      legend: facet.unit
        ? translate(locale, "catalogue.attributeUnit", { label: facet.label, unit: facet.unit })
        : facet.label,
      values: range ? [] : values,
      range,
      chosen: filter !== undefined,
    };
  });
}

/**
 * One option of the category or brand select, as filterOptions makes it: the label with its depth
 * and count already written, and `off` when the facets count none (and it is not the one chosen).
 */
export interface FilterOption {
  value: string;
  label: string;
  off?: true;
}

/**
 * The category and brand selects' options as markup (optionsHtml), made in the loader. Only this
 * goes into the page's data, not the tree's or the brands' records and a count record beside them,
 * nor an object per option: at 100,000 products the 80 brands were the larger half of the list's
 * loader data, encoded on every fresh render (docs/PERFORMANCE.md, "The Worker's own CPU").
 */
export interface FilterSelects {
  category: string;
  brand: string;
}

/** Price band edges as formatted by facetView, by locale and amount (bounded). */
const bandEdges = new Map<string, string>();

/**
 * The backend's price bands and in-stock count for the page, made in the loader: the bands'
 * labels are formatted there (like the prices), so hydrating the list builds no Intl.NumberFormat.
 */
export function facetView(
  facets: ProductFacets | undefined,
  locale: Locale,
  chosen: readonly AttributeFilter[] = [],
): FacetView | null {
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
    attributes: attributeViews(facets.attributes, chosen, locale),
  };
}

/** A category as the filter offers it: the tree flattened, each with its depth. */
export interface CategoryOption {
  slug: string;
  name: string;
  depth: number;
}

export function categoryOptions(tree: Category[]): CategoryOption[] {
  return flattenCategories(tree).map(({ category: { slug, name }, depth }) => ({ slug, name, depth }));
}

/** "Name (count)" where the facets know the count. */
const counted = (name: string, count: number | undefined) => (count === undefined ? name : `${name} (${count})`);

/**
 * A select's options: each item labelled with its depth (an em dash per level) and, when the
 * facets counted (`counts`), its count; an item they count none of is `off` unless it is `chosen`.
 */
export function filterOptions(
  items: { slug: string; name: string; depth?: number }[],
  counts: { slug: string; count: number }[] | undefined,
  chosen: string | undefined,
): FilterOption[] {
  const bySlug = counts && new Map(counts.map((c) => [c.slug, c.count]));
  return items.map(({ slug, name, depth = 0 }) => {
    const count = bySlug ? (bySlug.get(slug) ?? 0) : undefined;
    const label = `${"\u2014 ".repeat(depth)}${counted(name, count)}`;
    return count === 0 && slug !== chosen ? { value: slug, label, off: true } : { value: slug, label };
  });
}

/**
 * A select's options as markup: a first "all" option, then each option, the `chosen` one selected
 * and an `off` one disabled; the same markup React would write. The category and brand selects are
 * the largest part of a list page (at 100,000 products, 21 categories and 80 brands): as elements,
 * their options cost about 0.4 ms of the Worker's CPU on every fresh render (eight small chunks
 * each for React's stream writer to copy and count), and as objects in the loader data as much
 * again; one string costs next to nothing in either. Hydration keeps the markup; a remount sets it,
 * then `defaultValue`.
 */
export function optionsHtml(first: string, options: FilterOption[], chosen: string | undefined): string {
  const option = (value: string, label: string, selected: boolean, off: boolean) =>
    `<option value="${escapeHtml(value)}"${selected ? ' selected=""' : ""}${off ? ' disabled=""' : ""}>${escapeHtml(label)}</option>`;
  let html = option("", first, !chosen, false);
  for (const o of options) html += option(o.value, o.label, o.value === chosen, o.off === true);
  return html;
}

/** Both selects' options for a list: each counted by the facets where it has them. */
export function filterSelects(
  locale: Locale,
  query: Pick<ProductQuery, "category" | "brand">,
  tree: CategoryOption[],
  brands: { slug: string; name: string }[],
  facets: ProductFacets | undefined,
): FilterSelects {
  return {
    category: optionsHtml(
      translate(locale, "catalogue.allCategories"),
      filterOptions(tree, facets?.categories, query.category),
      query.category,
    ),
    brand: optionsHtml(
      translate(locale, "catalogue.allBrands"),
      filterOptions(brands, facets?.brands, query.brand),
      query.brand,
    ),
  };
}

/**
 * The list's filters and sort as one GET form: without JavaScript it submits to the same URL;
 * with it, changing a select or the checkbox applies at once. Any change starts again at page 1.
 */
export function ProductFilters({
  action,
  query,
  selects,
  facets = null,
}: {
  action: string;
  query: ProductQuery;
  selects: FilterSelects;
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
    // Appended, not set: the ticked values of one attribute share their name.
    for (const [k, v] of new FormData(form.current)) if (typeof v === "string" && v.trim() !== "") fields.append(k, v);
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
        {/* The category and brand selects: their options come as markup (filterSelects). */}
        {(["category", "brand"] as const).map((field) => (
          <div className="field" key={field}>
            <label htmlFor={`filter-${field}`}>{t(`catalogue.${field}`)}</label>
            <select
              id={`filter-${field}`}
              name={field}
              defaultValue={query[field] ?? ""}
              onChange={apply}
              dangerouslySetInnerHTML={{ __html: selects[field] }}
            />
          </div>
        ))}
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
      {facets && facets.attributes.length > 0 ? (
        <div className="filters__attributes">
          {facets.attributes.map((a) => (
            <AttributeFilterField key={a.code} attribute={a} apply={apply} />
          ))}
        </div>
      ) : null}
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

/**
 * One attribute's filter: a disclosure (open while it filters) holding its values as checkboxes,
 * each with its count, or a number's range. Ticking applies at once with JavaScript; without it
 * the form's Apply button submits the same names (`filter.<code>`, repeated per value).
 */
function AttributeFilterField({ attribute: a, apply }: { attribute: AttributeView; apply: () => void }) {
  const t = useT();
  const name = `filter.${a.code}`;
  return (
    <details className="filters__attribute" open={a.chosen}>
      <summary>{a.legend}</summary>
      <fieldset>
        <legend className="visually-hidden">{a.legend}</legend>
        {a.range ? (
          <div className="filters__price-inputs">
            <label className="visually-hidden" htmlFor={`${name}-gte`}>
              {t("catalogue.attributeFrom", { label: a.legend })}
            </label>
            <input
              id={`${name}-gte`}
              name={`${name}.gte`}
              type="text"
              inputMode="decimal"
              placeholder={a.range.min}
              defaultValue={a.range.gte ?? ""}
              size={5}
              dir="ltr"
            />
            <span aria-hidden="true">–</span>
            <label className="visually-hidden" htmlFor={`${name}-lte`}>
              {t("catalogue.attributeTo", { label: a.legend })}
            </label>
            <input
              id={`${name}-lte`}
              name={`${name}.lte`}
              type="text"
              inputMode="decimal"
              placeholder={a.range.max}
              defaultValue={a.range.lte ?? ""}
              size={5}
              dir="ltr"
            />
          </div>
        ) : (
          a.values.map((value) => (
            <label className="filters__check" key={value.value}>
              <input
                type="checkbox"
                name={name}
                value={value.value}
                defaultChecked={value.checked}
                disabled={value.count === 0 && !value.checked}
                onChange={apply}
              />
              {counted(value.label, value.count)}
            </label>
          ))
        )}
      </fieldset>
    </details>
  );
}
