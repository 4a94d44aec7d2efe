import { Link } from "../lib/link";
import type { Route } from "./+types/products";
import { pageCacheMiddleware } from "../middleware/page-cache";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { Pagination } from "../components/Pagination";
import { ProductGrid } from "../components/ProductCard";
import { categoryOptions, facetView, filterSelects, ProductFilters } from "../components/ProductFilters";
import { listBrands, listProducts } from "../lib/api/catalogue";
import { referenceList } from "../lib/api/reference";
import { serverApi } from "../lib/api/server";
import { cardsOf, topCategories, type ListMeta } from "../lib/catalogue";
import { catalogueContext } from "../lib/context";
import { translate } from "../lib/i18n";
import { failLoad, routeLocale } from "../lib/loaders";
import { backendQuery, parseProductQuery, viewSearch } from "../lib/product-query";
import { breadcrumbList, metaLocale, metaOrigin, pageMeta } from "../lib/seo";
import { countOf } from "../lib/plural";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "../components/Stylesheet";
import catalogueCss from "../styles/catalogue.css?url";

/** A public page, the same for every anonymous visitor: kept briefly in memory (middleware/page-cache.ts). */
export const middleware: Route.MiddlewareFunction[] = [pageCacheMiddleware];

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const locale = routeLocale(params, context);
  const { query, ignored } = parseProductQuery(url.searchParams);
  const api = await serverApi(context, request, locale);
  try {
    // The three reads go out together; the category tree is the one the header already asked for,
    // and it and the brands are kept while the catalogue version stands (lib/api/reference.ts).
    const [list, categories, brands] = await Promise.all([
      listProducts(api, { ...backendQuery(query), facets: 1 }),
      context.get(catalogueContext)(),
      referenceList(context, `${locale} /brands`, () => listBrands(api).then((r) => r.data ?? [])),
    ]);
    const meta = (list.meta ?? {}) as Partial<ListMeta>;
    const tree = categoryOptions(categories);
    const chosen = query.category ? tree.find((c) => c.slug === query.category) : undefined;
    // The list's cards offer Compare, within each one's top-level category.
    const tops = topCategories(categories);
    const products = cardsOf(list.data ?? [], locale).map((card, i) => ({
      ...card,
      group: tops.get(list.data[i].category.slug) ?? list.data[i].category.slug,
    }));
    return {
      query,
      ignored,
      products,
      meta: {
        page: meta.page ?? query.page,
        per_page: meta.per_page ?? 12,
        total: meta.total ?? 0,
        last_page: Math.max(1, meta.last_page ?? 1),
        searched_for: meta.searched_for,
      },
      facets: facetView(meta.facets, locale, query.attributes),
      // The filters' options as markup, labelled with their counts (ProductFilters, filterSelects).
      selects: filterSelects(locale, query, tree, brands, meta.facets),
      /** The chosen category's name, for the heading, breadcrumbs and title. */
      category: chosen ? { slug: chosen.slug, name: chosen.name } : undefined,
      /** A search that found nothing offers every category instead. */
      popular: query.q && products.length === 0 ? tree.map(({ slug, name }) => ({ slug, name })) : [],
    };
  } catch (error) {
    failLoad(error, locale);
  }
}

export const meta: Route.MetaFunction = (args) => {
  const data = args.loaderData;
  const locale = metaLocale(args);
  const t = (key: string, p?: Record<string, string | number>) => translate(locale, key, p);
  const category = data?.category;
  let title = category
    ? t("seo.categoryTitle", { category: category.name })
    : data?.query.q
      ? t("seo.searchTitle", { q: data.query.q })
      : t("pages.products.title");
  if (data && data.query.page > 1) title = `${title} — ${t("seo.pageSuffix", { page: data.query.page })}`;
  const origin = metaOrigin(args);
  const crumbs = [
    { name: t("catalogue.home"), url: `${origin}/${locale}` },
    { name: t("catalogue.products"), url: `${origin}/${locale}/products` },
    ...(category
      ? [{ name: category.name, url: `${origin}/${locale}/products?category=${encodeURIComponent(category.slug)}` }]
      : []),
  ];
  return pageMeta(args, {
    page: "products",
    title,
    // A search result is not a page of its own for search engines; category pages are.
    noindex: Boolean(data?.query.q),
    keepQuery: ["category", "page"],
    extra: [breadcrumbList(crumbs)],
  });
};

