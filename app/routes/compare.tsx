import { useEffect, useSyncExternalStore } from "react";
import type { Route } from "./+types/compare";
import type { ProductDetails } from "../../contract/catalogue";
import { pageCacheMiddleware } from "../middleware/page-cache";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { Stylesheet } from "../components/Stylesheet";
import { getProduct } from "../lib/api/catalogue";
import { ApiError } from "../lib/api/errors";
import { serverApi } from "../lib/api/server";
import { compareGroups, comparedSlugs, differencesOnly } from "../lib/compare-table";
import { compareSearch, MAX_COMPARED, setCompared } from "../lib/comparison";
import { translate } from "../lib/i18n";
import { Link } from "../lib/link";
import { failLoad, routeLocale } from "../lib/loaders";
import { metaLocale, pageMeta } from "../lib/seo";
import { useLocalePath, useT } from "../lib/use-locale";
import catalogueCss from "../styles/catalogue.css?url";
import compareCss from "../styles/compare.css?url";

/**
 * The comparison page: up to four products side by side, named by the URL alone (`?p=a,b,c`, so
 * a shared link shows the same to anyone; `&diff=1` keeps only the rows that differ). Built on
 * the server, links all through, so it works and prints without JavaScript. A public page, the
 * same for every visitor of its URL: kept briefly in memory like the lists.
 */
export const middleware: Route.MiddlewareFunction[] = [pageCacheMiddleware];

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const locale = routeLocale(params, context);
  const { slugs, dropped } = comparedSlugs(url.searchParams.get("p"), MAX_COMPARED);
  const diffOnly = url.searchParams.get("diff") === "1";
  const api = await serverApi(context, request, locale);
  try {
    // Every product at once; one that is gone (or hidden) is left out and said so.
    const read = await Promise.all(
      slugs.map((slug) =>
        getProduct(api, slug).then(
          ({ data }) => data,
          (error: unknown) => {
            if (error instanceof ApiError && error.status === 404) return null;
            throw error;
          },
        ),
      ),
    );
    const products = read.filter((p): p is ProductDetails => p !== null);
    const groups = compareGroups(products, locale);
    const kinds = new Set(products.map((p) => p.breadcrumbs[0]?.slug ?? p.category.slug));
    return {
      products: products.map((p) => ({
        slug: p.slug,
        name: p.name,
        image: p.image,
        group: p.breadcrumbs[0]?.slug ?? p.category.slug,
      })),
      groups: diffOnly ? differencesOnly(groups) : groups,
      diffOnly,
      anyDiffer: groups.some((g) => g.rows.some((r) => r.differs)),
      missing: products.length < slugs.length,
      dropped,
      mixed: kinds.size > 1,
    };
  } catch (error) {
    failLoad(error, locale);
  }
}

export const meta: Route.MetaFunction = (args) => {
  const locale = metaLocale(args);
  const names = args.loaderData?.products.map((p) => p.name) ?? [];
  const title = names.length
    ? translate(locale, "compare.titleOf", { names: names.join(" · ") })
    : translate(locale, "compare.title");
  // One shopper's pick: shareable, but not a page of its own for search engines.
  return pageMeta(args, { page: "compare", title, noindex: true, keepQuery: ["p"] });
};

const noChange = () => () => undefined;
const isClient = () => true;
const isServer = () => false;

export default function Compare({ loaderData }: Route.ComponentProps) {
  const { products, groups, diffOnly, anyDiffer, missing, dropped, mixed } = loaderData;
  const t = useT();
  const to = useLocalePath();
  const base = to("/compare");
  const slugs = products.map((p) => p.slug);
  // The print button needs JavaScript: shown once the page runs (the browser's own print before).
  const canPrint = useSyncExternalStore(noChange, isClient, isServer);
  // This browser's pick follows the page: a removal here, or a shared link opened.
  const key = slugs.join();
  useEffect(() => {
    if (products.length && !mixed)
      setCompared({ group: products[0].group, items: products.map(({ slug, name }) => ({ slug, name })) });
    // The products are named by `key`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, mixed]);
  return (
    <div className="container page compare-page">
      <Stylesheet href={catalogueCss} />
      <Stylesheet href={compareCss} />
      <Breadcrumbs
        items={[
          { name: t("catalogue.home"), to: to("/") },
          { name: t("catalogue.products"), to: to("/products") },
          { name: t("compare.title") },
        ]}
      />
      <header className="compare-page__head">
        <h1>{t("compare.title")}</h1>
        {products.length > 1 ? (
          <div className="compare-page__tools">
            <Link
              className="button button--ghost"
              to={`${base}${compareSearch(slugs, !diffOnly)}`}
              aria-describedby="compare-diff-state"
            >
              {diffOnly ? t("compare.showAll") : t("compare.showDifferences")}
            </Link>
            <span id="compare-diff-state" className="visually-hidden">
              {diffOnly ? t("compare.showingDifferences") : t("compare.showingAll")}
            </span>
            {canPrint ? (
              <button type="button" className="button button--ghost" onClick={() => window.print()}>
                {t("compare.print")}
              </button>
            ) : null}
          </div>
        ) : null}
      </header>
      {missing || dropped || mixed ? (
        <div className="notice notice--warn" role="status">
          {missing ? <p>{t("compare.missing")}</p> : null}
          {dropped ? <p>{t("compare.tooMany", { max: MAX_COMPARED })}</p> : null}
          {mixed ? <p>{t("compare.mixed")}</p> : null}
        </div>
      ) : null}
      {products.length === 0 ? (
        <div className="compare-page__empty">
          <p>{t("compare.empty", { max: MAX_COMPARED })}</p>
          <Link className="button button--primary" to={to("/products")}>
            {t("compare.browse")}
          </Link>
        </div>
      ) : (
        <>
          {diffOnly && !anyDiffer ? <p className="muted">{t("compare.noDifferences")}</p> : null}
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (axe: scrollable-region-focusable) */}
          <div className="compare" role="region" aria-label={t("compare.tableLabel")} tabIndex={0}>
            <table className="compare__table" style={{ "--compared": products.length } as React.CSSProperties}>
              <caption className="visually-hidden">{t("compare.tableLabel")}</caption>
              <thead>
                <tr>
                  <td className="compare__corner" />
                  {products.map((p) => (
                    <th scope="col" key={p.slug} className="compare__product">
                      <img src={p.image} alt="" width={160} height={160} loading="lazy" decoding="async" />
                      <Link to={to(`/product-details/${encodeURIComponent(p.slug)}`)} className="compare__name">
                        {p.name}
                      </Link>
                      <Link
                        to={`${base}${compareSearch(
                          slugs.filter((s) => s !== p.slug),
                          diffOnly,
                        )}`}
                        className="compare__remove"
                        aria-label={t("compare.removeOne", { name: p.name })}
                      >
                        {t("compare.remove")}
                      </Link>
                    </th>
                  ))}
                </tr>
              </thead>
              {groups.map((group) => (
                <tbody key={group.heading}>
                  <tr className="compare__group">
                    <th scope="colgroup" colSpan={products.length + 1}>
                      {group.heading}
                    </th>
                  </tr>
                  {group.rows.map((row) => (
                    <tr key={row.label} className={row.differs ? "compare__differs" : undefined}>
                      <th scope="row">
                        {row.label}
                        {row.differs && products.length > 1 ? (
                          <span className="compare__badge">{t("compare.differs")}</span>
                        ) : null}
                      </th>
                      {row.values.map((value, i) => (
                        <td key={slugs[i]}>
                          <bdi>{value}</bdi>
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              ))}
            </table>
          </div>
        </>
      )}
    </div>
  );
}
