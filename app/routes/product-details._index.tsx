import { Suspense } from "react";
import { Await, Form } from "react-router";
import type { ProductSummary } from "../../contract/catalogue";
import type { Route } from "./+types/product-details._index";
import { pageCacheMiddleware } from "../middleware/page-cache";
import { ProductGrid } from "../components/ProductCard";
import { listProducts } from "../lib/api/catalogue";
import { serverApi } from "../lib/api/server";
import { cardsOf, flattenCategories } from "../lib/catalogue";
import { catalogueContext } from "../lib/context";
import { deferred, failLoad, routeLocale } from "../lib/loaders";
import { pageMeta } from "../lib/seo";
import { useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "../components/Stylesheet";
import catalogueCss from "../styles/catalogue.css?url";

/** A public page, the same for every anonymous visitor: kept briefly in memory (middleware/page-cache.ts). */
export const middleware: Route.MiddlewareFunction[] = [pageCacheMiddleware];

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "productFinder" });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = routeLocale(params, context);
  const api = await serverApi(context, request, locale);
  // Critical: the categories of the finder's form. Deferred: the popular products below it.
  const popular = deferred<ProductSummary>(listProducts(api, { sort: "relevance", per_page: 4 })).then((items) =>
    cardsOf(items, locale),
  );
  try {
    return { categories: await context.get(catalogueContext)(), popular };
  } catch (error) {
    failLoad(error, locale);
  }
}

/** `product-details` without a slug: the bare product form, a finder that leads to a product. */
export default function ProductFinder({ loaderData }: Route.ComponentProps) {
  const { categories, popular } = loaderData;
  const t = useT();
  const to = useLocalePath();
  return (
    <div className="container page finder">
      <Stylesheet href={catalogueCss} />
      <h1>{t("product.finderTitle")}</h1>
      <p className="muted">{t("product.finderIntro")}</p>
      <Form method="get" action={to("/products")} className="finder__form card" role="search">
        <div className="field">
          <label htmlFor="finder-q">{t("product.finderQuery")}</label>
          <input id="finder-q" name="q" type="search" autoComplete="off" required maxLength={100} />
        </div>
        <div className="field">
          <label htmlFor="finder-category">{t("catalogue.category")}</label>
          <select id="finder-category" name="category" defaultValue="">
            <option value="">{t("catalogue.allCategories")}</option>
            {flattenCategories(categories).map(({ category, depth }) => (
              <option key={category.id} value={category.slug}>{`${"\u2014 ".repeat(depth)}${category.name}`}</option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button--primary">
          {t("product.finderSubmit")}
        </button>
      </Form>
      <Suspense fallback={null}>
        <Await resolve={popular}>
          {(items) =>
            items.length > 0 ? (
              <section className="section" aria-labelledby="finder-popular">
                <h2 id="finder-popular">{t("product.finderPopular")}</h2>
                <ProductGrid products={items} />
              </section>
            ) : null
          }
        </Await>
      </Suspense>
    </div>
  );
}