/**
 * A sentence with words of the shopper's own in it, each isolated in <bdi> (they may run in the
 * other direction): `text` holds \uE000, \uE001… (private-use marks) where `values` go.
 */
function Isolated({ text, values }: { text: string; values: string[] }) {
  const parts = text.split(/([\uE000-\uE009])/);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <bdi key={i}>{values[part.charCodeAt(0) - 0xe000]}</bdi> : part))}</>;
}

export default function Products({ loaderData }: Route.ComponentProps) {
  const { query, ignored, products, meta, selects, facets, category, popular } = loaderData;
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const base = to("/products");
  // The searched words may run in the other direction: isolated in <bdi> inside the sentence.
  const heading = query.q ? (
    <Isolated text={t("catalogue.resultsFor", { q: "\uE000" })} values={[query.q]} />
  ) : (
    (category?.name ?? t("pages.products.title"))
  );
  const count = countOf(t, locale, "catalogue.results", meta.total);
  const filtered = Boolean(
    query.category ||
    query.brand ||
    query.min_price !== undefined ||
    query.max_price !== undefined ||
    query.in_stock ||
    query.attributes.length > 0,
  );
  return (
    <div className="container page catalogue">
      <Stylesheet href={catalogueCss} />
      <Breadcrumbs
        items={[
          { name: t("catalogue.home"), to: to("/") },
          { name: t("catalogue.products"), to: base },
          ...(category ? [{ name: category.name }] : []),
        ]}
      />
      <header className="catalogue__head">
        <h1>{heading}</h1>
        <p className="catalogue__count muted" role="status" aria-live="polite">
          {count}
          {meta.last_page > 1 ? <> · {t("catalogue.pageOf", { page: meta.page, last: meta.last_page })}</> : null}
        </p>
      </header>
      <ProductFilters action={base} query={query} selects={selects} facets={facets} />
      {ignored.length > 0 ? (
        <div className="notice notice--warn">
          <p>{t("catalogue.badValue")}</p>
        </div>
      ) : null}
      {meta.searched_for && query.q ? (
        <div className="notice notice--warn" role="status">
          <p>
            <Isolated
              text={t("catalogue.searchedFor", { typed: "\uE000", q: "\uE001" })}
              values={[query.q, meta.searched_for]}
            />
          </p>
        </div>
      ) : null}
      {products.length > 0 ? (
        <ProductGrid products={products} eager={4} lcp={query.page === 1} headingLevel={2} />
      ) : (
        <section className="empty-state empty-state--boxed" aria-labelledby="empty-title">
          {/* Honest about why: a search that found nothing, or filters that leave nothing. */}
          {query.q && !filtered ? (
            <>
              <h2 id="empty-title">
                <Isolated text={t("catalogue.emptySearch", { q: "\uE000" })} values={[query.q]} />
              </h2>
              <p className="muted">{t("catalogue.emptySearchHint")}</p>
              <nav aria-label={t("catalogue.popularCategories")}>
                <ul className="empty-state__links">
                  {popular.map((c) => (
                    <li key={c.slug}>
                      <Link to={`${base}?category=${encodeURIComponent(c.slug)}`}>{c.name}</Link>
                    </li>
                  ))}
                </ul>
              </nav>
            </>
          ) : (
            <>
              <h2 id="empty-title">{t("catalogue.empty")}</h2>
              <p className="muted">{t("catalogue.emptyHint")}</p>
              {filtered || query.q ? (
                <Link className="button" to={base}>
                  {t("catalogue.clear")}
                </Link>
              ) : null}
            </>
          )}
        </section>
      )}
      <Pagination page={meta.page} last={meta.last_page} href={(page) => `${base}${viewSearch(query, { page })}`} />
    </div>
  );
}
